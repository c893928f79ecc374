"""What every game module provides, and the one way to apply an action (COM-10.1, COM-10.2)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from tables.engine.actions import Action, ActionSpec, shape_check
from tables.engine.settlement import CoupRecord, Transfer
from tables.engine.table import Actor, Seating


@dataclass(frozen=True)
class LegalAction:
    """An action type that would be accepted now, and from whom (the console's buttons)."""

    type: str
    actors: tuple[Actor, ...]


class GameState(Protocol):
    """The immutable state of a session at one table, as every game exposes it."""

    @property
    def seating(self) -> Seating: ...

    @property
    def phase(self) -> str:
        """The state name of the game file (``bank_pending``, …, ``session_ended``)."""
        ...

    @property
    def banker(self) -> str | None:
        """The banker's player id, or None (SCENARIOS.md "banker")."""
        ...

    @property
    def coups(self) -> tuple[CoupRecord, ...]: ...

    @property
    def session_transfers(self) -> tuple[Transfer, ...]: ...


class Game(Protocol):
    """A game module: its settings table, its actions, and the fold over them."""

    code: str
    title: str
    default_seat_count: int
    actions: Mapping[str, ActionSpec]

    def settings_validate(self, raw: Mapping[str, Any], seat_count: int) -> dict[str, Any]:
        """Full settings with defaults, or ``RuleError("E_SETTING")`` (§1 of the game file)."""
        ...

    def start(self, settings: Mapping[str, Any], seating: Seating) -> GameState:
        """The state of a new session at the table (settings already validated)."""
        ...

    def apply(self, state: GameState, action: Action) -> GameState:
        """The next state, or ``RuleError``; ``action`` has passed the shape check."""
        ...

    def legal_actions(self, state: GameState) -> tuple[LegalAction, ...]:
        """Every action type accepted now, with its possible actors (COM-10.1)."""
        ...

    def view(self, state: GameState) -> dict[str, Any]:
        """What the table screen shows, as JSON-ready data (see ``view`` in each module)."""
        ...


def step(game: Game, state: GameState, action: Action) -> GameState:
    """Apply one recorded action: the shape check of COM-10.2 step 1, then the game's own."""
    shape_check(game.actions, action, game.title)
    return game.apply(state, action)


def legal_action_types(game: Game, state: GameState) -> list[str]:
    """The sorted list of action types that ``replay`` prints (SCENARIOS.md)."""
    return sorted({legal.type for legal in game.legal_actions(state)})
