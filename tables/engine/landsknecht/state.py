"""Landsknecht: the states of LR-4 and the immutable session state."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from tables.engine.cards import Pack
from tables.engine.landsknecht.settings import DECKS, MIN_PLAYERS, Config
from tables.engine.session import FirstBankerBeforeCoups
from tables.engine.settlement import CoupRecord, Transfer
from tables.engine.table import Seating

# The states of LR-4 (LR-4.0; session_ended is the one of every game, tables.engine.session).
BANK_PENDING = "bank_pending"
COVERING = "covering"
FIRST_CARD = "first_card"
SECOND_CARD = "second_card"
MIDDLE_CARDS = "middle_cards"
BANK_DECISION = "bank_decision"
SUCCESSOR_OFFER = "successor_offer"
CARD_PHASES = (FIRST_CARD, SECOND_CARD, MIDDLE_CARDS)


# -- the state ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class BankRule:
    """The carry-over rule fixing the next announced stake (LR-4.1.1).

    ``opening``: the agreed stake (or any amount with ``free_opening``); ``opening_or_figure``:
    that, or the quitting banker's figure ``Q`` (LR-6.2, LR-I14); ``fixed``: exactly the doubled
    stake ``S`` (LR-6.2).
    """

    kind: Literal["opening", "opening_or_figure", "fixed"]
    amount: int | None = None

    def describe(self) -> str:
        return self.kind if self.amount is None else f"{self.kind}({self.amount})"


OPENING = BankRule("opening")


@dataclass(frozen=True)
class Coup:
    """The coup in play: the stake, who spoke and took what, the fund's cover and the cards."""

    stake: int  # S
    speakers: tuple[int, ...]  # LR-4.2 the ponters' seats in rotation order from the banker
    spoken: int = 0
    takes: tuple[tuple[str, int], ...] = ()  # (ponter, s(q)) in speaking order
    cover: int = 0  # U, the fund's part (LR-2.3)
    replenishments: tuple[Transfer, ...] = ()  # LR-2.4, they belong to the coup
    banker_card: str | None = None  # b
    ponters_card: str | None = None  # p
    middle: tuple[str, ...] = ()

    @property
    def taken(self) -> int:
        return sum(amount for _, amount in self.takes)

    @property
    def remaining(self) -> int:
        """``R``: the part of ``S`` not yet taken (LR-4.2)."""
        return self.stake - self.taken - self.cover

    @property
    def speaker(self) -> int | None:
        return self.speakers[self.spoken] if self.spoken < len(self.speakers) else None

    @property
    def table_cards(self) -> tuple[str, ...]:
        """Every card turned in this coup, still on the table (LR-3.4)."""
        first = tuple(c for c in (self.banker_card, self.ponters_card) if c is not None)
        return first + self.middle


@dataclass(frozen=True)
class Offer:
    """A successor offer (COM-9.4): its order is fixed when it starts (LR-6.7)."""

    order: tuple[int, ...]
    index: int
    rule: BankRule

    @property
    def offeree(self) -> int:
        return self.order[self.index]


@dataclass(frozen=True)
class LRState(FirstBankerBeforeCoups):
    """A landsknecht session at one table; never mutated (``dataclasses.replace``). Its first
    banker is set as COM-9.2 says (LR-4.0.1, ``FirstBankerBeforeCoups``)."""

    config: Config
    seating: Seating
    phase: str = BANK_PENDING
    # The banker, or the outgoing banker in bank_decision and successor_offer; None before the
    # first banker, in a vacant bank and during an offer after the banker left (LR-4.0.3).
    banker_player: str | None = None
    vacant: bool = False  # COM-9.7, LR-6.7
    bank_rule: BankRule = OPENING
    shuffle_due: bool = False  # LR-3.2
    pack: Pack = Pack(DECKS)
    reserve_open: bool = False
    members: tuple[str, ...] = ()  # LR-2.1 the players seated at the opening, still seated
    fund: int = 0  # V
    coup: Coup | None = None
    figure: int = 0  # 2S − c after a win (LR-6.2, LR-I9, LR-I10)
    offer: Offer | None = None
    coups: tuple[CoupRecord, ...] = ()
    session_transfers: tuple[Transfer, ...] = ()

    @property
    def banker(self) -> str | None:
        return self.banker_player

    @property
    def banker_seat(self) -> int | None:
        if self.banker_player is None:
            return None
        return self.seating.seat_of(self.banker_player)

    def members_in_seat_order(self) -> tuple[str, ...]:
        seated = [player for _, player in self.seating.seats]
        return tuple(player for player in seated if player in self.members)

    @property
    def seat_limits(self) -> tuple[int, int]:
        """LR-4.1.3 two to max_players seated."""
        return MIN_PLAYERS, self.config.max_players


def require_coup(state: LRState) -> Coup:
    assert state.coup is not None
    return state.coup


def player_at(state: LRState, seat: int) -> str:
    player = state.seating.player_at(seat)
    assert player is not None
    return player
