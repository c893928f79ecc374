"""Table settings: declared per game in the order of its §1 table, validated once (COM-0.4).

A setting not in the game's table, of the wrong type (a boolean or a fraction for an integer, a
string for a boolean) or outside its range is refused with ``E_SETTING``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import Field, dataclass, fields
from typing import Any, ClassVar, Protocol, TypeVar

from tables.engine.errors import ParamValue, bad_setting
from tables.engine.money import (
    BANKER_WIN,
    FEE_MODELS,
    FEE_PAYERS,
    LEVY_MODELS,
    NEAREST,
    Rounding,
)

Settings = Mapping[str, Any]
Default = Any | Callable[[Settings], Any]
# The values a setting allows: a code of the catalogue (``S_*``) and the values it names.
Allowed = tuple[str, dict[str, ParamValue]]


def is_int(value: object) -> bool:
    """An integer, and not a boolean (``True`` is an ``int`` in Python)."""
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class Setting:
    """One row of a game's settings table.

    ``check(value, earlier)`` says whether ``value`` is allowed given the settings validated
    before it; ``allowed(earlier)`` gives the range as ``E_SETTING``'s ``allowed`` code and its
    values.
    """

    name: str
    default: Default
    check: Callable[[Any, Settings], bool]
    allowed: Callable[[Settings], Allowed]

    def default_for(self, earlier: Settings) -> Any:
        return self.default(earlier) if callable(self.default) else self.default


def int_setting(name: str, default: Default, minimum: int, maximum: int | None = None) -> Setting:
    """An integer in ``minimum..maximum`` (a fixed setting has ``minimum == maximum``)."""

    def check(value: Any, _: Settings) -> bool:
        return is_int(value) and value >= minimum and (maximum is None or value <= maximum)

    def allowed(_: Settings) -> Allowed:
        if maximum is None:
            return "S_AT_LEAST", {"minimum": minimum}
        if maximum == minimum:
            return "S_FIXED", {"minimum": minimum}
        return "S_RANGE", {"minimum": minimum, "maximum": maximum}

    return Setting(name, default, check, allowed)


def fixed_setting(name: str, value: int) -> Setting:
    """An integer a table may only confirm at ``value`` (``S_FIXED``)."""
    return int_setting(name, value, value, value)


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

    def allowed(earlier: Settings) -> Allowed:
        return chips_allowed(earlier, nullable=nullable, at_least=at_least)

    return Setting(name, default, check, allowed)


def required_chips_setting(name: str, missing: str = "S_REQUIRED_CHIPS") -> Setting:
    """A positive multiple of ``chip_unit`` with no default: a table that does not set it is
    ``E_SETTING`` with the code ``missing``, naming the chip unit."""

    def default(earlier: Settings) -> Any:
        raise bad_setting(name, None, missing, chip_unit=earlier.get("chip_unit") or 1)

    base = chips_setting(name)
    return Setting(name, default, base.check, base.allowed)


def chips_allowed(
    earlier: Settings, *, nullable: bool = False, at_least: str | None = None
) -> Allowed:
    """Positive multiples of the chip unit (``S_CHIPS``), perhaps not below an earlier setting
    (``S_CHIPS_NOT_BELOW``), perhaps none (``S_NONE_OR_…``)."""
    params: dict[str, ParamValue] = {"chip_unit": earlier.get("chip_unit") or 1}
    code = "S_CHIPS"
    if at_least and earlier.get(at_least) is not None:
        code = "S_CHIPS_NOT_BELOW"
        params |= {"floor_name": at_least, "floor": earlier[at_least]}
    return ("S_NONE_OR_" + code[2:] if nullable else code), params


def bool_setting(name: str, default: bool) -> Setting:
    return Setting(
        name, default, lambda value, _: isinstance(value, bool), lambda _: ("S_BOOL", {})
    )


def choice_setting(name: str, default: str, choices: Sequence[str]) -> Setting:
    return Setting(
        name,
        default,
        lambda value, _: isinstance(value, str) and value in choices,
        lambda _: ("S_CHOICE", {"choices": list(choices)}),
    )


def _fee_amount_setting() -> Setting:
    """LV-2 ``fee_amount``: a positive multiple of ``chip_unit`` that a fee model must set,
    never above ``fee_maximum`` when there is one (a statutory cap, LV-4)."""

    def check(value: Any, earlier: Settings) -> bool:
        if value is None:
            return earlier["levy_model"] not in FEE_MODELS
        unit: int = earlier["chip_unit"]
        if not is_int(value) or value <= 0 or value % unit != 0:
            return False
        cap = earlier.get("fee_maximum")
        return cap is None or value <= cap

    def allowed(earlier: Settings) -> Allowed:
        unit = earlier.get("chip_unit") or 1
        cap = earlier.get("fee_maximum")
        if cap is not None:
            return "S_FEE_AT_MOST", {"chip_unit": unit, "maximum": cap}
        if earlier["levy_model"] in FEE_MODELS:
            return "S_FEE_REQUIRED", {"chip_unit": unit, "model": earlier["levy_model"]}
        return "S_NONE_OR_CHIPS", {"chip_unit": unit}

    def default(earlier: Settings) -> None:
        if earlier["levy_model"] in FEE_MODELS:
            code, values = allowed(earlier)
            raise bad_setting("fee_amount", None, code, **values)
        return

    return Setting("fee_amount", default, check, allowed)


def cagnotte_settings() -> tuple[Setting, ...]:
    """COM-6.1, COM-6.3 and LV-1 to LV-4: the levy settings every game's table ends with."""
    return (
        int_setting("cagnotte_rate_bp", 500, 0, 10000),
        chips_setting("cagnotte_step"),
        choice_setting("cagnotte_rounding", "down", ("down", *NEAREST)),
        choice_setting("levy_model", BANKER_WIN, LEVY_MODELS),
        chips_setting("fee_maximum", None, nullable=True),
        _fee_amount_setting(),
        choice_setting("fee_payer", "pontes", FEE_PAYERS),
        int_setting("fee_period_minutes", 30, 1, 1440),
        int_setting("fee_day_start_hour", 12, 0, 23),
    )


