"""Pontoon (PT): phases, hand values and the immutable state (``docs/rules/pontoon.md``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Final, Literal

from tables.engine.cards import Pack
from tables.engine.immutable import replace
from tables.engine.pontoon.settings import DECKS, MIN_PLAYERS, Rules
from tables.engine.settlement import CoupRecord, Transfer
from tables.engine.table import Seating

# -- phases (PT-4.4; session_ended is the one of every game, tables.engine.session) -----------

COUP_START = "coup_start"
FIRST_ROUND = "first_round"
STAKING = "staking"
SECOND_ROUND = "second_round"
PLAYER_TURNS = "player_turns"
BANKER_TURN = "banker_turn"
BANK_TRANSFER: Final = "bank_transfer"
SUCCESSOR_OFFER: Final = "successor_offer"

OfferKind = Literal["bank_transfer", "successor_offer"]


# -- hand values (PT-3) ------------------------------------------------------------------------

VALUES: Mapping[str, int] = {
    "A": 1,
    "2": 2,
    "3": 3,
    "4": 4,
    "5": 5,
    "6": 6,
    "7": 7,
    "8": 8,
    "9": 9,
    "10": 10,
    "J": 10,
    "Q": 10,
    "K": 10,
}
TEN_VALUED = frozenset({"10", "J", "Q", "K"})


@lru_cache(maxsize=4096)
def hard_total(cards: tuple[str, ...]) -> int:
    """PT-3.2 the sum with every ace counted 1 (remembered: every check of a hand asks it)."""
    return sum(map(VALUES.__getitem__, cards))


def hand_total(cards: tuple[str, ...]) -> int:
    """PT-3.2 the total ``t``: an ace counts 11 when that does not bust (PT-I3)."""
    hard = hard_total(cards)
    if "A" in cards and hard + 10 <= 21:
        return hard + 10
    return hard


def is_bust(cards: tuple[str, ...]) -> bool:
    """PT-3.2 bust: ``h > 21``."""
    return hard_total(cards) > 21


def is_pontoon(cards: tuple[str, ...]) -> bool:
    """PT-3.3 exactly two cards, an ace and a 10, J, Q or K (two aces are not a pontoon)."""
    return len(cards) == 2 and "A" in cards and any(card in TEN_VALUED for card in cards)


def is_five_card_trick(cards: tuple[str, ...]) -> bool:
    """PT-3.4 five cards with ``h ≤ 21``."""
    return len(cards) == 5 and hard_total(cards) <= 21


def hand_kind(cards: tuple[str, ...]) -> str:
    """How a hand ranks (PT-3.3 to PT-3.5): bust, pontoon, five_card_trick or total."""
    if is_bust(cards):
        return "bust"
    if is_pontoon(cards):
        return "pontoon"
    if is_five_card_trick(cards):
        return "five_card_trick"
    return "total"


# -- the coup ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Hand:
    """A player of the coup (PT-2.1): his cards, his stake and how he stands."""

    seat: int
    player: str
    cards: tuple[str, ...] = ()
    initial: int = 0  # his initial stake (PT-4.1), 0 until he stakes
    stake: int = 0  # initial stake plus every buy (PT-4.2)
    sat_out: bool = False  # PT-4.1.2
    twisted: bool = False  # PT-4.2.3 no more buying
    stuck: bool = False

    @property
    def staked(self) -> bool:
        return self.initial > 0

    @property
    def to_speak(self) -> bool:
        """Still to stake or sit out in ``staking`` (PT-4.1.1)."""
        return not self.staked and not self.sat_out

    @property
    def bust(self) -> bool:
        return is_bust(self.cards)

    @property
    def pontoon(self) -> bool:
        return is_pontoon(self.cards)

    @property
    def finished(self) -> bool:
        """PT-4.2 he sticks, busts, reaches five cards or holds a pontoon."""
        return self.stuck or self.bust or len(self.cards) >= 5 or self.pontoon

    @property
    def in_play(self) -> bool:
        """Staked and not bust (PT-4.2.4, PT-5)."""
        return self.staked and not self.bust

    @property
    def dealt_pontoon(self) -> bool:
        """PT-6.1 his first two cards are a pontoon."""
        return self.staked and is_pontoon(self.cards[:2])


@dataclass(frozen=True)
class Coup:
    """The coup in progress, or the last one until the next ``start_coup`` (PT-7.2)."""

    banker: str
    banker_seat: int
    hands: tuple[Hand, ...]  # in play order: rotation order from the banker (PT-2.2)
    banker_cards: tuple[str, ...] = ()
    pack: Pack = Pack(DECKS)
    busts: tuple[Transfer, ...] = ()  # PT-4.2.2 stakes lost at once, in the order they happened

    def hand_at(self, seat: int) -> Hand | None:
        for hand in self.hands:
            if hand.seat == seat:
                return hand
        return None

    def with_hand(self, new: Hand) -> Coup:
        hands = tuple(new if hand.seat == new.seat else hand for hand in self.hands)
        return replace(self, hands=hands)

    @property
    def current(self) -> Hand | None:
        """PT-4.2 the first player who has staked and has not finished."""
        for hand in self.hands:
            if hand.staked and not hand.finished:
                return hand
        return None

    def next_recipient(self, phase: str) -> int:
        """PT-4.1 the seat the next card goes to: players in order, then the banker."""
        wanted = 0 if phase == FIRST_ROUND else 1
        for hand in self.hands:
            if len(hand.cards) == wanted and (phase == FIRST_ROUND or hand.staked):
                return hand.seat
        return self.banker_seat


@dataclass(frozen=True)
class Offer:
    """The bank offered in turn (PT-6.1 ``bank_transfer``, PT-6.3 ``successor_offer``)."""

    kind: OfferKind
    offerees: tuple[tuple[int, str], ...]  # (seat, player) in the order they are asked
    index: int = 0

    @property
    def current(self) -> tuple[int, str]:
        return self.offerees[self.index]


@dataclass(frozen=True)
class PontoonState:
    """The whole session at one pontoon table, immutable (COM-10.1)."""

    rules: Rules
    seating: Seating
    phase: str = COUP_START
    banker: str | None = None
    coups: tuple[CoupRecord, ...] = ()
    session_transfers: tuple[Transfer, ...] = ()  # PT-5.8 always empty
    coup: Coup | None = None
    offer: Offer | None = None
    vacant: bool = False  # PT-6.5 the bank is vacant
    coup_started: bool = False  # PT-6.4 set_first_banker only before the first coup

    @property
    def seat_limits(self) -> tuple[int, int]:
        """PT-2.1, PT-1.2: 2 to min(max_players, seat_count) seated players."""
        return MIN_PLAYERS, self.rules.max_seated

    @property
    def first_banker_open(self) -> bool:
        """PT-6.4 only while there is no banker and no coup has started."""
        return self.banker is None and not self.coup_started
