"""Landsknecht: the settings table of §1 (docs/rules/landsknecht-russe.md), typed."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tables.engine import settings as core
from tables.engine.errors import ParamValue
from tables.engine.money import is_whole_chips

CODE = "landsknecht"
TITLE = "landsknecht"
DECKS = 2  # LR-3.1 two full decks shuffled together
MIN_PLAYERS = 2  # §1 a banker and a ponter

# -- settings (§1) ---------------------------------------------------------------------------


def _max_bank_setting() -> core.Setting:
    """``max_bank``: none, or a multiple of ``chip_unit`` ≥ ``A`` and ≥ ``min_bank`` (LR-I10)."""

    def check(value: Any, earlier: core.Settings) -> bool:
        if value is None:
            return True
        return (
            is_whole_chips(value, earlier["chip_unit"])
            and value >= earlier["agreed_stake"]
            and value >= earlier["min_bank"]
        )

    def allowed(earlier: core.Settings) -> core.Allowed:
        values: dict[str, ParamValue] = {
            key: earlier.get(key) or 0 for key in ("chip_unit", "agreed_stake", "min_bank")
        }
        return "LR_S_MAX_BANK", values

    return core.Setting("max_bank", None, check, allowed)


def settings_table(seat_count: int) -> tuple[core.Setting, ...]:
    """The rows of §1, in order (each row is checked against the rows before it)."""
    return (
        core.fixed_setting("decks", DECKS),
        core.fixed_setting("min_players", MIN_PLAYERS),
        core.int_setting("max_players", seat_count, MIN_PLAYERS, seat_count),  # LR-4.1.3
        core.CHIP_UNIT,
        core.required_chips_setting("reserve_contribution"),  # LR-2.1 C
        core.required_chips_setting("agreed_stake"),  # LR-4.1.1 A
        core.bool_setting("free_opening", False),  # LR-I2
        core.chips_setting("min_bank"),
        _max_bank_setting(),  # LR-I10
        core.chips_setting("min_stake"),
        *core.cagnotte_settings(),  # COM-6.1, LR-I12
    )


@dataclass(frozen=True)
class Config(core.CagnotteRules):
    """The validated settings of the table."""

    seat_count: int
    max_players: int
    chip_unit: int
    reserve_contribution: int
    agreed_stake: int
    free_opening: bool
    min_bank: int
    max_bank: int | None
    min_stake: int

    @classmethod
    def of(cls, settings: Mapping[str, Any], seat_count: int) -> Config:
        return core.typed_rules(cls, settings, seat_count=seat_count)

    def within_max_bank(self, amount: int) -> bool:
        return self.max_bank is None or amount <= self.max_bank
