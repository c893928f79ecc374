"""Pontoon (PT): what the croupier's table screen shows, as JSON-ready data."""

from __future__ import annotations

from typing import Any

from tables.engine.pontoon_model import (
    BANK_TRANSFER,
    BANKER_TURN,
    CODE,
    COUP_START,
    FIRST_ROUND,
    PLAYER_TURNS,
    SECOND_ROUND,
    SESSION_ENDED,
    STAKING,
    SUCCESSOR_OFFER,
    Coup,
    Hand,
    PontoonState,
    hand_kind,
    hand_total,
)

# -- the table screen --------------------------------------------------------------------------


def _expected(state: PontoonState) -> str:
    phase, coup = state.phase, state.coup
    if phase == SESSION_ENDED:
        return "The session has ended"
    if phase == COUP_START:
        if state.banker is not None:
            return f"The croupier starts the next coup; {state.banker} holds the bank"
        if state.vacant:
            return "The bank is vacant: a seated player may take it"
        return "The croupier records the first banker"
    if phase in (BANK_TRANSFER, SUCCESSOR_OFFER):
        assert state.offer is not None
        return f"{state.offer.current[1]} accepts or declines the bank"
    assert coup is not None
    if phase in (FIRST_ROUND, SECOND_ROUND):
        seat = coup.next_recipient(phase)
        which = "first" if phase == FIRST_ROUND else "second"
        return f"The croupier deals a {which} card to {state.seating.player_at(seat)}"
    if phase == STAKING:
        waiting = ", ".join(hand.player for hand in coup.hands if hand.to_speak)
        return f"The players stake or sit out: {waiting}"
    if phase == PLAYER_TURNS:
        current = coup.current
        assert current is not None
        return f"{current.player} ({hand_total(current.cards)}) buys, twists or sticks"
    return f"The banker {coup.banker} turns his cards, then draws or stands"


def _hand_view(hand: Hand) -> dict[str, Any]:
    return {
        "seat": hand.seat,
        "player": hand.player,
        "cards": list(hand.cards),
        "total": hand_total(hand.cards) if hand.cards else None,
        "kind": hand_kind(hand.cards) if len(hand.cards) >= 2 else None,
        "stake": hand.stake,
        "sat_out": hand.sat_out,
        "twisted": hand.twisted,
        "finished": hand.staked and hand.finished,
    }


IN_COUP = (FIRST_ROUND, STAKING, SECOND_ROUND, PLAYER_TURNS, BANKER_TURN)


def _table_cards(state: PontoonState, coup: Coup) -> dict[str, Any]:
    """Every hand of a coup, the banker's last (PT-2.2)."""
    return {
        "players": [_hand_view(hand) for hand in coup.hands],
        "banker": {
            "seat": coup.banker_seat,
            "player": coup.banker,
            "cards": list(coup.banker_cards),
            "total": hand_total(coup.banker_cards) if coup.banker_cards else None,
            "kind": hand_kind(coup.banker_cards) if len(coup.banker_cards) >= 2 else None,
            # PT-4.1.1 nothing of the banker's hand is shown to the players before his turn.
            "shown": state.phase not in (FIRST_ROUND, STAKING, SECOND_ROUND, PLAYER_TURNS),
        },
    }


def view(state: PontoonState) -> dict[str, Any]:
    """The croupier's table screen (``Game.view``).

    ``cards`` and ``stakes`` describe the coup in progress; between coups they are empty and
    ``last_coup`` holds the hands of the coup just played (PT-7.2 still reads them).
    """
    coup = state.coup
    in_coup = coup is not None and state.phase in IN_COUP
    cards: dict[str, Any] = {"players": [], "banker": None}
    stakes: list[dict[str, Any]] = []
    last_coup: dict[str, Any] | None = None
    pack: dict[str, Any] | None = None
    current: str | None = None
    if coup is not None and in_coup:
        cards = _table_cards(state, coup)
        stakes = [
            {
                "player": hand.player,
                "seat": hand.seat,
                "amount": hand.stake,
                "initial": hand.initial,
                "bust": hand.bust,
            }
            for hand in coup.hands
            if hand.staked
        ]
        pack = {"left": coup.pack.left, "counts": coup.pack.counts_left()}
        if state.phase == PLAYER_TURNS and coup.current is not None:
            current = coup.current.player
    elif coup is not None:
        last_coup = _table_cards(state, coup)
    offer = state.offer
    return {
        "game": CODE,
        "phase": state.phase,
        "banker": state.banker,
        "bank": None,  # COM-9.3 pontoon has no bank amount
        "to_cover": None,
        "stakes": stakes,
        "cards": cards,
        "current_player": current,
        "last_coup": last_coup,
        "pack": pack,
        "offer": (
            {
                "kind": offer.kind,
                "offerees": [player for _, player in offer.offerees],
                "current": offer.current[1],
            }
            if offer is not None
            else None
        ),
        "vacant": state.vacant,
        "coups": len(state.coups),
        "seats": [{"seat": seat, "player": player} for seat, player in state.seating.seats],
        "standing": list(state.seating.standing),
        "expected": _expected(state),
    }
