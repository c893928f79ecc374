"""Lansquenet classique: what may be done now and by whom, and what the table screen shows.

The states in which each action type is accepted and the legal actions (LC-5.0), what is expected
next, and the croupier's table screen (``Game.view``).
"""

from __future__ import annotations

from typing import Any

from tables.engine.game import LegalAction, hand_view
from tables.engine.lansquenet_classique.settings import MIN_PLAYERS
from tables.engine.lansquenet_classique.state import (
    BANK_DECISION,
    BANKER_CARD,
    COUP_START,
    DEAL,
    DRAWING,
    SUCCESSOR_OFFER,
    LCState,
    banker_seat,
    seat_label,
)
from tables.engine.session import ADD_STANDING, SESSION_ENDED, first_banker_legal, session_legal
from tables.engine.settlement import CROUPIER
from tables.engine.table import Actor


def allowed_in_state(state: LCState, action_type: str) -> bool:
    """LC-5.0 the states in which each action type but the session's (COM-3.8) is accepted."""
    phase = state.phase
    if action_type == "start_coup":
        return phase == COUP_START and state.banker is not None
    if action_type == "accept_bank":
        return phase == SUCCESSOR_OFFER or (phase == COUP_START and state.vacant)
    if action_type == "decline_bank":
        return phase == SUCCESSOR_OFFER
    if action_type == "deal_card":
        return phase == DEAL
    if action_type == "turn_card":
        return phase in (BANKER_CARD, DRAWING)
    if action_type == "carabin_bet":
        return phase == DRAWING
    if action_type in ("keep_bank", "pass_bank"):
        return phase == BANK_DECISION
    return False


def legal_actions(state: LCState) -> tuple[LegalAction, ...]:
    """LC-5.0 every action type accepted now, with its possible actors."""
    found: list[LegalAction] = []
    croupier: tuple[Actor, ...] = (CROUPIER,)
    seats: tuple[Actor, ...] = tuple(state.seating.occupied)
    if state.phase == SESSION_ENDED:
        return ()
    if state.phase == COUP_START:
        seated = state.seating.seated_count
        if state.banker is not None and MIN_PLAYERS <= seated <= state.config.max_seated:
            found.append(LegalAction("start_coup", croupier))
        found += first_banker_legal(state)  # COM-9.2
        if state.vacant and seats:
            found.append(LegalAction("accept_bank", seats))
        found += session_legal(state)  # COM-3.8 sit, leave, end_session
    elif state.phase == DEAL:
        found.append(LegalAction("deal_card", croupier))
    elif state.phase == BANKER_CARD:
        found.append(LegalAction("turn_card", croupier))
    elif state.phase == DRAWING:
        found.append(LegalAction("turn_card", croupier))
        coup = state.coup
        assert coup is not None
        if coup.last_is_live_reprise():
            carabins = tuple(c for c in state.seating.standing if c not in coup.bettors)
            if carabins:
                found.append(LegalAction("carabin_bet", carabins))
    elif state.phase == BANK_DECISION:
        seat = banker_seat(state)
        found.append(LegalAction("keep_bank", (seat,)))
        found.append(LegalAction("pass_bank", (seat,)))
    elif state.phase == SUCCESSOR_OFFER:
        offeree: tuple[Actor, ...] = (state.offer[0],)
        found.append(LegalAction("accept_bank", offeree))
        if not state.forced_successor:
            found.append(LegalAction("decline_bank", offeree))
    found.append(ADD_STANDING)  # COM-3.8, LC-2.7
    return tuple(found)


# -- the table screen ------------------------------------------------------------------------


