"""The tickets a croupier detaches for the levy of each winning coup of the banker, in a house
that still tears them (arrêté du 14 mai 2007, arts. 56-1, 59, 82–83; docs/registers.md,
"Tickets"): face values of 0.10 €, 1 €, 10 € and 100 €, at most three in use at one table.
12.30 € is one ticket of 10 €, two of 1 € and three of 0.10 €.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

# The face values the arrêté knows, in cents (art. 82).
FACE_VALUES = (10, 100, 1_000, 10_000)
MOST_FACES_AT_A_TABLE = 3  # art. 59


@dataclass(frozen=True, slots=True)
class Tickets:
    """What to detach: tickets by face value (largest first), and what the faces in use
    cannot make (0 when they make it all)."""

    by_face: tuple[tuple[int, int], ...]
    left: int

    @property
    def count(self) -> int:
        return sum(count for _, count in self.by_face)


def tickets_for(levy_cents: int, faces: Iterable[int] = FACE_VALUES) -> Tickets:
    """The fewest tickets of the faces in use that make the levy. The face values divide one
    another (0.10 €, 1 €, 10 €, 100 €), so taking the largest first is the fewest."""
    if levy_cents < 0:
        raise ValueError(f"a levy of 0 or more cents is expected, not {levy_cents}")
    left = levy_cents
    by_face: list[tuple[int, int]] = []
    for face in sorted(set(faces), reverse=True):
        count, left = divmod(left, face)
        if count:
            by_face.append((face, count))
    return Tickets(tuple(by_face), left)