@dataclass(frozen=True)
class CagnotteRules:
    """The typed levy settings of ``cagnotte_settings`` (COM-6.1, COM-6.3, LV-1), which a
    game's typed rules inherit: its own fields come after these."""

    cagnotte_rate_bp: int
    cagnotte_step: int
    cagnotte_rounding: Rounding
    levy_model: str
    fee_maximum: int | None
    fee_amount: int | None
    fee_payer: str
    fee_period_minutes: int
    fee_day_start_hour: int


class _Dataclass(Protocol):
    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]


_Rules = TypeVar("_Rules", bound=_Dataclass)


def typed_rules(kind: type[_Rules], settings: Settings, **derived: Any) -> _Rules:
    """A game's typed rules (the dataclass ``kind``) from its validated settings: each field
    from the setting of its name, but those the game derives itself, given in ``derived``."""
    given = {
        field.name: settings[field.name] for field in fields(kind) if field.name not in derived
    }
    return kind(**given, **derived)


CHIP_UNIT = int_setting("chip_unit", 1, 1)


def seat_count_check(seat_count: int, minimum: int) -> None:
    """COM-10.2.1 a table of fewer than ``minimum`` seats can never play: ``E_SETTING``."""
    if not is_int(seat_count) or seat_count < minimum:
        raise bad_setting("seat_count", seat_count, "S_AT_LEAST", minimum=minimum)


def settings_check(table: Sequence[Setting], raw: Mapping[str, Any]) -> dict[str, Any]:
    """Validate ``raw`` against ``table``: every value checked, every missing one defaulted."""
    if not isinstance(raw, Mapping):
        raise bad_setting("settings", raw, "S_OBJECT")
    known = {setting.name for setting in table}
    for name in raw:
        if name not in known:
            raise bad_setting(str(name), raw[name], "S_KNOWN", known=sorted(known))
    result: dict[str, Any] = {}
    for setting in table:
        if setting.name in raw:
            value = raw[setting.name]
            if not setting.check(value, result):
                allowed, values = setting.allowed(result)
                raise bad_setting(setting.name, value, allowed, **values)
        else:
            value = setting.default_for(result)
        result[setting.name] = value
    return result