def expected_phrase(state: LCState) -> dict[str, Any]:
    """What happens next, for the table screen: a code and its parameters."""
    phase = state.phase
    coup = state.coup
    banker: str = state.banker or ""
    if phase == SESSION_ENDED:
        return {"code": "X_SESSION_ENDED"}
    if phase == COUP_START:
        if state.vacant:
            return {"code": "LC_X_VACANT"}
        if state.banker is None:
            return {"code": "X_FIRST_BANKER"}
        if MIN_PLAYERS <= state.seating.seated_count <= state.config.max_seated:
            return {"code": "LC_X_SHUFFLE", "player": banker}
        return {"code": "X_WAITING", "minimum": MIN_PLAYERS, "maximum": state.config.max_seated}
    if phase == DEAL:
        assert coup is not None and coup.next_recipient is not None
        recipient = coup.next_recipient
        return {"code": "LC_X_DEAL", "player": seat_label(state, recipient) or recipient}
    if phase == BANKER_CARD:
        return {"code": "LC_X_BANKER_CARD"}
    if phase == DRAWING:
        assert coup is not None
        if coup.last_is_live_reprise():
            return {"code": "LC_X_REPRISE", "rank": coup.turned[-1]}
        return {"code": "LC_X_DRAWING"}
    if phase == BANK_DECISION:
        return {"code": "LC_X_BANK_DECISION", "player": banker}
    seat = state.offer[0]
    offeree = seat_label(state, seat) or seat
    if state.forced_successor:
        return {"code": "LC_X_FORCED", "player": offeree}
    return {"code": "X_ACCEPT_OR_DECLINE", "player": offeree}


def _hands(state: LCState) -> list[dict[str, Any]]:
    """The coupeurs' cartes droites in deal order, the banker's card, the carabins' cards in
    bet order, then the talon turned (LC-4.1, LC-5.4, LC-6)."""
    coup = state.coup
    if coup is None:
        return []
    hands = [
        hand_view(
            "player",
            [card.rank],
            seat=card.seat,
            player=card.player,
            multiplicity=card.multiplicity,
        )
        for card in coup.cards
    ]
    if coup.banker_rank is not None:
        banker = hand_view(
            "banker",
            [coup.banker_rank],
            seat=coup.banker_seat,
            player=coup.banker,
            multiplicity=coup.banker_multiplicity,
        )
        hands.append(banker)
    hands += [hand_view("player", [bet.rank], player=bet.player) for bet in coup.carabins]
    if coup.turned:
        hands.append(hand_view("talon", coup.turned))
    return hands


def table_view(state: LCState) -> dict[str, Any]:
    """The croupier's table screen (``Game.view``)."""
    coup = state.coup
    config = state.config
    stakes: list[dict[str, Any]] = []
    cards: dict[str, Any] = {"coupeurs": [], "banker": None, "carabins": [], "talon": []}
    if coup is not None:
        for card in coup.cards:
            stakes.append(
                {
                    "player": card.player,
                    "amount": config.stake(card.multiplicity),
                    "kind": "coupeur",
                    "seat": card.seat,
                }
            )
            cards["coupeurs"].append(
                {
                    "seat": card.seat,
                    "player": card.player,
                    "rank": card.rank,
                    "multiplicity": card.multiplicity,
                }
            )
        for bet in coup.carabins:
            stakes.append({"player": bet.player, "amount": bet.amount, "kind": "carabin"})
            cards["carabins"].append({"player": bet.player, "rank": bet.rank, "amount": bet.amount})
        if coup.banker_rank is not None:
            cards["banker"] = {
                "rank": coup.banker_rank,
                "multiplicity": coup.banker_multiplicity,
            }
        cards["talon"] = list(coup.turned)
    pack = None
    if coup is not None and state.phase in (DEAL, BANKER_CARD, DRAWING):
        pack = coup.pack.view()
    return {
        "phase": state.phase,
        "banker": state.banker,
        "bank": None,  # LC-8.3 no bank amount
        "to_cover": None,
        "stakes": stakes,
        "cards": cards,
        "hands": _hands(state),
        "next_seat": coup.next_recipient if coup is not None and state.phase == DEAL else None,
        "pack": pack,
        "expected": expected_phrase(state),
        "base_stake": config.base_stake,
        "carabin_max_stake": config.carabin_max_stake,
        "coup_number": coup.number if coup is not None else len(state.coups) + 1,
        "next_recipient": seat_label(state, coup.next_recipient)
        if coup is not None and state.phase == DEAL
        else None,
        "reprise_open": bool(
            coup is not None and state.phase == DRAWING and coup.last_is_live_reprise()
        ),
        "carabins_who_bet": list(coup.bettors) if coup is not None else [],
        "offer": [seat_label(state, seat) for seat in state.offer],
        "forced_successor": state.forced_successor,
        "vacant": state.vacant,
        "seats": [{"seat": seat, "player": player} for seat, player in state.seating.seats],
        "carabins": list(state.seating.standing),
        "coups_played": len(state.coups),
    }
