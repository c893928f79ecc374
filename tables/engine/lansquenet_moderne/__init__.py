"""Lansquenet moderne (docs/rules/lansquenet-moderne.md, rule prefix LM).

``settings`` the settings table, ``state`` the states and the immutable state, ``coup`` a coup in
play and its settlement, ``legal`` the legal actions and the table screen, ``handlers`` the action
handlers and the game.
"""

from __future__ import annotations

from tables.engine.lansquenet_moderne.handlers import GAME

__all__ = ["GAME"]
