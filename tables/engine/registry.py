"""The five games by code (SCENARIOS.md ``game``): the one list of the games played here.

Each game is the ``GAME`` of its package, ``tables.engine.<code>``, and declares what the rest
of the product reads of it (``tables.engine.game.Game``); what the product needs of all the games
together is derived here from that list: the choices of a table's game, the states where a coup
can start (COM-3.8), the actions that bring a new pack or shoe (COM-2.1).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tables.engine.chemin_de_fer import GAME as CHEMIN_DE_FER
from tables.engine.errors import bad_setting
from tables.engine.game import Game
from tables.engine.landsknecht import GAME as LANDSKNECHT
from tables.engine.lansquenet_classique import GAME as LANSQUENET_CLASSIQUE
from tables.engine.lansquenet_moderne import GAME as LANSQUENET_MODERNE
from tables.engine.pontoon import GAME as PONTOON

# The games, in the order the product lists them.
GAME_LIST: tuple[Game, ...] = (
    CHEMIN_DE_FER,
    LANSQUENET_MODERNE,
    LANSQUENET_CLASSIQUE,
    LANDSKNECHT,
    PONTOON,
)
_BY_CODE: Mapping[str, Game] = {game.code: game for game in GAME_LIST}

# Each game's package, by code.
GAME_MODULES: Mapping[str, str] = {code: f"tables.engine.{code}" for code in _BY_CODE}

# ``(code, label)`` of every game: the choices of a table's game.
GAME_CHOICES: tuple[tuple[str, str], ...] = tuple((game.code, game.label) for game in GAME_LIST)

# COM-3.8 the states where a new coup can start, in any game (``bank_pending``, ``coup_start``).
COUP_START_PHASES: frozenset[str] = frozenset(
    phase for game in GAME_LIST for phase in game.coup_start_phases
)

# COM-2.1 the actions that form a new pack or shoe, in any game (``new_shoe``, ``shuffle_pack``).
NEW_PACK_ACTIONS: frozenset[str] = frozenset(
    action for game in GAME_LIST for action in game.new_pack_actions
)


def game_get(code: str) -> Game:
    """The game of ``code``; an unknown game is ``E_SETTING``."""
    game = _BY_CODE.get(code)
    if game is None:
        raise bad_setting("game", code, "S_CHOICE", choices=list(GAME_MODULES))
    return game


def settings_validate(
    game: str, settings: Mapping[str, Any], seat_count: int | None = None
) -> dict[str, Any]:
    """Validate a table's settings for ``game``: full settings with defaults, or ``E_SETTING``."""
    found = game_get(game)
    return found.settings_validate(
        settings, found.default_seat_count if seat_count is None else seat_count
    )
