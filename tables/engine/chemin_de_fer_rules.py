"""Chemin de fer: settings, state, points, settlement and the bank after the coup.

The action handlers are in ``tables.engine.chemin_de_fer``; this module holds what they share:
the settings table (§1), the immutable state, the baccara points (CF-3.1), the faults (CF-8),
the settlement (CF-5) and the passing of the bank (CF-6).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from tables.engine.cards import Pack
from tables.engine.money import Rounding, cagnotte_levy
from tables.engine.settings import (
    CHIP_UNIT,
    Setting,
    bool_setting,
    cagnotte_settings,
    chips_setting,
    int_setting,
)
from tables.engine.settlement import (
    CAGNOTTE,
    CoupRecord,
    Transfer,
    is_player_id,
    reliquat_of,
)
from tables.engine.table import Seating

TITLE = "chemin de fer"

# CF-4.0 the states.
BANK_PENDING = "bank_pending"
BANCO_CALL = "banco_call"
COMPLETION = "completion"
OPEN_STAKING = "open_staking"
DEALING = "dealing"
PONTE_DECISION = "ponte_decision"
BANKER_RESPONSE = "banker_response"
BANKER_DRAW_DECISION = "banker_draw_decision"
BANK_DECISION = "bank_decision"
SUITE_OFFER = "suite_offer"
HAND_OFFER = "hand_offer"
SESSION_ENDED = "session_ended"

# CF-4.3.2 from these states until the settlement the bank is covered (E_BANK_COVERED).
COVERED_PHASES = frozenset({DEALING, PONTE_DECISION, BANKER_RESPONSE, BANKER_DRAW_DECISION})

STOP_CARD_FROM_END = 7  # CF-3.3
MIN_PLAYERS = 4  # CF-2.2

# -- §1 settings ----------------------------------------------------------------------------


def _fixed_banker_setting() -> Setting:
    """CF-6.5 / CF-I27: none, or a player id (checked against the seats at ``start``)."""
    return Setting(
        "fixed_banker",
        None,
        lambda value, _: value is None or is_player_id(value),
        lambda _: "none or the id of a player seated when the session opens",
    )


def settings_table(seat_count: int) -> tuple[Setting, ...]:
    """The rows of §1 in order (chip_unit before the amounts that are multiples of it)."""
    return (
        int_setting("decks", 3, 1, 8),  # CF-I21
        int_setting("stop_card_from_end", STOP_CARD_FROM_END, 7, 7),  # CF-3.3
        int_setting("min_players", MIN_PLAYERS, 4, 4),  # CF-2.2
        int_setting("max_players", seat_count, 4, seat_count),  # CF-2.2 / CF-I22
        CHIP_UNIT,  # COM-5.1
        chips_setting("min_bank"),
        chips_setting("max_bank", None, nullable=True, at_least="min_bank"),
        chips_setting("min_stake"),
        *cagnotte_settings(),  # COM-6.1, COM-6.3
        bool_setting("fault_reimbursement", True),  # CF-I9
        _fixed_banker_setting(),  # CF-I20, CF-I27
    )


@dataclass(frozen=True)
class Rules:
    """The validated settings of one table."""

    decks: int
    max_players: int
    chip_unit: int
    min_bank: int
    max_bank: int | None
    min_stake: int
    cagnotte_rate_bp: int
    cagnotte_step: int
    cagnotte_rounding: Rounding
    fault_reimbursement: bool
    fixed_banker: str | None

    @property
    def cards_before_stop(self) -> int:
        """CF-3.3 ``L = 52·decks − 7``: the stop card comes out when card ``L + 1`` is drawn."""
        return 52 * self.decks - STOP_CARD_FROM_END


def rules_from(settings: Mapping[str, Any]) -> Rules:
    return Rules(
        decks=settings["decks"],
        max_players=settings["max_players"],
        chip_unit=settings["chip_unit"],
        min_bank=settings["min_bank"],
        max_bank=settings["max_bank"],
        min_stake=settings["min_stake"],
        cagnotte_rate_bp=settings["cagnotte_rate_bp"],
        cagnotte_step=settings["cagnotte_step"],
        cagnotte_rounding=settings["cagnotte_rounding"],
        fault_reimbursement=settings["fault_reimbursement"],
        fixed_banker=settings["fixed_banker"],
    )


# -- the state --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Shoe:
    """CF-3.2 the current shoe and its card tracking (COM-2.2)."""

    pack: Pack


@dataclass(frozen=True)
class Coup:
    """The coup in progress, from ``announce_bank`` to the showdown.

    ``stakes`` are ``(player, total)`` in the order of each player's first stake (CF-2.3);
    ``holder`` holds the banco alone or avec la table; ``bank`` is ``B``, reduced to ``T`` at
    ``close_bets`` (CF-4.3.1).
    """

    bank: int
    stakes: tuple[tuple[str, int], ...] = ()
    holder: str | None = None
    card_holder: str | None = None
    ponte_cards: tuple[str, ...] = ()
    banker_cards: tuple[str, ...] = ()
    ponte_said: Literal["stand", "draw"] | None = None
    faults: tuple[str, ...] = ()

    @property
    def left_to_cover(self) -> int:
        """``R = B − T`` (CF-4.3)."""
        return self.bank - stake_total(self)


@dataclass(frozen=True)
class Offer:
    """A suite (CF-6.2) or the hand (CF-6.3) being offered, seat by seat."""

    kind: Literal["suite", "hand"]
    outgoing: str | None  # the outgoing banker; None if he left the table
    anchor: int  # the outgoing banker's seat: the rotation starts after it
    offerees: tuple[int, ...]  # the seats still to answer, the next first
    amount: int | None = None  # the suite amount
    from_decision: bool = False  # a suite offered in bank_decision: its money is the coup's


@dataclass(frozen=True)
class CFState:
    """A chemin de fer session at one table (immutable; every action returns a new one).

    Carry-over (CF-4): ``banker``; ``bank_rule`` (None = free, else the fixed amount) and
    ``suite`` (that amount comes from a coup of his own tenure he won or tied); the reliquats;
    ``adjudicated`` (CF-6.5); the shoe and the last cutter.
    """

    rules: Rules
    seating: Seating
    phase: str
    banker: str | None
    bank_rule: int | None = None
    suite: bool = False
    adjudicated: str | None = None
    reliquats: tuple[tuple[str, int], ...] = ()
    shoe: Shoe | None = None
    last_cutter: int | None = None
    coup: Coup | None = None
    bank_after: int | None = None  # the bank in bank_decision
    last_outcome: str | None = None  # banker_wins or tie, in bank_decision
    offer: Offer | None = None
    coups: tuple[CoupRecord, ...] = ()
    session_transfers: tuple[Transfer, ...] = ()

    @property
    def cards_before_stop(self) -> int:
        """Cards that may still be drawn before the red card comes out."""
        drawn = self.shoe.pack.drawn if self.shoe is not None else 0
        return self.rules.cards_before_stop - drawn

    @property
    def shoe_running(self) -> bool:
        """CF-3.3 / CF-3.4 a shoe is formed and its red card has not come out."""
        return self.shoe is not None and self.cards_before_stop >= 0

    def reliquat(self, player: str) -> int:
        return dict(self.reliquats).get(player, 0)


# -- CF-3.2 the cut ------------------------------------------------------------------------------


def expected_cutter(state: CFState) -> int:
    """CF-3.2 / CF-I23: the next occupied seat in seat order after the last cutter."""
    occupied = state.seating.occupied
    if state.last_cutter is None:
        return occupied[0]
    after = [seat for seat in occupied if seat > state.last_cutter]
    return after[0] if after else occupied[0]


# -- CF-3.1 points, CF-8 faults ----------------------------------------------------------------

_POINTS = {"A": 1, "10": 0, "J": 0, "Q": 0, "K": 0} | {str(n): n for n in range(2, 10)}


def hand_value(cards: Sequence[str]) -> int:
    """CF-3.1 the sum of the points modulo 10; the bûches are worth 0."""
    return sum(_POINTS[rank] for rank in cards) % 10


def is_natural(cards: Sequence[str]) -> bool:
    """CF-3.1 a two-card 8 or 9."""
    return len(cards) == 2 and hand_value(cards) >= 8


def hand_text(cards: Sequence[str]) -> str:
    return "+".join(cards)


def ponte_fault(cards: Sequence[str], said: str) -> str | None:
    """CF-8.1 / CF-I8 the card holder's departure from the drawing rule of CF-4.5, if any."""
    value = hand_value(cards)
    if value >= 8:
        return "F_NATURAL_NOT_SHOWN"
    if value in (6, 7) and said == "draw":
        return "F_DREW_ON_6_7"
    if value <= 4 and said == "stand":
        return "F_STOOD_UNDER_5"
    return None  # 5 is free (CF-4.5)


