"""Lansquenet classique: phases, outcomes and the immutable session state (LC-5.0)."""

from __future__ import annotations

from dataclasses import dataclass

from tables.engine.cards import Pack
from tables.engine.lansquenet_classique.settings import MIN_PLAYERS, Config
from tables.engine.session import FirstBankerBeforeCoups
from tables.engine.settlement import CoupRecord, Transfer
from tables.engine.table import Seating

# -- phases (LC-5.0; session_ended is the one of every game, tables.engine.session) ------------

COUP_START = "coup_start"
DEAL = "deal"
BANKER_CARD = "banker_card"
DRAWING = "drawing"
BANK_DECISION = "bank_decision"
SUCCESSOR_OFFER = "successor_offer"

# -- outcomes (LC-5.2.1, LC-5.3.1, LC-5.4.1) ----------------------------------------------------

COUPEUR_QUADRUPLE = "coupeur_quadruple"
BANKER_QUADRUPLE = "banker_quadruple"
BANKER_CARD_OUT = "banker_card_out"
ALL_TAKEN = "all_taken"

# -- state ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CoupeurCard:
    """A carte droite in play (LC-4.1): its holder, rank and multiplicity (1, 2 or 3)."""

    seat: int
    player: str
    rank: str
    multiplicity: int = 1


@dataclass(frozen=True)
class CarabinCard:
    """A carabin's bet on a carte de reprise (LC-6.2, LC-6.3)."""

    player: str
    rank: str
    amount: int


@dataclass(frozen=True)
class Coup:
    """The coup (manche, LC-I19) in progress.

    ``cards`` are the coupeur cards in play in deal order; ``carabins`` the carabin cards in
    bet order (LC-2.6); ``last_match`` says what the last card turned from the talon matched
    (None: a carte de reprise); ``turned_any`` is false until the first talon card.
    """

    number: int
    banker: str
    banker_seat: int
    pack: Pack
    deal_order: tuple[int, ...]
    dealt: int = 0
    cards: tuple[CoupeurCard, ...] = ()
    banker_rank: str | None = None
    banker_multiplicity: int = 0
    carabins: tuple[CarabinCard, ...] = ()
    bettors: tuple[str, ...] = ()
    turned: tuple[str, ...] = ()
    # What the last card matched: a reason code and the players whose card it took.
    last_match: tuple[str, tuple[str, ...]] | None = None
    transfers: tuple[Transfer, ...] = ()
    gross: int = 0  # COM-6.2 / LC-8.2: every stake the banker collected

    @property
    def next_recipient(self) -> int | None:
        return self.deal_order[self.dealt] if self.dealt < len(self.deal_order) else None

    def card_of_rank(self, rank: str) -> CoupeurCard | None:
        for card in self.cards:
            if card.rank == rank:
                return card
        return None

    def carabins_on(self, rank: str) -> tuple[CarabinCard, ...]:
        return tuple(bet for bet in self.carabins if bet.rank == rank)

    def last_is_live_reprise(self) -> bool:
        """LC-6.1, LC-6.5: the last talon card is a carte de reprise not yet dead."""
        if not self.turned or self.last_match is not None:
            return False
        return self.pack.left_of(self.turned[-1]) > 0


@dataclass(frozen=True)
class LCState(FirstBankerBeforeCoups):
    """The session at one table (the ``GameState`` of game.py); its first banker is set as
    COM-9.2 says (``FirstBankerBeforeCoups``)."""

    config: Config
    seating: Seating
    phase: str = COUP_START
    banker: str | None = None
    vacant: bool = False  # LC-7.6 the bank is vacant
    offer: tuple[int, ...] = ()  # LC-7.1 offerees still to answer, the current one first
    forced_successor: bool = False  # LC-7.2
    coup: Coup | None = None
    coups: tuple[CoupRecord, ...] = ()
    session_transfers: tuple[Transfer, ...] = ()  # LC-8.4 always empty

    @property
    def seat_limits(self) -> tuple[int, int]:
        """LC-2.3, LC-2.5: 4 to min(12, seat_count) seated players."""
        return MIN_PLAYERS, self.config.max_seated


def banker_seat(state: LCState) -> int:
    assert state.banker is not None
    seat = state.seating.seat_of(state.banker)
    assert seat is not None
    return seat


def seat_label(state: LCState, seat: int | None) -> str | None:
    if seat is None:
        return None
    return state.seating.player_at(seat)
