"""Table settings, validated by the rules engine against each game's settings table (§1 of the
game files in docs/rules/).

This module is the one bridge between a Table's stored settings and `tables.engine`: the model's
`clean()` and the `table_create` service both call `table_settings_validate`.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from tables.engine import RuleError, game_get, settings_validate
from tables.words import say


def default_seat_count(game: str) -> int:
    """The seat count a table of `game` has unless told otherwise (SCENARIOS.md: 12; pontoon 8)."""
    return game_get(game).default_seat_count


def table_settings_validate(*, game: str, settings: object, seat_count: int) -> dict[str, object]:
    """Return the full settings of a table (defaults filled in) or raise ValidationError.

    The error is keyed by the `settings` field and its message is the engine's words in the
    active language, which name the setting and its allowed range ("Setting decks=9 is outside
    1–8."); `code` is the rules' error code (`E_SETTING`), `params` the values its words name.
    """
    if not isinstance(settings, Mapping) or not all(isinstance(key, str) for key in settings):
        message = _("Settings must be a JSON object of setting names to values.")
        raise ValidationError({"settings": ValidationError(message, code="E_SETTING")})
    try:
        return dict(settings_validate(game, settings, seat_count))
    except RuleError as exc:
        refused = ValidationError(say(exc.code, exc.params), code=exc.code)
        raise ValidationError({"settings": refused}) from exc