def claim_shape_ok(claim: object) -> bool:
    """CF-7.2 a claim: ``{player, kind}``, ``amount`` (an integer) only with avec la table."""
    if not isinstance(claim, dict):
        return False
    player = claim.get("player")
    if isinstance(player, bool) or not isinstance(player, int | str):
        return False
    kind = claim.get("kind")
    if kind == "banco":
        return set(claim) == {"player", "kind"}
    if kind == "banco_with_table":
        amount = claim.get("amount")
        return (
            set(claim) == {"player", "kind", "amount"}
            and isinstance(amount, int)
            and not isinstance(amount, bool)
        )
    return False


# -- CF-2.3 priority and payment order ------------------------------------------------------------


def priority_order(
    state: CFState, players: Sequence[str], standing_order: Sequence[str]
) -> list[str]:
    """CF-2.3 / CF-I1 / CF-I25: seated players in rotation order from the banker, then the
    standing players in ``standing_order`` (their claims, or their first stakes)."""
    seating = state.seating
    assert state.banker is not None
    banker_seat = seating.seat_of(state.banker)
    assert banker_seat is not None
    rotation = seating.rotation_from(banker_seat)

    def key(player: str) -> tuple[int, int]:
        seat = seating.seat_of(player)
        if seat is not None:
            return (0, rotation.index(seat))
        return (1, list(standing_order).index(player))

    return sorted(players, key=key)


