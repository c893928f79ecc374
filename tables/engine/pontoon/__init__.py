"""Pontoon (docs/rules/pontoon.md, rule prefix PT).

``settings`` the settings table, ``state`` the phases, hand values and the immutable state,
``coup`` a coup in play and its settlement, ``legal`` the legal actions and the table screen,
``handlers`` the action handlers and the game.
"""

from __future__ import annotations

from tables.engine.pontoon.handlers import GAME

__all__ = ["GAME"]
