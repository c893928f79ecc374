"""Lansquenet moderne: states and the immutable session state (LM-4, LM-6).

The handlers that move from one state to the next are in ``handlers`` and ``coup``.
"""

from __future__ import annotations

from dataclasses import dataclass

from tables.engine.cards import Pack
from tables.engine.game import Required
from tables.engine.immutable import replace
from tables.engine.lansquenet_moderne.settings import Config
from tables.engine.settlement import CoupRecord, Transfer
from tables.engine.table import Seating

# -- states (LM-4.0; session_ended is the one of every game, tables.engine.session) ------------

BANK_PENDING = "bank_pending"
SPEAKING = "speaking"
STANDING_COMPLETION = "standing_completion"
SHORTFALL = "shortfall"
BANKER_CARD = "banker_card"
PONTES_CARD = "pontes_card"
MIDDLE_CARDS = "middle_cards"
ABANDONMENT_PENDING = "abandonment_pending"
BANK_DECISION = "bank_decision"
BANK_OFFER = "bank_offer"
SUCCESSOR_OFFER = "successor_offer"

CARD_PHASES = (BANKER_CARD, PONTES_CARD, MIDDLE_CARDS)
# COM-10.2 step 2: a stake arriving once the bank is covered and before settlement.
COVERED_PHASES = (*CARD_PHASES, ABANDONMENT_PENDING)

# -- holding (LM-4 carry-over, LM-6) -----------------------------------------------------------

ROTATION = "rotation"
PURCHASE = "purchase"
REFAIT_PURCHASE = "refait_purchase"

# -- outcomes (LM-4.6, LM-4.7, LM-4.5) ---------------------------------------------------------

DOUBLET = "doublet"
BANKER_CARD_OUT = "banker_card_out"
PONTES_CARD_OUT = "pontes_card_out"
ABANDONED = "abandoned"
WITHDRAWN = "withdrawn"


# -- state -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class FixedBank:
    """``bank_rule = fixed(E)`` (LM-6.2, LM-6.3, LM-6.4.4); ``why`` words the error message."""

    amount: int
    why: str


@dataclass(frozen=True)
class Coup:
    """The coup in play, from ``announce_bank`` to its settlement."""

    bank: int  # E (LM-4.1.1), reduced by reduce_bank (LM-I5)
    speakers: tuple[int, ...]  # LM-2.3 speaking order, fixed for the coup
    round: int = 1
    turn: int = 0  # index in ``speakers`` of the expected speaker
    stakes: tuple[tuple[str, int], ...] = ()  # (player, stake) in the order of first stake
    banker_card: str | None = None
    pontes_card: str | None = None
    middle: tuple[str, ...] = ()
    fraction_bp: int = 0  # the pending abandonment offer (LM-4.7)
    accepted: tuple[str, ...] = ()  # pontes who accepted the pending offer

    @property
    def staked(self) -> int:
        """``T`` (LM-4.1.1)."""
        return sum(amount for _, amount in self.stakes)

    @property
    def uncovered(self) -> int:
        """``R = E − T`` (LM-4.1.1)."""
        return self.bank - self.staked

    @property
    def on_table(self) -> tuple[str, ...]:
        """Every card turned in this coup (LM-3.4)."""
        first = tuple(c for c in (self.banker_card, self.pontes_card) if c is not None)
        return first + self.middle

    def stake_of(self, player: str) -> int:
        return dict(self.stakes).get(player, 0)

    def with_stake(self, player: str, amount: int) -> Coup:
        """Add ``amount`` to ``player``'s stake, keeping the order of first stakes."""
        if any(p == player for p, _ in self.stakes):
            stakes = tuple((p, a + amount if p == player else a) for p, a in self.stakes)
        else:
            stakes = (*self.stakes, (player, amount))
        return replace(self, stakes=stakes)


@dataclass(frozen=True)
class Decision:
    """What the banker decides on after a winning coup (LM-6.2, LM-6.3)."""

    bank: int  # E
    levy: int  # c
    doublet: bool

    @property
    def doubled(self) -> int:
        """``2E − c`` (LM-I16)."""
        return 2 * self.bank - self.levy


@dataclass(frozen=True)
class Offer:
    """A bank offer: the purchase (LM-6.4) or the successor offer (LM-6.6)."""

    offerees: tuple[int, ...]  # fixed when the offer starts (LM-6.4.2, LM-6.6.1)
    index: int = 0
    levels: tuple[tuple[int, str], ...] = ()  # purchase: (price, holding) per level (LM-6.4.3)
    level: int = 0
    must_pass: str | None = None  # the refait buyer whose coup this follows (LM-6.3.1)

    @property
    def current(self) -> int:
        return self.offerees[self.index]


@dataclass(frozen=True)
class LMState:
    """A session of lansquenet moderne at one table (immutable)."""

    config: Config
    seating: Seating
    pack: Pack
    phase: str = BANK_PENDING
    banker_seat: int | None = None  # the banker, or the outgoing banker (LM-4.0.4)
    holding: str = ROTATION
    anchor: int | None = None
    purchases_in_row: int = 0
    bank_rule: FixedBank | None = None  # None = free
    vacant: bool = False  # COM-9.7, LM-6.6.2
    coup: Coup | None = None
    decision: Decision | None = None
    offer: Offer | None = None
    coups: tuple[CoupRecord, ...] = ()
    session_transfers: tuple[Transfer, ...] = ()

    @property
    def banker(self) -> str | None:
        """LM-4.0.4: the banker, or the outgoing banker during a decision or an offer."""
        if self.banker_seat is None:
            return None
        return self.seating.player_at(self.banker_seat)

    def name(self, seat: int) -> str:
        return self.seating.player_at(seat) or f"seat {seat}"

    def who_at(self, seat: int) -> str | int:
        """The player at ``seat``, as an error's or a prompt's parameters name him: his id,
        or the seat number of an empty seat."""
        return self.seating.player_at(seat) or seat

    # Where the rules need them set: the coup in play (from announce_bank to its settlement),
    # the offer, the decision, and the banker's (or outgoing banker's) seat.
    in_play = Required[Coup]("coup")
    current_offer = Required[Offer]("offer")
    current_decision = Required[Decision]("decision")
    banker_at = Required[int]("banker_seat")

    @property
    def seat_limits(self) -> tuple[int, int]:
        """LM-2.2 min_players to max_players seated."""
        return self.config.min_players, self.config.max_players

    @property
    def first_banker_open(self) -> bool:
        """LM-4.0.1 the first banker is set before the first coup, while there is none."""
        return self.banker_seat is None and not self.coups


def pontes_in_order(st: LMState, coup: Coup) -> list[tuple[str, int]]:
    """LM-5.5 / LM-I19: seated pontes in speaking order, then standing players as they staked."""
    seated = [st.seating.player_at(seat) for seat in coup.speakers]
    stakes = dict(coup.stakes)
    first = [(p, stakes[p]) for p in seated if p is not None and stakes.get(p, 0) > 0]
    rest = [(p, a) for p, a in coup.stakes if p not in seated and a > 0]
    return first + rest