def payment_order(seating: Seating, stakes: Sequence[tuple[str, int]]) -> list[tuple[str, int]]:
    """CF-5.2 / CF-I17 / COM-3.4: seated pontes in seat order, then the standing players in the
    order their stakes were recorded."""
    seated = sorted(
        (
            (seating.seat_of(player), player, amount)
            for player, amount in stakes
            if seating.seat_of(player) is not None
        ),
        key=lambda item: item[0] or 0,
    )
    standing = [(p, a) for p, a in stakes if seating.seat_of(p) is None]
    return [(player, amount) for _, player, amount in seated] + standing


def stake_total(coup: Coup) -> int:
    """``T``, the total staked (CF-4.3)."""
    return sum(amount for _, amount in coup.stakes)


# -- money after the coup (COM-7, CF-5.5) ---------------------------------------------------------


def _book(state: CFState, transfer: Transfer, *, on_coup: bool) -> CFState:
    """CF-5.5 / COM-10.5: on the last coup's transfers, or on the session's."""
    if on_coup:
        last = state.coups[-1].with_transfers(transfer)
        return replace(state, coups=(*state.coups[:-1], last))
    return replace(state, session_transfers=(*state.session_transfers, transfer))


def return_reliquat(state: CFState, player: str, *, on_coup: bool) -> CFState:
    """COM-7.2 / CF-6.4 the reliquat goes back to its banker (``reliquat_out``)."""
    amount = state.reliquat(player)
    if amount == 0:
        return state
    state = replace(state, reliquats=tuple(r for r in state.reliquats if r[0] != player))
    transfer = Transfer(reliquat_of(player), player, amount, "reliquat_out")
    return _book(state, transfer, on_coup=on_coup)


def with_reliquat_in(state: CFState, player: str, amount: int) -> CFState:
    """COM-7.1 / CF-6.1 part of the bank set aside after a win (``reliquat_in``, the coup's)."""
    if amount == 0:
        return state
    held = dict(state.reliquats)
    held[player] = held.get(player, 0) + amount
    state = replace(state, reliquats=tuple(held.items()))
    transfer = Transfer(player, reliquat_of(player), amount, "reliquat_in")
    return _book(state, transfer, on_coup=True)


# -- CF-6 passing the bank ------------------------------------------------------------------------


