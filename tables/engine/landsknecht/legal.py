"""Landsknecht: what may be done now and by whom, and what the table screen shows.

The legal actions of LR-4.0.2, the checks of COM-10.2 that the handlers share (the state, the
actor), what is expected next, and the croupier's table screen (``Game.view``).
"""

from __future__ import annotations

from typing import Any

from tables.engine.actions import Action
from tables.engine.checks import acting
from tables.engine.errors import bank_covered, wrong_state
from tables.engine.game import LegalAction, lansquenet_view
from tables.engine.landsknecht.settings import MIN_PLAYERS
from tables.engine.landsknecht.state import (
    BANK_DECISION,
    BANK_PENDING,
    CARD_PHASES,
    COVERING,
    FIRST_CARD,
    MIDDLE_CARDS,
    SECOND_CARD,
    SUCCESSOR_OFFER,
    LRState,
    player_at,
    require_coup,
)
from tables.engine.session import ADD_STANDING, SESSION_ENDED, first_banker_legal, session_legal
from tables.engine.settlement import CROUPIER, RESERVE_FUND
from tables.engine.table import Actor, Who

# -- common checks (COM-10.2) ------------------------------------------------------------------


def _accepted_types(state: LRState) -> frozenset[str]:
    """The rows of the state tables (COM-10.2 step 2); the session actions of LR-4.0.1 are
    checked in ``tables.engine.session``."""
    phase = state.phase
    types: set[str] = set()
    if phase == BANK_PENDING:
        if state.vacant:
            types.add("accept_bank")  # COM-9.7
        else:
            types.add("shuffle_pack")  # LR-3.3
            if not state.reserve_open:
                types.add("open_reserve")  # LR-2.1.1
            if state.banker_player is not None:
                types.add("announce_bank")
    elif phase == COVERING:
        types |= {"take", "pass"}
    elif phase in CARD_PHASES:
        types |= {"turn_card", "shuffle_pack"}
    elif phase == BANK_DECISION:
        types |= {"double", "quit_bank"}
    elif phase == SUCCESSOR_OFFER:
        types |= {"accept_bank", "decline_bank"}
    return frozenset(types)


def state_check(state: LRState, action: Action) -> None:
    """COM-10.2 step 2 (``E_BANK_COVERED`` for a take once the stake is covered, LR-4.2.3)."""
    if action.type == "take" and state.phase in CARD_PHASES:
        raise bank_covered(require_coup(state).stake)
    if action.type not in _accepted_types(state):
        legal = [legal.type for legal in legal_actions(state)]
        raise wrong_state(action.type, state.phase, legal)


def seated_player(state: LRState, action: Action) -> Who:
    """COM-10.2 step 3 for a player's own decision: a seated player (LR-2.8, LR-4.0.4)."""
    return acting(state, action).require_seated(
        action.type,
        "LR_R_STANDING_NO_PART",
        croupier="R_CROUPIER_NEVER_PLAYS",
    )


def the_banker(state: LRState, action: Action, reason: str) -> Who:
    who = seated_player(state, action)
    return who.require_banker(action.type, state.banker_player, reason)


# -- legal actions (LR-4.0.2) ------------------------------------------------------------------


def legal_actions(state: LRState) -> tuple[LegalAction, ...]:
    """LR-4.0.2 every action type accepted now, with its possible actors."""
    phase = state.phase
    if phase == SESSION_ENDED:
        return ()
    config = state.config
    seating = state.seating
    seats: tuple[Actor, ...] = seating.occupied
    croupier: tuple[Actor, ...] = (CROUPIER,)
    seated = seating.seated_count
    legal: list[LegalAction] = [ADD_STANDING]
    coup = state.coup
    if phase == BANK_PENDING:
        banker_seat = state.banker_seat
        if (
            banker_seat is not None
            and state.reserve_open
            and MIN_PLAYERS <= seated <= config.max_players
        ):
            legal.append(LegalAction("announce_bank", (banker_seat,)))
        if state.vacant:
            if seats:
                legal.append(LegalAction("accept_bank", seats))
        else:
            if state.shuffle_due or state.pack.left == 0:
                legal.append(LegalAction("shuffle_pack", croupier))
            if not state.reserve_open and seated >= MIN_PLAYERS:
                legal.append(LegalAction("open_reserve", croupier))
        legal += first_banker_legal(state)  # LR-4.0.1
        legal += session_legal(state)  # COM-3.8 sit, leave, end_session
    elif phase == COVERING:
        assert coup is not None and coup.speaker is not None
        legal += [LegalAction("take", (coup.speaker,)), LegalAction("pass", (coup.speaker,))]
    elif phase in CARD_PHASES:
        due = phase == FIRST_CARD and state.shuffle_due
        if not due and state.pack.left > 0:
            legal.append(LegalAction("turn_card", croupier))
        if due or state.pack.left == 0:
            legal.append(LegalAction("shuffle_pack", croupier))
    elif phase == BANK_DECISION:
        banker_seat = state.banker_seat
        assert banker_seat is not None
        if config.within_max_bank(state.figure):
            legal.append(LegalAction("double", (banker_seat,)))
        legal.append(LegalAction("quit_bank", (banker_seat,)))
    elif phase == SUCCESSOR_OFFER:
        assert state.offer is not None
        offeree: tuple[Actor, ...] = (state.offer.offeree,)
        legal += [LegalAction("accept_bank", offeree), LegalAction("decline_bank", offeree)]
    return tuple(legal)


