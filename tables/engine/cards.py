"""Ranks and the pack with its card tracking (COM-1, COM-2)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tables.engine.errors import bad_rank, pack_empty, rank_exhausted
from tables.engine.immutable import replace

# COM-1.1 the 13 rank codes; the rules never read a suit.
RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_RANK_INDEX = {rank: index for index, rank in enumerate(RANKS)}


def rank_check(rank: object) -> str:
    """Return ``rank`` if it is one of the 13 rank codes, else ``E_BAD_RANK`` (COM-1.4)."""
    if not isinstance(rank, str) or rank not in _RANK_INDEX:
        raise bad_rank(rank)
    return rank


@dataclass(frozen=True)
class Pack:
    """A pack of ``decks`` decks and the ranks recorded since it was formed (COM-2.1, COM-2.2).

    Immutable: ``draw`` returns a new pack. ``seen`` holds one count per rank, in ``RANKS`` order.
    """

    decks: int
    seen: tuple[int, ...] = (0,) * 13

    @property
    def size(self) -> int:
        return 52 * self.decks

    @property
    def per_rank(self) -> int:
        return 4 * self.decks

    @property
    def drawn(self) -> int:
        return sum(self.seen)

    @property
    def left(self) -> int:
        return self.size - self.drawn

    def seen_of(self, rank: str) -> int:
        return self.seen[_RANK_INDEX[rank]]

    def left_of(self, rank: str) -> int:
        return self.per_rank - self.seen_of(rank)

    def counts_left(self) -> dict[str, int]:
        """Cards of each rank not yet recorded, for the console's sabot panel."""
        return {rank: self.left_of(rank) for rank in RANKS}

    def view(self) -> dict[str, Any]:
        """The pack as every game's table screen shows it: the cards left, and of each rank."""
        return {"left": self.left, "counts": self.counts_left()}

    def check_draw(self, rank: object, *, empty_hint: str = "R_NEW_PACK") -> str:
        """Validate a card about to be recorded, in the order of COM-10.2 step 5.

        ``E_BAD_RANK``, then ``E_PACK_EMPTY`` (``empty_hint``: the code of what to do), then
        ``E_RANK_EXHAUSTED``.
        """
        self._index_check(rank, empty_hint)
        assert isinstance(rank, str)
        return rank

    def _index_check(self, rank: object, empty_hint: str) -> int:
        """``check_draw``, giving the rank's place in ``seen``."""
        index = _RANK_INDEX.get(rank) if isinstance(rank, str) else None
        if index is None:
            raise bad_rank(rank)
        seen = self.seen
        if sum(seen) >= 52 * self.decks:
            raise pack_empty(empty_hint)
        if seen[index] >= 4 * self.decks:
            raise rank_exhausted(RANKS[index], 4 * self.decks)
        return index

    def draw(self, rank: object, *, empty_hint: str = "R_NEW_PACK") -> Pack:
        index = self._index_check(rank, empty_hint)
        seen = self.seen
        return replace(self, seen=(*seen[:index], seen[index] + 1, *seen[index + 1 :]))

    def draw_many(self, ranks: tuple[str, ...] | list[str]) -> Pack:
        """Record several cards at once; all or nothing (a rejection changes nothing)."""
        pack = self
        for rank in ranks:
            pack = pack.draw(rank)
        return pack

    def fresh(self) -> Pack:
        """A new, complete pack of the same composition (a shuffle)."""
        return Pack(self.decks)
