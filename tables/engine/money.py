"""Money: integer chips, the cagnotte levy and fair splits (COM-5, COM-6, COM-8.2).

No floating point anywhere: rates are integer basis points (1 bp = 0.01 %).
"""

from __future__ import annotations

from typing import Literal, NewType, Protocol

from tables.engine.errors import bad_amount

Chips = NewType("Chips", int)

Rounding = Literal["down", "nearest", "nearest_down", "nearest_even"]
# The rounding values that round to the nearest step, each with its tie rule (COM-6.3).
NEAREST: dict[str, str] = {"nearest": "up", "nearest_down": "down", "nearest_even": "even"}

# LV-1 how the house is paid at a table: a share of the banker's win (COM-6.2, the default), a
# share of the pontes' stakes, a fixed fee per coup, a fee per seated player and period, or a
# participation fee per player and day. The last two are charged by the house from the seating
# record, not by the engine (LV-3).
BANKER_WIN = "banker_win"
STAKES = "stakes"
COUP_FEE = "coup_fee"
TIME_FEE = "time_fee"
PARTICIPATION_FEE = "participation_fee"
LEVY_MODELS = (BANKER_WIN, STAKES, COUP_FEE, TIME_FEE, PARTICIPATION_FEE)
FEE_MODELS = frozenset({COUP_FEE, TIME_FEE, PARTICIPATION_FEE})
FEE_PAYERS = ("pontes", "banker")


def is_whole_chips(amount: object, chip_unit: int) -> bool:
    """True when ``amount`` is a positive integer multiple of ``chip_unit`` (COM-5.1)."""
    return (
        isinstance(amount, int)
        and not isinstance(amount, bool)
        and amount > 0
        and amount % chip_unit == 0
    )


def amount_check(amount: object, chip_unit: int, *, allow_zero: bool = False) -> int:
    """Return ``amount`` if it is a positive multiple of ``chip_unit``, else ``E_BAD_AMOUNT``.

    ``allow_zero`` is for the few places a game file allows 0 (CF-6.1 reliquat).
    """
    if allow_zero and amount == 0 and not isinstance(amount, bool):
        return 0
    if not is_whole_chips(amount, chip_unit):
        raise bad_amount(amount, chip_unit)
    assert isinstance(amount, int)
    return amount


def round_down(amount: int, chip_unit: int) -> int:
    """The largest multiple of ``chip_unit`` not above ``amount`` (COM-5.1 computed amounts)."""
    return (amount // chip_unit) * chip_unit


def cagnotte_levy(gross_chips: int, *, rate_bp: int, step: int, rounding: Rounding = "down") -> int:
    """The levy on the banker's gross win from pontes, COM-6.3.

    - ``down``: ``floor(G·rate / (10000·step))·step``;
    - ``nearest``: the multiple of ``step`` nearest to the exact levy, an exact half rounded up;
      ``nearest_down`` rounds an exact half down, ``nearest_even`` to the even multiple;
    and never more than ``G`` itself.
    """
    if gross_chips <= 0 or rate_bp <= 0:
        return 0
    steps, rest = divmod(gross_chips * rate_bp, 10000 * step)
    if rounding != "down":
        half = 2 * rest - 10000 * step  # > 0: above the half; 0: exactly the half
        tie = NEAREST[rounding]
        if half > 0 or (half == 0 and (tie == "up" or (tie == "even" and steps % 2))):
            steps += 1
    levy = steps * step
    if levy > gross_chips:
        levy = (gross_chips // step) * step
    return levy


class LevySettings(Protocol):
    """A table's cagnotte settings, as every game's typed rules hold them (COM-6.1, COM-6.3)."""

    @property
    def cagnotte_rate_bp(self) -> int: ...

    @property
    def cagnotte_step(self) -> int: ...

    @property
    def cagnotte_rounding(self) -> Rounding: ...


def table_levy(gross_chips: int, settings: LevySettings) -> int:
    """The levy on the banker's gross win ``gross_chips`` at the table's cagnotte settings."""
    return cagnotte_levy(
        gross_chips,
        rate_bp=settings.cagnotte_rate_bp,
        step=settings.cagnotte_step,
        rounding=settings.cagnotte_rounding,
    )


def split_largest_remainder(total: int, members: int, chip_unit: int) -> tuple[int, ...]:
    """Divide ``total`` among ``members`` in whole chips (COM-8.2).

    Each share is ``floor(total / (members·chip_unit))·chip_unit``; the chip units left over go
    one each to the members in the order given (seat order, lowest seat first). What cannot be
    divided in whole chips (less than one chip unit) stays undivided and is not returned.
    """
    if members <= 0:
        return ()
    base = (total // (members * chip_unit)) * chip_unit
    left_units = (total - base * members) // chip_unit
    return tuple(base + (chip_unit if index < left_units else 0) for index in range(members))
