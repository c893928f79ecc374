"""Table settings: declared per game in the order of its §1 table, validated once (COM-0.4).

A setting not in the game's table, of the wrong type (a boolean or a fraction for an integer, a
string for a boolean) or outside its range is refused with ``E_SETTING``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tables.engine.errors import RuleError, bad_setting

Settings = Mapping[str, Any]
Default = Any | Callable[[Settings], Any]


def is_int(value: object) -> bool:
    """An integer, and not a boolean (``True`` is an ``int`` in Python)."""
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class Setting:
    """One row of a game's settings table.

    ``check(value, earlier)`` says whether ``value`` is allowed given the settings validated
    before it; ``allowed(earlier)`` words the range for the ``E_SETTING`` message.
    """

    name: str
    default: Default
    check: Callable[[Any, Settings], bool]
    allowed: Callable[[Settings], str]

    def default_for(self, earlier: Settings) -> Any:
        return self.default(earlier) if callable(self.default) else self.default


def int_setting(name: str, default: Default, minimum: int, maximum: int | None = None) -> Setting:
    """An integer in ``minimum..maximum`` (a fixed setting has ``minimum == maximum``)."""

    def check(value: Any, _: Settings) -> bool:
        return is_int(value) and value >= minimum and (maximum is None or value <= maximum)

    def allowed(_: Settings) -> str:
        if maximum is None:
            return f"integers ≥ {minimum}"
        if maximum == minimum:
            return f"{minimum} (fixed)"
        return f"{minimum}–{maximum}"

    return Setting(name, default, check, allowed)


def chip_unit_default(earlier: Settings) -> int:
    unit: int = earlier["chip_unit"]
    return unit


def chips_setting(
    name: str,
    default: Default = chip_unit_default,
    *,
    nullable: bool = False,
    at_least: str | None = None,
) -> Setting:
    """A positive multiple of ``chip_unit``; ``None`` too if ``nullable`` ("none" = no limit).

    ``at_least`` names an earlier setting this one may not be below (``max_stake ≥ min_stake``).
    """

    def check(value: Any, earlier: Settings) -> bool:
        if value is None:
            return nullable
        unit: int = earlier["chip_unit"]
        if not is_int(value) or value <= 0 or value % unit != 0:
            return False
        floor = earlier.get(at_least) if at_least else None
        return floor is None or value >= floor

    def allowed(earlier: Settings) -> str:
        text = f"positive multiples of the chip unit {earlier.get('chip_unit')}"
        if at_least and earlier.get(at_least) is not None:
            text += f" not below {at_least}={earlier[at_least]}"
        return f"none or {text}" if nullable else text

    return Setting(name, default, check, allowed)


def bool_setting(name: str, default: bool) -> Setting:
    return Setting(
        name, default, lambda value, _: isinstance(value, bool), lambda _: "true or false"
    )


def choice_setting(name: str, default: str, choices: Sequence[str]) -> Setting:
    return Setting(
        name,
        default,
        lambda value, _: isinstance(value, str) and value in choices,
        lambda _: " or ".join(choices),
    )


def cagnotte_settings() -> tuple[Setting, ...]:
    """COM-6.1 and COM-6.3: the levy settings every game's table ends with."""
    return (
        int_setting("cagnotte_rate_bp", 500, 0, 10000),
        chips_setting("cagnotte_step"),
        choice_setting("cagnotte_rounding", "down", ("down", "nearest")),
    )


CHIP_UNIT = int_setting("chip_unit", 1, 1)


def settings_check(table: Sequence[Setting], raw: Mapping[str, Any]) -> dict[str, Any]:
    """Validate ``raw`` against ``table``: every value checked, every missing one defaulted."""
    if not isinstance(raw, Mapping):
        raise RuleError("E_SETTING", "Settings must be an object of setting names and values.")
    known = {setting.name for setting in table}
    for name in raw:
        if name not in known:
            raise RuleError(
                "E_SETTING",
                f"Setting {name} does not exist for this game; known: {', '.join(sorted(known))}.",
            )
    result: dict[str, Any] = {}
    for setting in table:
        if setting.name in raw:
            value = raw[setting.name]
            if not setting.check(value, result):
                raise bad_setting(setting.name, value, setting.allowed(result))
        else:
            value = setting.default_for(result)
        result[setting.name] = value
    return result
