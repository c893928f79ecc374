"""The simulator and the games' exact expected values (docs/odds.md).

``simulate`` (``runner``) plays ``N`` coups of a game by a documented strategy (``strategies``;
its decisions in ``players``) through the engine's own ``step``, as ``record`` does, and gives
the observed frequencies with their standard errors (``measures``); ``exact_values`` gives what
the project knows exactly for a table's settings and a strategy (``exact``): closed forms,
enumerations, recursions, or a stored simulation. Standard library only, like the rest of the
engine.
"""

from __future__ import annotations

from tables.engine.simulate.runner import Simulation, simulate
from tables.engine.simulate.strategies import GAME_PLAY, Strategy, StrategyError, strategy_get

__all__ = ["GAME_PLAY", "Simulation", "Strategy", "StrategyError", "simulate", "strategy_get"]
