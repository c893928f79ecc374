"""The funnel plot of an audit, as the geometry of a server-drawn SVG (no script: the CSP
forbids inline script, and no library draws it; templates/reports/odds/_funnel.html).

Each test (a shown group's measure with enough observations) is a point: its number of
observations on a logarithmic horizontal axis, its z-score upwards; the limits `±3` are drawn
across, and a flagged point is marked. A z beyond the drawn range (or none: a flagged cell with
no spread) is drawn on the edge, marked as beyond.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

from reports.odds.audit import FLAG_Z, MIN_COUPS, Audit

WIDTH, HEIGHT = 720, 360
LEFT, RIGHT, TOP, BOTTOM = 56, 16, 16, 40
MOST_Z = 8.0  # the drawn range never goes beyond ±8


@dataclass(frozen=True)
class Point:
    x: float
    y: float
    flagged: bool
    beyond: bool
    title: str

    @property
    def corner_x(self) -> float:
        """The corner of a flagged point's square."""
        return round(self.x - 4, 1)

    @property
    def corner_y(self) -> float:
        return round(self.y - 4, 1)


class Tick(NamedTuple):
    """A mark on an axis or a limit: where, and its words."""

    at: float
    label: str


@dataclass(frozen=True)
class Funnel:
    """The plot: its points, the ±3 limits, the zero line and the ticks, in a frame of
    `WIDTH` × `HEIGHT` whose axes run from `left` to `right` and from `top` to `bottom`."""

    points: tuple[Point, ...]
    limits: tuple[Tick, ...]  # the ±3 lines, with their words
    zero: float
    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]
    width = WIDTH
    height = HEIGHT
    left = LEFT
    top = TOP
    right = WIDTH - RIGHT
    bottom = HEIGHT - BOTTOM


def funnel_of(audit: Audit) -> Funnel:
    """The plot of every test of `audit`."""
    tests = [(row, cell) for row in audit.rows for cell in row.cells if cell.is_test]
    most_n = max((cell.n for _row, cell in tests), default=MIN_COUPS * 10)
    low = math.log10(MIN_COUPS)
    high = max(math.log10(most_n), low + 1)
    finite = [abs(cell.z) for _row, cell in tests if cell.z is not None]
    span = min(MOST_Z, max(4.0, math.ceil(max(finite, default=0.0))))
    right, bottom = Funnel.right, Funnel.bottom

    def x_of(n: int) -> float:
        return round(LEFT + (math.log10(n) - low) / (high - low) * (right - LEFT), 1)

    def y_of(z: float) -> float:
        return round(TOP + (span - z) / (2 * span) * (bottom - TOP), 1)

    points = []
    for row, cell in tests:
        z = cell.z
        beyond = z is None or abs(z) > span
        shown = span if z is None else max(-span, min(span, z))
        said = "—" if z is None else f"{z:+.2f}"
        title = f"{row.group.label} · {row.game} · {cell.measure}: n = {cell.n}, z = {said}"
        points.append(Point(x_of(cell.n), y_of(shown), cell.flagged, beyond, title))
    decades = range(math.ceil(low), math.floor(high) + 1)
    x_ticks = [Tick(x_of(MIN_COUPS), str(MIN_COUPS))]
    x_ticks += [Tick(x_of(10**d), f"{10**d:,}") for d in decades if 10**d > MIN_COUPS]
    whole = int(span)
    y_ticks = [Tick(y_of(z), f"{z:+d}" if z else "0") for z in range(-whole, whole + 1, 2)]
    limits = (Tick(y_of(FLAG_Z), f"+{FLAG_Z:g}"), Tick(y_of(-FLAG_Z), f"−{FLAG_Z:g}"))
    return Funnel(tuple(points), limits, y_of(0.0), tuple(x_ticks), tuple(y_ticks))