# -- the table screen --------------------------------------------------------------------------


def _expected_code(state: LRState) -> str:
    phase = state.phase
    if phase == SESSION_ENDED:
        return "X_SESSION_ENDED"
    if phase == BANK_PENDING:
        if state.vacant:
            return "LR_X_VACANT"
        if not state.reserve_open:
            if state.banker_player is None:
                return "LR_X_FIRST_BANKER_AND_RESERVE"
            return "LR_X_OPEN_RESERVE"
        if state.banker_player is None:
            return "X_FIRST_BANKER"
        return "LR_X_SHUFFLE_AND_ANNOUNCE" if state.shuffle_due else "LR_X_ANNOUNCE"
    if phase == FIRST_CARD:
        return "LR_X_SHUFFLE" if state.shuffle_due else "LR_X_BANKER_CARD"
    if state.pack.left == 0:
        return "LR_X_PACK_EMPTY"
    return {
        SECOND_CARD: "LR_X_PONTERS_CARD",
        MIDDLE_CARDS: "LR_X_MIDDLE_CARDS",
        BANK_DECISION: "LR_X_BANK_DECISION",
    }.get(phase, "X_ACCEPT_OR_DECLINE")


def expected_phrase(state: LRState) -> dict[str, Any]:
    """What happens next: a code and its parameters (who speaks, who is offered the bank)."""
    coup = state.coup
    if state.phase == COVERING:
        assert coup is not None and coup.speaker is not None
        return {"code": "LR_X_TAKE", "player": player_at(state, coup.speaker)}
    code = _expected_code(state)
    if code == "X_ACCEPT_OR_DECLINE":
        assert state.offer is not None
        return {"code": code, "player": player_at(state, state.offer.offeree)}
    return {"code": code}


def table_view(state: LRState) -> dict[str, Any]:
    coup = state.coup
    in_coup = coup is not None and state.phase in (COVERING, *CARD_PHASES)
    stakes: list[dict[str, Any]] = []
    cards: dict[str, Any] = {"banker": None, "ponters": None, "middle": []}
    bank: int | None = None
    to_cover: int | None = None
    if coup is not None and in_coup:
        bank = coup.stake
        to_cover = coup.remaining
        stakes = [{"player": player, "amount": amount} for player, amount in coup.takes]
        if coup.cover:
            stakes.append({"player": RESERVE_FUND, "amount": coup.cover, "fund": True})
        cards = {
            "banker": coup.banker_card,
            "ponters": coup.ponters_card,
            "middle": list(coup.middle),
        }
    elif state.phase == BANK_DECISION:
        bank = state.figure
    elif state.phase == BANK_PENDING and state.bank_rule.kind == "fixed":
        bank = state.bank_rule.amount
    speaker = coup.speaker if coup is not None and state.phase == COVERING else None
    shown = lansquenet_view(
        state,
        bank=bank,
        to_cover=to_cover,
        stakes=stakes,
        cards=cards,
        pontes=cards["ponters"],
        expected=expected_phrase(state),
    )
    return shown | {
        "bank_rule": state.bank_rule.describe(),
        "shuffle_due": state.shuffle_due,
        "reserve_fund": {
            "open": state.reserve_open,
            "balance": state.fund,
            "members": list(state.members_in_seat_order()),
        },
        "speaker": None if speaker is None else player_at(state, speaker),
        "offeree": None
        if state.offer is None or state.phase != SUCCESSOR_OFFER
        else player_at(state, state.offer.offeree),
        "vacant": state.vacant,
        "coups": len(state.coups),
    }