def pass_hand(state: CFState, *, outgoing: str | None, anchor: int) -> CFState:
    """CF-6.3 / COM-9.4 the hand is offered in rotation order from the banker's seat, the
    outgoing banker last if he is still seated; with nobody to offer it, the bank is vacant."""
    offerees = state.seating.rotation_from(anchor)
    if outgoing is not None and state.seating.seat_of(outgoing) == anchor:
        offerees = (*offerees, anchor)
    state = replace(
        state, bank_rule=None, suite=False, coup=None, bank_after=None, last_outcome=None
    )
    if not offerees:
        # CF-6.7 / COM-9.7 vacant bank.
        return replace(state, phase=BANK_PENDING, banker=None, offer=None)
    offer = Offer("hand", outgoing, anchor, offerees)
    return replace(state, phase=HAND_OFFER, banker=outgoing, offer=offer)


def suite_declined_by_all(state: CFState) -> CFState:
    """CF-6.2 / CF-I13 nobody takes the suite: the reliquat is returned, the hand passes."""
    offer = state.offer
    assert offer is not None and offer.outgoing is not None
    state = return_reliquat(state, offer.outgoing, on_coup=offer.from_decision)
    return pass_hand(state, outgoing=offer.outgoing, anchor=offer.anchor)


# -- CF-4.8 showdown and CF-5 settlement ---------------------------------------------------------


def _banker_wins(state: CFState, coup: Coup, number: int) -> CFState:
    """CF-5.1 the pontes' stakes to the banker, the cagnotte, then the fault penalty."""
    banker = state.banker
    assert banker is not None
    rules = state.rules
    ordered = payment_order(state.seating, coup.stakes)
    transfers = [Transfer(player, banker, amount, "stake_lost") for player, amount in ordered]
    gross = stake_total(coup)  # COM-6.2 G = T
    levy = cagnotte_levy(
        gross,
        rate_bp=rules.cagnotte_rate_bp,
        step=rules.cagnotte_step,
        rounding=rules.cagnotte_rounding,
    )  # COM-6.3
    if levy > 0:
        transfers.append(Transfer(banker, CAGNOTTE, levy, "cagnotte"))  # COM-6.4
    faulty = any(fault.startswith("F_") for fault in coup.faults)
    if faulty and rules.fault_reimbursement:
        # CF-8.2 / CF-I9 the card holder reimburses every other ponte his stake.
        holder = coup.card_holder
        assert holder is not None
        transfers += [
            Transfer(holder, player, amount, "fault_reimbursement")
            for player, amount in ordered
            if player != holder
        ]
    record = CoupRecord(number, "banker_wins", tuple(transfers), coup.faults)
    # CF-5.1 / COM-6.6 bank := T + (T − c).
    return replace(
        state,
        phase=BANK_DECISION,
        coup=None,
        bank_after=gross + gross - levy,
        last_outcome="banker_wins",
        coups=(*state.coups, record),
    )


def _ponte_wins(state: CFState, coup: Coup, number: int) -> CFState:
    """CF-5.2 the banker pays every ponte out of the bank; his tenure ends (CF-6.4)."""
    banker = state.banker
    assert banker is not None
    ordered = payment_order(state.seating, coup.stakes)
    transfers = tuple(Transfer(banker, player, amount, "stake_won") for player, amount in ordered)
    record = CoupRecord(number, "ponte_wins", transfers, coup.faults)
    state = replace(state, coup=None, coups=(*state.coups, record))
    if state.adjudicated == banker:
        # CF-6.5 the adjudicated banker stays, announces a free bank, keeps his reliquat aside.
        return replace(state, phase=BANK_PENDING, bank_rule=None, suite=False)
    state = return_reliquat(state, banker, on_coup=True)  # CF-5.5 / COM-7.2
    seat = state.seating.seat_of(banker)
    assert seat is not None
    return pass_hand(state, outgoing=banker, anchor=seat)  # CF-6.3


def showdown(state: CFState) -> CFState:
    """CF-4.8.1 the higher value wins, equal values tie; then the settlement (CF-5)."""
    coup = state.coup
    assert coup is not None
    ponte = hand_value(coup.ponte_cards)
    banker = hand_value(coup.banker_cards)
    number = len(state.coups) + 1
    if banker > ponte:
        return _banker_wins(state, coup, number)
    if ponte > banker:
        return _ponte_wins(state, coup, number)
    # CF-5.3 / CF-I15 tie: nothing moves, the bank stays at T.
    record = CoupRecord(number, "tie", (), coup.faults)
    return replace(
        state,
        phase=BANK_DECISION,
        coup=None,
        bank_after=stake_total(coup),
        last_outcome="tie",
        coups=(*state.coups, record),
    )
