"""The engine's words in the language of the request: its codes as the croupier reads them.

The engine speaks in codes and parameters (`RuleError.code` and `.params`, the `expected` of a
table's view); `tables.engine.words` turns them into words from the catalogue `locale/*/
LC_MESSAGES/engine.po`. Here the language is the one Django has activated for the request
(LocaleMiddleware: the user's choice, else `Accept-Language`), and the players' ids may be
replaced by their names.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.translation import get_language

from tables.engine.words import PERSON_PARAMS, Value, label, language_of, words


def language() -> str:
    """The catalogue's language for the active one: its first two letters, else English."""
    return language_of(get_language())


def _named(value: Value, names: Mapping[str, str]) -> Value:
    if isinstance(value, list):
        return [names.get(item, item) for item in value]
    if isinstance(value, str):
        return names.get(value, value)
    return value


def say(
    code: str,
    params: Mapping[str, Value] | None = None,
    names: Mapping[str, str] | None = None,
    *,
    game: str | None = None,
) -> str:
    """The words of `code` with `params`, in the active language; the players named by
    `names` (player id -> name) are shown by name, the actions and states in `game`'s words."""
    values = dict(params or {})
    if names:
        for key in PERSON_PARAMS & values.keys():
            values[key] = _named(values[key], names)
    return words(code, values, language(), game=game)


def say_label(key: str, **values: str | int) -> str | None:
    """A label of the catalogue (`action.sit`, `phase.bank_pending` …) in the active language,
    or None when the catalogue has none."""
    return label(key, language(), **values)


def table_word(family: str, code: str | None, game: str | None = None) -> str:
    """The table's word for one of the engine's codes (`[<game>.]<family>.<code>`: the game's
    own word first, then the one every game shares); a code without one, in plain letters; no
    code, nothing."""
    if not code:
        return ""
    if game:
        found = say_label(f"{game}.{family}.{code}")
        if found is not None:
            return found
    found = say_label(f"{family}.{code}")
    return code.replace("_", " ") if found is None else found


def chips_text(amount: object) -> str:
    """An amount of chips as the screens write it everywhere: thousands apart by a narrow
    no-break space, in both languages ("12 500"); anything else as it is."""
    if isinstance(amount, int) and not isinstance(amount, bool):
        return f"{amount:,}".replace(",", "\u202f")
    return "" if amount is None else str(amount)


def _percent(rate_bp: int) -> str:
    """Basis points as a percentage, in integers (COM-5.1): 500 -> "5", 125 -> "1.25"."""
    whole, part = divmod(rate_bp, 100)
    return f"{whole}.{part:02d}".rstrip("0").rstrip(".") if part else str(whole)


# The settings `levy_text` reads: how the house is paid at a table (docs/rules/levy.md, LV-1).
LEVY_SETTINGS = (
    "levy_model",
    "cagnotte_rate_bp",
    "fee_amount",
    "fee_payer",
    "fee_period_minutes",
    "fee_day_start_hour",
)


def levy_text(settings: Mapping[str, object]) -> str:
    """How the house is paid at a table of ``settings``, in the table's words (LV-1): "5 % of
    the banker's win", "300 a player a day from 12:00"."""
    model = str(settings.get("levy_model") or "banker_win")
    key = f"levy.{model}"
    if model == "coup_fee" and settings.get("fee_payer") == "banker":
        key += ".banker"
    rate = settings.get("cagnotte_rate_bp")
    fee = settings.get("fee_amount")
    text = label(
        key,
        language(),
        rate=_percent(rate if isinstance(rate, int) else 0),
        fee=chips_text(fee) if isinstance(fee, int) else "—",
        minutes=str(settings.get("fee_period_minutes", "")),
        hour=str(settings.get("fee_day_start_hour", "")),
    )
    return text or model
