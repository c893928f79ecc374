"""Lansquenet classique: the settings table of §1 (docs/rules/lansquenet-classique.md), typed."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from tables.engine.errors import bad_setting
from tables.engine.money import Rounding
from tables.engine.settings import (
    CHIP_UNIT,
    Setting,
    Settings,
    bool_setting,
    cagnotte_settings,
    chips_setting,
    int_setting,
)

CODE = "lansquenet_classique"
TITLE = "lansquenet classique"
MIN_PLAYERS = 4  # LC-2.3, LC-I16: banker included
MAX_PLAYERS = 12  # LC-2.5

# LC-4.1 the stake on a coupeur card of multiplicity 1, 2, 3 is F, 2F, 4F.
_STAKE_FACTOR = {1: 1, 2: 2, 3: 4}

# -- settings (§1) ----------------------------------------------------------------------------

_SESSION_LIMIT = re.compile(r"(minutes|coups):[1-9][0-9]*")


def _base_stake_required(earlier: Settings) -> int:
    """``base_stake`` has no default (§1): a table that does not set it is ``E_SETTING``."""
    raise bad_setting(
        "base_stake", None, "LC_S_BASE_STAKE", chip_unit=earlier.get("chip_unit") or 1
    )


def _base_stake_default(earlier: Settings) -> int:
    value: int = earlier["base_stake"]
    return value


def _session_limit_ok(value: Any, _: Settings) -> bool:
    if value is None or value == "none":
        return True
    return isinstance(value, str) and _SESSION_LIMIT.fullmatch(value) is not None


SETTINGS_TABLE: tuple[Setting, ...] = (
    int_setting("decks", 1, 1, 1),
    int_setting("min_players", MIN_PLAYERS, MIN_PLAYERS, MIN_PLAYERS),  # LC-I16
    int_setting("max_players", MAX_PLAYERS, MAX_PLAYERS, MAX_PLAYERS),
    CHIP_UNIT,
    replace(chips_setting("base_stake"), default=_base_stake_required),
    chips_setting("carabin_max_stake", _base_stake_default, at_least="base_stake"),  # LC-I8
    bool_setting("sprinkle_on_banker_card", True),  # LC-I6
    *cagnotte_settings(),  # LC-I17, COM-6
    Setting(
        "session_limit",
        None,
        _session_limit_ok,
        lambda _: ("LC_S_SESSION_LIMIT", {}),
    ),
)


@dataclass(frozen=True)
class Config:
    """The settings the rules read, typed."""

    base_stake: int
    chip_unit: int
    carabin_max_stake: int
    sprinkle_on_banker_card: bool
    cagnotte_rate_bp: int
    cagnotte_step: int
    cagnotte_rounding: Rounding
    max_seated: int  # LC-2.5 min(max_players, seat_count)

    def stake(self, multiplicity: int) -> int:
        return self.base_stake * _STAKE_FACTOR[multiplicity]
