"""Lansquenet moderne: the settings table of §1 (docs/rules/lansquenet-moderne.md), typed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tables.engine.money import Rounding
from tables.engine.settings import (
    CHIP_UNIT,
    Allowed,
    Setting,
    Settings,
    bool_setting,
    cagnotte_settings,
    chips_setting,
    choice_setting,
    fixed_setting,
    int_setting,
    is_int,
)

CODE = "lansquenet_moderne"
TITLE = "lansquenet moderne"


@dataclass(frozen=True)
class Config:
    """The validated table settings of §1, typed."""

    decks: int = 2
    min_players: int = 2
    max_players: int = 12
    chip_unit: int = 1
    min_bank: int = 1
    max_bank: int | None = None
    min_stake: int = 1
    banco_mode: str = "whole"
    standing_completion: bool = True
    abandonment_offers: bool = True
    max_consecutive_purchases: int = 3
    cagnotte_rate_bp: int = 500
    cagnotte_step: int = 1
    cagnotte_rounding: Rounding = "down"


def _min_stake_setting() -> Setting:
    """``min_stake``: a multiple of ``chip_unit`` from ``chip_unit`` to ``min_bank`` (LM-I14)."""

    def check(value: Any, earlier: Settings) -> bool:
        unit: int = earlier["chip_unit"]
        return is_int(value) and unit <= value <= earlier["min_bank"] and value % unit == 0

    def allowed(earlier: Settings) -> Allowed:
        return "LM_S_MIN_STAKE", {"chip_unit": earlier["chip_unit"], "floor": earlier["min_bank"]}

    return Setting("min_stake", lambda earlier: earlier["chip_unit"], check, allowed)


def settings_table(seat_count: int) -> tuple[Setting, ...]:
    """§1, in the order of the table (later rows read earlier ones)."""
    return (
        int_setting("decks", 2, 1, 6),
        fixed_setting("min_players", 2),
        # COM-10.2.1: max_players is at most seat_count.
        int_setting("max_players", seat_count, 2, seat_count),
        CHIP_UNIT,
        chips_setting("min_bank"),
        chips_setting("max_bank", None, nullable=True, at_least="min_bank"),
        _min_stake_setting(),
        choice_setting("banco_mode", "whole", ("whole", "remainder")),
        bool_setting("standing_completion", True),
        bool_setting("abandonment_offers", True),
        fixed_setting("max_consecutive_purchases", 3),
        *cagnotte_settings(),
    )
