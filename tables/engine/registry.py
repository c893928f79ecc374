"""The five games by code (SCENARIOS.md ``game``)."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from tables.engine.errors import RuleError
from tables.engine.game import Game

GAME_MODULES: Mapping[str, str] = {
    "chemin_de_fer": "tables.engine.chemin_de_fer",
    "lansquenet_moderne": "tables.engine.lansquenet_moderne",
    "lansquenet_classique": "tables.engine.lansquenet_classique",
    "landsknecht": "tables.engine.landsknecht",
    "pontoon": "tables.engine.pontoon",
}


def game_get(code: str) -> Game:
    """The game module for ``code``; an unknown game is ``E_SETTING``."""
    module_name = GAME_MODULES.get(code)
    if module_name is None:
        raise RuleError(
            "E_SETTING",
            f"Game {code!r} is not played here; use one of {', '.join(GAME_MODULES)}.",
        )
    game: Game = importlib.import_module(module_name).GAME
    return game


def settings_validate(
    game: str, settings: Mapping[str, Any], seat_count: int | None = None
) -> dict[str, Any]:
    """Validate a table's settings for ``game``: full settings with defaults, or ``E_SETTING``."""
    found = game_get(game)
    return found.settings_validate(
        settings, found.default_seat_count if seat_count is None else seat_count
    )
