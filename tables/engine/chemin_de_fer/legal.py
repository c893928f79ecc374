"""Chemin de fer: what may be done now and by whom, and what the table screen shows.

The legal actions of CF-4.0 (the types some actor could have accepted now), the checks of
COM-10.2 / CF-7.1 that every handler shares (the state, the actor), what is expected next, and
the croupier's table screen (``Game.view``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tables.engine.actions import Action
from tables.engine.chemin_de_fer.state import (
    BANCO_CALL,
    BANK_DECISION,
    BANK_PENDING,
    BANKER_DRAW_DECISION,
    BANKER_RESPONSE,
    COMPLETION,
    DEALING,
    HAND_OFFER,
    OPEN_STAKING,
    PONTE_DECISION,
    SUITE_OFFER,
    CFState,
    expected_cutter,
    hand_value,
    is_natural,
)
from tables.engine.errors import RuleError, wrong_state
from tables.engine.game import LegalAction, hand_view
from tables.engine.session import ADD_STANDING, SESSION_ENDED, seated_ok, session_legal
from tables.engine.settlement import CROUPIER
from tables.engine.table import Actor, Seating

# -- common checks (COM-10.2, CF-7.1) ----------------------------------------------------------


def refused(state: CFState, action: Action) -> RuleError:
    """COM-10.2 step 2, E_WRONG_STATE, listing what is expected now."""
    legal = [legal.type for legal in legal_actions(state)]
    return wrong_state(action.type, state.phase, legal)


# -- legal actions (CF-4.0: the types some actor could have accepted now) --------------------------


def _everyone(seating: Seating) -> list[Actor]:
    return [*seating.occupied, *seating.standing]


def _actor_of(seating: Seating, player: str | None) -> tuple[Actor, ...]:
    if player is None:
        return ()
    seat = seating.seat_of(player)
    return (seat if seat is not None else player,)


def _legal_bank_pending(state: CFState) -> list[LegalAction]:
    seating = state.seating
    found: list[LegalAction] = []
    if state.banker is None:
        if seating.occupied:
            found.append(LegalAction("accept_bank", seating.occupied))  # CF-6.7
    else:
        banker = _actor_of(seating, state.banker)
        if not state.shoe_running:
            found.append(LegalAction("new_shoe", (CROUPIER,)))
        elif seated_ok(state):  # CF-2.2 / CF-I22
            found.append(LegalAction("announce_bank", banker))
        if state.adjudicated is None:
            found.append(LegalAction("give_up_bank", banker))
            if state.bank_rule is not None and state.suite:
                found.append(LegalAction("offer_suite", banker))
    return found + session_legal(state)  # COM-3.8 sit, leave, end_session


def _legal_in_coup(state: CFState) -> list[LegalAction]:
    coup = state.coup
    assert coup is not None
    seating = state.seating
    banker = _actor_of(seating, state.banker)
    holder = _actor_of(seating, coup.card_holder)
    phase = state.phase
    if phase == BANCO_CALL:
        return [LegalAction("banco_call", (CROUPIER,))]
    if phase in (COMPLETION, OPEN_STAKING):
        found = [LegalAction("close_bets", (CROUPIER,))]
        excluded = {state.banker, coup.holder if phase == COMPLETION else None}
        stakers = tuple(
            actor
            for actor in _everyone(seating)
            if (seating.player_at(actor) if isinstance(actor, int) else actor) not in excluded
        )
        if coup.left_to_cover > 0 and stakers:
            found.append(LegalAction("stake", stakers))
        return found
    if phase == DEALING:
        return [LegalAction("deal", (CROUPIER,))]
    if phase == PONTE_DECISION:
        found = [LegalAction("ponte_stand", holder), LegalAction("ponte_draw", holder)]
        if is_natural(coup.ponte_cards):
            found.append(LegalAction("ponte_show_natural", holder))
        return found
    if phase == BANKER_RESPONSE:
        found = []
        if is_natural(coup.banker_cards):
            found.append(LegalAction("banker_show_natural", banker))
        if coup.ponte_said == "draw":
            found.append(LegalAction("ponte_third_card", (CROUPIER,)))
        else:
            found += [LegalAction("banker_draw", banker), LegalAction("banker_stand", banker)]
        return found
    assert phase == BANKER_DRAW_DECISION
    return [LegalAction("banker_draw", banker), LegalAction("banker_stand", banker)]


def legal_actions(state: CFState) -> tuple[LegalAction, ...]:
    """CF-4.0 every action type accepted now, with its possible actors."""
    phase = state.phase
    if phase == SESSION_ENDED:
        return ()
    found: list[LegalAction] = [ADD_STANDING]
    banker = _actor_of(state.seating, state.banker)
    if phase == BANK_PENDING:
        found += _legal_bank_pending(state)
    elif phase == BANK_DECISION:
        found.append(LegalAction("continue_bank", banker))
        max_bank = state.rules.max_bank
        assert state.bank_after is not None
        if state.adjudicated is None and (max_bank is None or state.bank_after <= max_bank):
            found.append(LegalAction("offer_suite", banker))
    elif phase in (SUITE_OFFER, HAND_OFFER):
        assert state.offer is not None
        next_one = (state.offer.offerees[0],)
        kinds = ("take_suite", "decline_suite") if phase == SUITE_OFFER else ("accept_bank",)
        if phase == HAND_OFFER:
            kinds = ("accept_bank", "decline_bank")
        found += [LegalAction(kind, next_one) for kind in kinds]
    else:
        found += _legal_in_coup(state)
    return tuple(found)


# -- the croupier's table screen ---------------------------------------------------------------


# What is expected next, by state: a code of the catalogue (tables/engine/words.py).
EXPECTED_BY_PHASE: Mapping[str, str] = {
    BANCO_CALL: "CF_X_BANCO_CALL",
    COMPLETION: "CF_X_COMPLETION",
    OPEN_STAKING: "CF_X_OPEN_STAKING",
    DEALING: "CF_X_DEALING",
    PONTE_DECISION: "CF_X_PONTE_DECISION",
    BANKER_DRAW_DECISION: "CF_X_BANKER_DRAW_DECISION",
    BANK_DECISION: "CF_X_BANK_DECISION",
    SUITE_OFFER: "CF_X_SUITE_OFFER",
    HAND_OFFER: "CF_X_HAND_OFFER",
    SESSION_ENDED: "X_SESSION_ENDED",
}


def _expected(state: CFState) -> dict[str, Any]:
    """What is expected next: a code and its parameters (CF-3.2 the seat that cuts)."""
    phase = state.phase
    if phase == BANK_PENDING:
        if state.banker is None:
            return {"code": "CF_X_VACANT"}
        if not state.shoe_running:
            return {"code": "CF_X_CUT", "seat": expected_cutter(state)}
        if state.bank_rule is not None:
            return {"code": "CF_X_ANNOUNCE_AT", "amount": state.bank_rule}
        return {"code": "CF_X_ANNOUNCE"}
    if phase == BANKER_RESPONSE:
        coup = state.coup
        assert coup is not None
        if coup.ponte_said == "draw":
            return {"code": "CF_X_THIRD_CARD"}
        return {"code": "CF_X_BANKER_RESPONSE"}
    return {"code": EXPECTED_BY_PHASE[phase]}


def _hands(state: CFState) -> list[dict[str, Any]]:
    """The ponte's hand, then the banker's (CF-3.1 their values, CF-4.5 what the ponte said)."""
    coup = state.coup
    if coup is None or not coup.ponte_cards:
        return []
    said = [coup.ponte_said] if coup.ponte_said is not None else []
    return [
        hand_view(
            "ponte",
            coup.ponte_cards,
            player=coup.card_holder,
            total=hand_value(coup.ponte_cards),
            said=said,
        ),
        hand_view(
            "banker", coup.banker_cards, player=state.banker, total=hand_value(coup.banker_cards)
        ),
    ]


def _next_seat(state: CFState) -> int | None:
    """CF-3.2 the seat that cuts the new shoe, when one is expected."""
    if state.phase == BANK_PENDING and state.banker is not None and not state.shoe_running:
        return expected_cutter(state)
    return None


def table_view(state: CFState) -> dict[str, Any]:
    coup = state.coup
    bank: int | None = None
    to_cover: int | None = None
    stakes: list[dict[str, Any]] = []
    cards: dict[str, Any] | None = None
    if coup is not None:
        bank = coup.bank
        if state.phase in (BANCO_CALL, COMPLETION, OPEN_STAKING):
            to_cover = coup.left_to_cover
        stakes = [
            {
                "player": player,
                "amount": amount,
                "seat": state.seating.seat_of(player),
                "card_holder": player == coup.card_holder,
                "banco": player == coup.holder,
            }
            for player, amount in coup.stakes
        ]
        if coup.ponte_cards:
            cards = {
                "ponte": list(coup.ponte_cards),
                "banker": list(coup.banker_cards),
                "ponte_value": hand_value(coup.ponte_cards),
                "banker_value": hand_value(coup.banker_cards),
                "ponte_said": coup.ponte_said,
            }
    elif state.phase == BANK_DECISION:
        bank = state.bank_after
    elif state.phase == SUITE_OFFER and state.offer is not None:
        bank = state.offer.amount
    elif state.phase == BANK_PENDING:
        bank = state.bank_rule
    pack: dict[str, Any] | None = None
    if state.shoe is not None:
        pack = {
            **state.shoe.pack.view(),
            "before_stop_card": max(state.cards_before_stop, 0),
            "running": state.shoe_running,
            "cut_by": state.last_cutter,
        }
    offer = state.offer
    return {
        "phase": state.phase,
        "banker": state.banker,
        "banker_seat": state.seating.seat_of(state.banker) if state.banker else None,
        "bank": bank,
        "bank_rule": "free" if state.bank_rule is None else f"fixed({state.bank_rule})",
        "suite_to_offer": state.bank_rule is not None and state.suite,
        "to_cover": to_cover,
        "stakes": stakes,
        "card_holder": coup.card_holder if coup is not None else None,
        "cards": cards,
        "hands": _hands(state),
        "next_seat": _next_seat(state),
        "faults": list(coup.faults) if coup is not None else [],
        "pack": pack,
        "reliquats": dict(state.reliquats),
        "adjudicated_to": state.adjudicated,
        "offer": None
        if offer is None
        else {
            "kind": offer.kind,
            "amount": offer.amount,
            "next": state.seating.player_at(offer.offerees[0]),
            "waiting": [state.seating.player_at(seat) for seat in offer.offerees],
        },
        "seats": {str(seat): player for seat, player in state.seating.seats},
        "standing": list(state.seating.standing),
        "coups_played": len(state.coups),
        "expected": _expected(state),
    }
