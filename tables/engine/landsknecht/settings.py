"""Landsknecht: the settings table of §1 (docs/rules/landsknecht-russe.md), typed."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tables.engine.errors import ParamValue
from tables.engine.money import Rounding, is_whole_chips
from tables.engine.settings import (
    CHIP_UNIT,
    Allowed,
    Setting,
    Settings,
    bool_setting,
    cagnotte_settings,
    chips_setting,
    fixed_setting,
    int_setting,
    required_chips_setting,
    typed_rules,
)

CODE = "landsknecht"
TITLE = "landsknecht"
DECKS = 2  # LR-3.1 two full decks shuffled together
MIN_PLAYERS = 2  # §1 a banker and a ponter

# -- settings (§1) ---------------------------------------------------------------------------


def _max_bank_setting() -> Setting:
    """``max_bank``: none, or a multiple of ``chip_unit`` ≥ ``A`` and ≥ ``min_bank`` (LR-I10)."""

    def check(value: Any, earlier: Settings) -> bool:
        if value is None:
            return True
        return (
            is_whole_chips(value, earlier["chip_unit"])
            and value >= earlier["agreed_stake"]
            and value >= earlier["min_bank"]
        )

    def allowed(earlier: Settings) -> Allowed:
        values: dict[str, ParamValue] = {
            key: earlier.get(key) or 0 for key in ("chip_unit", "agreed_stake", "min_bank")
        }
        return "LR_S_MAX_BANK", values

    return Setting("max_bank", None, check, allowed)


def settings_table(seat_count: int) -> tuple[Setting, ...]:
    """The rows of §1, in order (each row is checked against the rows before it)."""
    return (
        fixed_setting("decks", DECKS),
        fixed_setting("min_players", MIN_PLAYERS),
        int_setting("max_players", seat_count, MIN_PLAYERS, seat_count),  # LR-4.1.3
        CHIP_UNIT,
        required_chips_setting("reserve_contribution"),  # LR-2.1 C
        required_chips_setting("agreed_stake"),  # LR-4.1.1 A
        bool_setting("free_opening", False),  # LR-I2
        chips_setting("min_bank"),
        _max_bank_setting(),  # LR-I10
        chips_setting("min_stake"),
        *cagnotte_settings(),  # COM-6.1, LR-I12
    )


@dataclass(frozen=True)
class Config:
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
    cagnotte_rate_bp: int
    cagnotte_step: int
    cagnotte_rounding: Rounding

    @classmethod
    def of(cls, settings: Mapping[str, Any], seat_count: int) -> Config:
        return typed_rules(cls, settings, seat_count=seat_count)

    def within_max_bank(self, amount: int) -> bool:
        return self.max_bank is None or amount <= self.max_bank
