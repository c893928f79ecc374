"""Lansquenet classique: the settings table of §1 (docs/rules/lansquenet-classique.md), typed."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tables.engine import settings as core

CODE = "lansquenet_classique"
TITLE = "lansquenet classique"
MIN_PLAYERS = 4  # LC-2.3, LC-I16: banker included
MAX_PLAYERS = 12  # LC-2.5

# LC-4.1 the stake on a coupeur card of multiplicity 1, 2, 3 is F, 2F, 4F.
_STAKE_FACTOR = {1: 1, 2: 2, 3: 4}

# -- settings (§1) ----------------------------------------------------------------------------

_SESSION_LIMIT = re.compile(r"(minutes|coups):[1-9][0-9]*")


def _base_stake_default(earlier: core.Settings) -> int:
    value: int = earlier["base_stake"]
    return value


def _session_limit_ok(value: Any, _: core.Settings) -> bool:
    if value is None or value == "none":
        return True
    return isinstance(value, str) and _SESSION_LIMIT.fullmatch(value) is not None


SETTINGS_TABLE: tuple[core.Setting, ...] = (
    core.fixed_setting("decks", 1),
    core.fixed_setting("min_players", MIN_PLAYERS),  # LC-I16
    core.fixed_setting("max_players", MAX_PLAYERS),
    core.CHIP_UNIT,
    core.required_chips_setting("base_stake", "LC_S_BASE_STAKE"),  # §1 no default
    core.chips_setting("carabin_max_stake", _base_stake_default, at_least="base_stake"),  # LC-I8
    core.bool_setting("sprinkle_on_banker_card", True),  # LC-I6
    *core.cagnotte_settings(),  # LC-I17, COM-6
    core.Setting(
        "session_limit",
        None,
        _session_limit_ok,
        lambda _: ("LC_S_SESSION_LIMIT", {}),
    ),
)


@dataclass(frozen=True)
class Config(core.CagnotteRules):
    """The settings the rules read, typed."""

    base_stake: int
    chip_unit: int
    carabin_max_stake: int
    sprinkle_on_banker_card: bool
    max_seated: int  # LC-2.5 min(max_players, seat_count)

    @classmethod
    def of(cls, settings: Mapping[str, Any], seat_count: int) -> Config:
        # LC-2.5 min(max_players, seat_count)
        return core.typed_rules(cls, settings, max_seated=min(settings["max_players"], seat_count))

    def stake(self, multiplicity: int) -> int:
        return self.base_stake * _STAKE_FACTOR[multiplicity]
