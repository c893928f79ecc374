"""Lansquenet moderne: what the croupier's table screen shows (``Game.view``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tables.engine.game import LegalAction
from tables.engine.lansquenet_moderne_state import (
    ABANDONMENT_PENDING,
    BANK_DECISION,
    BANK_OFFER,
    BANK_PENDING,
    BANKER_CARD,
    CARD_PHASES,
    MIDDLE_CARDS,
    PONTES_CARD,
    SESSION_ENDED,
    SHORTFALL,
    SPEAKING,
    STANDING_COMPLETION,
    LMState,
)


def expected_phrase(st: LMState) -> str:
    """A short English phrase of what happens next."""
    phase = st.phase
    if phase == SESSION_ENDED:
        return "The session is over"
    if phase == BANK_PENDING:
        if st.vacant:
            return "The bank is vacant: any seated player may take it"
        if st.banker_seat is None:
            return "The croupier names the first banker"
        if st.bank_rule is not None:
            return f"{st.banker} announces the bank of {st.bank_rule.amount}"
        return f"{st.banker} announces the bank"
    coup = st.coup
    if phase == SPEAKING and coup is not None:
        return f"{st.name(coup.speakers[coup.turn])} speaks (round {coup.round})"
    texts = {
        STANDING_COMPLETION: "Standing players may complete the stakes",
        SHORTFALL: f"{st.banker} reduces the bank or withdraws",
        BANKER_CARD: "The croupier turns the banker's card",
        PONTES_CARD: "The croupier turns the pontes' card",
        MIDDLE_CARDS: "The croupier turns the next middle card",
        ABANDONMENT_PENDING: "The pontes answer the abandonment offer",
        BANK_DECISION: f"{st.banker} stays or passes the hand",
    }
    if phase in texts:
        if phase in CARD_PHASES and st.pack.left == 0:
            return "The pack is empty: the croupier records shuffle_pack"
        return texts[phase]
    offer = st.current_offer
    if phase == BANK_OFFER:
        price = offer.levels[offer.level][0]
        return f"{st.name(offer.current)} buys the bank at {price} or declines"
    return f"{st.name(offer.current)} accepts the bank or declines"


def table_view(st: LMState, legal: Sequence[LegalAction]) -> dict[str, Any]:
    """The JSON-ready table screen; ``legal`` lists the buttons the console may offer."""
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
    return {
        "phase": st.phase,
        "banker": st.banker,
        "bank": coup.bank if coup is not None else None,
        "to_cover": coup.uncovered if coup is not None else None,
        "stakes": stakes,
        "cards": cards,
        "pack": None
        if st.phase == SESSION_ENDED
        else {"left": st.pack.left, "counts": st.pack.counts_left()},
        "expected": expected_phrase(st),
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
