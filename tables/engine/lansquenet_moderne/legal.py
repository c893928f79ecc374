"""Lansquenet moderne: what may be done now and by whom, and what the table screen shows.

The legal actions of LM-4.0.3, the checks of COM-10.2 (LM-4.0.2) that the handlers share (the
state, the actor), what is expected next, and the croupier's table screen (``Game.view``).
"""

from __future__ import annotations

from typing import Any

from tables.engine.actions import Action
from tables.engine.checks import banker_only
from tables.engine.errors import RuleError, wrong_state
from tables.engine.game import LegalAction, lansquenet_view, sorted_types
from tables.engine.lansquenet_moderne.state import (
    ABANDONMENT_PENDING,
    BANK_DECISION,
    BANK_OFFER,
    BANK_PENDING,
    BANKER_CARD,
    CARD_PHASES,
    MIDDLE_CARDS,
    PONTES_CARD,
    SHORTFALL,
    SPEAKING,
    STANDING_COMPLETION,
    SUCCESSOR_OFFER,
    LMState,
    pontes_in_order,
)
from tables.engine.session import ADD_STANDING, SESSION_ENDED, first_banker_legal, session_legal
from tables.engine.settlement import CROUPIER
from tables.engine.table import Actor

# -- checks shared by the handlers (COM-10.2) -------------------------------------------------


def refused(st: LMState, action: Action, where: str = "R_STATE") -> RuleError:
    """E_WRONG_STATE; ``where`` (a code) may say why not here."""
    return wrong_state(action.type, st.phase, sorted_types(legal_actions(st)), where)


def phase_check(st: LMState, action: Action, phase: str) -> None:
    """COM-10.2 step 2 (LM-4.0.2): ``action`` is accepted in ``phase`` only, else
    ``E_WRONG_STATE``."""
    if st.phase != phase:
        raise refused(st, action)


def banker_in(st: LMState, action: Action, phase: str) -> None:
    """COM-10.2 steps 2 and 3 (LM-4.0.2): a decision of the banker's, accepted in ``phase``
    only (``E_WRONG_STATE``), then from the banker only (``E_NOT_ELIGIBLE``)."""
    phase_check(st, action, phase)
    banker_only(st, action)


# -- legal actions (LM-4.0.3) ------------------------------------------------------------------


def _seats(st: LMState) -> tuple[Actor, ...]:
    return tuple(st.seating.occupied)


def _legal_session(st: LMState) -> list[LegalAction]:
    legal = [ADD_STANDING]
    if st.phase != BANK_PENDING:
        return legal
    # COM-3.8 sit, leave, end_session; LM-4.0.1 set_first_banker, with or without a seat taken.
    return legal + session_legal(st) + first_banker_legal(st, empty_table=True)


def _legal_game(st: LMState) -> list[LegalAction]:
    croupier: tuple[Actor, ...] = (CROUPIER,)
    banker: tuple[Actor, ...] = (st.banker_seat,) if st.banker_seat is not None else ()
    phase = st.phase
    if phase == BANK_PENDING:
        legal: list[LegalAction] = []
        if st.vacant:
            if st.seating.seats:
                legal.append(LegalAction("accept_bank", _seats(st)))
            return legal
        legal.append(LegalAction("shuffle_pack", croupier))
        seated = st.seating.seated_count
        if banker and st.config.min_players <= seated <= st.config.max_players:
            legal.append(LegalAction("announce_bank", banker))
        return legal
    if phase == SPEAKING:
        coup = st.in_play
        speaker: tuple[Actor, ...] = (coup.speakers[coup.turn],)
        return [LegalAction(kind, speaker) for kind in ("pass", "stake", "banco")]
    if phase == STANDING_COMPLETION:
        legal = [LegalAction("close_completion", croupier)]
        if st.seating.standing:
            legal.append(LegalAction("stake", tuple(st.seating.standing)))
        return legal
    if phase == SHORTFALL:
        legal = [LegalAction("withdraw_bank", banker)]
        if st.in_play.staked > 0:
            legal.append(LegalAction("reduce_bank", banker))
        return legal
    if phase in CARD_PHASES:
        legal = [
            LegalAction("turn_card", croupier)
            if st.pack.left > 0
            else LegalAction("shuffle_pack", croupier)
        ]
        if phase == MIDDLE_CARDS and st.config.abandonment_offers:
            legal.append(LegalAction("offer_abandonment", banker))
        return legal
    if phase == ABANDONMENT_PENDING:
        return [LegalAction("answer_abandonment", _answerers(st))]
    if phase == BANK_DECISION:
        return _legal_decision(st, banker)
    if phase == BANK_OFFER:
        current: tuple[Actor, ...] = (st.current_offer.current,)
        return [LegalAction("buy_bank", current), LegalAction("decline_bank", current)]
    if phase == SUCCESSOR_OFFER:
        current = (st.current_offer.current,)
        return [LegalAction("accept_bank", current), LegalAction("decline_bank", current)]
    return []


def _answerers(st: LMState) -> tuple[Actor, ...]:
    coup = st.in_play
    actors: list[Actor] = []
    for player, _ in pontes_in_order(st, coup):
        if player in coup.accepted:
            continue
        seat = st.seating.seat_of(player)
        actors.append(seat if seat is not None else player)
    return tuple(actors)


