"""Lansquenet classique, with coupeurs and carabins (docs/rules/lansquenet-classique.md, LC).

``settings`` the settings table, ``state`` the phases and the immutable state, ``coup`` a coup in
play and its settlement, ``legal`` the legal actions and the table screen, ``handlers`` the action
handlers and the game.
"""

from __future__ import annotations

from tables.engine.lansquenet_classique.handlers import GAME

__all__ = ["GAME"]
