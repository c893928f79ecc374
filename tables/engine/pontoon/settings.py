"""Pontoon (PT): the settings table of PT-1 and the typed rules a session plays by."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tables.engine import settings as core

CODE = "pontoon"
TITLE = "Pontoon"
DEFAULT_SEAT_COUNT = 8
MIN_PLAYERS = 2  # PT-1 "de deux à huit joueurs", banker included
MAX_PLAYERS = 8
DECKS = 1  # PT-3.1 one 52-card deck

# -- settings (PT-1) ---------------------------------------------------------------------------

SETTINGS: tuple[core.Setting, ...] = (
    core.fixed_setting("decks", DECKS),
    core.fixed_setting("min_players", MIN_PLAYERS),
    core.fixed_setting("max_players", MAX_PLAYERS),
    core.CHIP_UNIT,
    core.chips_setting("min_stake"),
    core.chips_setting("max_stake", None, nullable=True, at_least="min_stake"),
    core.int_setting("buy_max_multiple", 1, 1),  # PT-I2
    core.bool_setting("banker_special_collects_double", False),  # PT-I5
    *core.cagnotte_settings(),  # COM-6.1, COM-6.3, PT-I14
)


@dataclass(frozen=True)
class Rules(core.CagnotteRules):
    """The validated settings a session plays by (PT-1)."""

    chip_unit: int
    min_stake: int
    max_stake: int | None
    buy_max_multiple: int
    collects_double: bool
    max_seated: int  # PT-1.2 min(max_players, seat_count)

    @classmethod
    def of(cls, settings: Mapping[str, Any], seat_count: int) -> Rules:
        return core.typed_rules(
            cls,
            settings,
            collects_double=settings["banker_special_collects_double"],
            max_seated=min(settings["max_players"], seat_count),  # PT-1.2
        )
