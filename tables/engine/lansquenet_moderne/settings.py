"""Lansquenet moderne: the settings table of §1 (docs/rules/lansquenet-moderne.md), typed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tables.engine import settings as core
from tables.engine.money import Rounding

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
    levy_model: str = "banker_win"
    fee_maximum: int | None = None
    fee_amount: int | None = None
    fee_payer: str = "pontes"
    fee_period_minutes: int = 30
    fee_day_start_hour: int = 12


def _min_stake_setting() -> core.Setting:
    """``min_stake``: a multiple of ``chip_unit`` from ``chip_unit`` to ``min_bank`` (LM-I14)."""

    def check(value: Any, earlier: core.Settings) -> bool:
        unit: int = earlier["chip_unit"]
        return core.is_int(value) and unit <= value <= earlier["min_bank"] and value % unit == 0

    def allowed(earlier: core.Settings) -> core.Allowed:
        return "LM_S_MIN_STAKE", {"chip_unit": earlier["chip_unit"], "floor": earlier["min_bank"]}

    return core.Setting("min_stake", lambda earlier: earlier["chip_unit"], check, allowed)


def settings_table(seat_count: int) -> tuple[core.Setting, ...]:
    """§1, in the order of the table (later rows read earlier ones)."""
    return (
        core.int_setting("decks", 2, 1, 6),
        core.fixed_setting("min_players", 2),
        # COM-10.2.1: max_players is at most seat_count.
        core.int_setting("max_players", seat_count, 2, seat_count),
        core.CHIP_UNIT,
        core.chips_setting("min_bank"),
        core.chips_setting("max_bank", None, nullable=True, at_least="min_bank"),
        _min_stake_setting(),
        core.choice_setting("banco_mode", "whole", ("whole", "remainder")),
        core.bool_setting("standing_completion", True),
        core.bool_setting("abandonment_offers", True),
        core.fixed_setting("max_consecutive_purchases", 3),
        *core.cagnotte_settings(),
    )
