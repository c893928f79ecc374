"""The actor checks every game makes of a recorded action: COM-10.2 step 3.

Step 3 first resolves the actor against the table (``E_NO_SUCH_SEAT``, ``E_NOT_PRESENT``), then
asks whether that actor may perform the action at all (``E_NOT_ELIGIBLE``). A game's own checks
(a seated player with the game's reasons, a carabin, an offeree in turn) stay in its ``legal``.
"""

from __future__ import annotations

from typing import Protocol

from tables.engine.actions import Action
from tables.engine.table import Seating, Who


class AtTable(Protocol):
    """What the actor checks read of a game's state."""

    @property
    def seating(self) -> Seating: ...

    @property
    def banker(self) -> str | None: ...


def acting(state: AtTable, action: Action) -> Who:
    """COM-10.2 step 3, first half: the actor is at the table (E_NO_SUCH_SEAT, E_NOT_PRESENT)."""
    return state.seating.resolve(action.actor)


def croupier_only(state: AtTable, action: Action) -> Who:
    """COM-10.2 step 3: cards, calls and session actions are recorded by the croupier (COM-3.7)."""
    return acting(state, action).require_croupier(action.type, "R_CROUPIER_ONLY")


def banker_only(state: AtTable, action: Action) -> Who:
    """COM-10.2 step 3: a banker's decision (E_NOT_ELIGIBLE for anybody else)."""
    return acting(state, action).require_banker(action.type, state.banker, "R_BANKER_ONLY")