def _legal_decision(st: LMState, banker: tuple[Actor, ...]) -> list[LegalAction]:
    decision = st.current_decision
    legal = [LegalAction("pass_hand", banker)]
    if st.config.max_bank is None or decision.doubled <= st.config.max_bank:
        legal.append(LegalAction("stay", banker))  # LM-6.2, LM-I17
    if decision.doublet:
        legal.append(LegalAction("stay_refait", banker))  # LM-6.3
    return legal


def legal_actions(st: LMState) -> tuple[LegalAction, ...]:
    """LM-4.0.3 every action type accepted now, with its possible actors."""
    if st.phase == SESSION_ENDED:
        return ()  # LM-4.0
    return tuple(_legal_game(st) + _legal_session(st))


# What is expected next in the states that name nobody: a code of the catalogue
# (tables/engine/words.py); the banker's own states name him (``player``).
EXPECTED_BY_PHASE: dict[str, str] = {
    STANDING_COMPLETION: "LM_X_STANDING_COMPLETION",
    SHORTFALL: "LM_X_SHORTFALL",
    BANKER_CARD: "LM_X_BANKER_CARD",
    PONTES_CARD: "LM_X_PONTES_CARD",
    MIDDLE_CARDS: "LM_X_MIDDLE_CARD",
    ABANDONMENT_PENDING: "LM_X_ABANDONMENT",
    BANK_DECISION: "LM_X_BANK_DECISION",
}


def expected_phrase(st: LMState) -> dict[str, Any]:
    """What happens next: a code and its parameters."""
    phase = st.phase
    if phase == SESSION_ENDED:
        return {"code": "X_SESSION_ENDED"}
    banker: str = st.banker or ""
    if phase == BANK_PENDING:
        if st.vacant:
            return {"code": "LM_X_VACANT"}
        if st.banker_seat is None:
            return {"code": "X_FIRST_BANKER"}
        if st.bank_rule is not None:
            return {"code": "X_ANNOUNCE_AT", "player": banker, "amount": st.bank_rule.amount}
        return {"code": "X_ANNOUNCE", "player": banker}
    coup = st.coup
    if phase == SPEAKING and coup is not None:
        speaker = st.who_at(coup.speakers[coup.turn])
        return {"code": "LM_X_SPEAKS", "player": speaker, "round": coup.round}
    if phase in EXPECTED_BY_PHASE:
        if phase in CARD_PHASES and st.pack.left == 0:
            return {"code": "LM_X_PACK_EMPTY"}
        return {"code": EXPECTED_BY_PHASE[phase], "player": banker}
    offer = st.current_offer
    if phase == BANK_OFFER:
        price = offer.levels[offer.level][0]
        return {"code": "LM_X_BUY_BANK", "player": st.who_at(offer.current), "amount": price}
    return {"code": "X_ACCEPT_OR_DECLINE", "player": st.who_at(offer.current)}


def table_view(st: LMState) -> dict[str, Any]:
    """The JSON-ready table screen; its ``legal`` lists the buttons the console may offer
    (``legal_actions``)."""
    legal = legal_actions(st)
    coup = st.coup
    stakes: list[dict[str, Any]] = []
    cards: dict[str, Any] = {"banker": None, "pontes": None, "middle": []}
    if coup is not None:
        for player, amount in coup.stakes:
            seat = st.seating.seat_of(player)
            stakes.append(
                {"player": player, "amount": amount, "seat": seat, "standing": seat is None}
            )
        cards = {
            "banker": coup.banker_card,
            "pontes": coup.pontes_card,
            "middle": list(coup.middle),
        }
    offer = st.offer
    shown = lansquenet_view(
        st,
        bank=coup.bank if coup is not None else None,
        to_cover=coup.uncovered if coup is not None else None,
        stakes=stakes,
        cards=cards,
        pontes=cards["pontes"],
        expected=expected_phrase(st),
    )
    return shown | {
        "round": coup.round if coup is not None and st.phase == SPEAKING else None,
        "bank_rule": None
        if st.bank_rule is None
        else {"amount": st.bank_rule.amount, "why": st.bank_rule.why},
        "holding": st.holding if st.banker_seat is not None else None,
        "anchor": st.name(st.anchor) if st.anchor is not None else None,
        "purchases_in_row": st.purchases_in_row,
        "vacant": st.vacant,
        "abandonment": None
        if coup is None or st.phase != ABANDONMENT_PENDING
        else {"fraction_bp": coup.fraction_bp, "accepted": list(coup.accepted)},
        "decision": None
        if st.decision is None
        else {
            "bank": st.decision.bank,
            "cagnotte": st.decision.levy,
            "doubled": st.decision.doubled,
            "doublet": st.decision.doublet,
        },
        "offer": None
        if offer is None
        else {
            "offeree": st.name(offer.current),
            "order": [st.name(seat) for seat in offer.offerees],
            "price": offer.levels[offer.level][0] if offer.levels else None,
            "level": offer.level + 1 if offer.levels else None,
        },
        "coups": len(st.coups),
        "legal": [{"type": item.type, "actors": list(item.actors)} for item in legal],
    }
