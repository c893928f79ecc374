"""The rules engine: every game of ``docs/rules/`` as pure Python, standard library only.

A session at a table is a fold over its recorded actions (COM-10.1)::

    game = game_get("chemin_de_fer")
    state = game.start(game.settings_validate({...}, 12), seating)
    state = step(game, state, Action("announce_bank", 1, {"amount": 1000}))
    game.legal_actions(state)      # what the console may offer next
"""

from __future__ import annotations

from tables.engine.actions import Action, ActionSpec
from tables.engine.cards import RANKS, Pack, rank_check
from tables.engine.errors import RuleError
from tables.engine.game import Game, GameState, LegalAction, legal_action_types, step
from tables.engine.money import Chips, cagnotte_levy, split_largest_remainder
from tables.engine.registry import GAME_MODULES, game_get, settings_validate
from tables.engine.settlement import CoupRecord, Transfer, results_of
from tables.engine.table import Actor, Seating, Who

GAMES = tuple(GAME_MODULES)

__all__ = [
    "GAMES",
    "GAME_MODULES",
    "RANKS",
    "Action",
    "ActionSpec",
    "Actor",
    "Chips",
    "CoupRecord",
    "Game",
    "GameState",
    "LegalAction",
    "Pack",
    "RuleError",
    "Seating",
    "Transfer",
    "Who",
    "cagnotte_levy",
    "game_get",
    "legal_action_types",
    "rank_check",
    "results_of",
    "settings_validate",
    "split_largest_remainder",
    "step",
]
