"""Chemin de fer: the states of CF-4.0 and the immutable session state."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from tables.engine.cards import Pack
from tables.engine.chemin_de_fer.settings import MIN_PLAYERS, Rules
from tables.engine.settlement import CoupRecord, Transfer
from tables.engine.table import Seating

# CF-4.0 the states (and session_ended, the one of every game: tables.engine.session).
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

# CF-4.3.2 from these states until the settlement the bank is covered (E_BANK_COVERED).
COVERED_PHASES = frozenset({DEALING, PONTE_DECISION, BANKER_RESPONSE, BANKER_DRAW_DECISION})

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

    @property
    def seat_limits(self) -> tuple[int, int]:
        """CF-2.2 / CF-I22: 4 to max_players seated, banker included."""
        return MIN_PLAYERS, self.rules.max_players

    @property
    def first_banker_open(self) -> bool:
        """CF-6.6 the first banker is automatic: chemin de fer has no set_first_banker."""
        return False


def stake_total(coup: Coup) -> int:
    """``T``, the total staked (CF-4.3)."""
    return sum(amount for _, amount in coup.stakes)


# -- CF-3.2 the cut ------------------------------------------------------------------------------


def expected_cutter(state: CFState) -> int:
    """CF-3.2 / CF-I23: the next occupied seat in seat order after the last cutter."""
    occupied = state.seating.occupied
    if state.last_cutter is None:
        return occupied[0]
    after = [seat for seat in occupied if seat > state.last_cutter]
    return after[0] if after else occupied[0]


# -- CF-3.1 points --------------------------------------------------------------------------------

_POINTS = {"A": 1, "10": 0, "J": 0, "Q": 0, "K": 0} | {str(n): n for n in range(2, 10)}


def hand_value(cards: Sequence[str]) -> int:
    """CF-3.1 the sum of the points modulo 10; the bûches are worth 0."""
    return sum(_POINTS[rank] for rank in cards) % 10


def is_natural(cards: Sequence[str]) -> bool:
    """CF-3.1 a two-card 8 or 9."""
    return len(cards) == 2 and hand_value(cards) >= 8


def hand_text(cards: Sequence[str]) -> str:
    return "+".join(cards)
