"""Chemin de fer: what the croupier's table screen shows (``Game.view``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tables.engine.chemin_de_fer_rules import (
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
    SESSION_ENDED,
    SUITE_OFFER,
    CFState,
    expected_cutter,
    hand_value,
)

# -- the croupier's table screen ---------------------------------------------------------------


_EXPECTED: Mapping[str, str] = {
    BANCO_CALL: "The croupier calls the banco and records the answers",
    COMPLETION: "The table completes the banco avec la table, then « Rien ne va plus »",
    OPEN_STAKING: "« Qui ponte ? »: the players stake, then « Rien ne va plus »",
    DEALING: "The croupier deals two cards to the ponte and two to the banker",
    PONTE_DECISION: "The card holder shows a natural, says « Non » or asks « Carte »",
    BANKER_DRAW_DECISION: "The banker draws or stands",
    BANK_DECISION: "The banker continues (with a reliquat) or offers a suite",
    SUITE_OFFER: "The next player takes or declines the suite",
    HAND_OFFER: "The next player accepts or declines the bank",
    SESSION_ENDED: "The session is over",
}


def _expected_phrase(state: CFState) -> str:
    phase = state.phase
    if phase == BANK_PENDING:
        if state.banker is None:
            return "The bank is vacant: a seated player may accept it"
        if not state.shoe_running:
            return f"Seat {expected_cutter(state)} cuts a new shoe"
        if state.bank_rule is not None:
            return f"The banker announces the bank of {state.bank_rule}"
        return "The banker announces the bank"
    if phase == BANKER_RESPONSE:
        coup = state.coup
        assert coup is not None
        if coup.ponte_said == "draw":
            return "The croupier gives the ponte his third card, or the banker shows a natural"
        return "The banker shows a natural, draws or stands"
    return _EXPECTED[phase]


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
            "left": state.shoe.pack.left,
            "counts": state.shoe.pack.counts_left(),
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
        "expected": _expected_phrase(state),
    }
