"""The simulator's tables recorded through the recording service, for the audit's tests: the
product's `tables.simulated.RecordedTable` (the simulator's strategy and shoe, each action
recorded with `tables.services.record` by the croupier on duty), in a test's transaction, its
state read back from the journal after every action. `rig` lets a test record something else
than the fair deal: a croupier whose results drift.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User

from establishment.models import GamingSession, Player
from tables.engine import Action
from tables.engine.registry import game_get
from tables.engine.simulate.measures import Tallies
from tables.engine.simulate.runner import table_settings
from tables.engine.simulate.strategies import strategy_get
from tables.services.journal import journal_get
from tables.simulated import RecordedTable as SimulatedTable
from tests.scenario_service import ServiceRun, step, table_with_croupier


class RecordedTable(SimulatedTable):
    """A simulated table recorded at `table_session` (`tables.simulated.RecordedTable`), in a
    test's transaction: each action's commit callbacks run as if it had committed (the journal
    cache), and the state the simulator follows is held to the one the journal gives back."""

    def record(self, action: Action) -> None:
        run = ServiceRun(self.table_session, self.croupier, seq=self.seq)
        step(run, action.as_dict())
        self.seq = run.seq

    def apply(self, action: Action) -> tuple[Any, Any, Any] | None:
        settled = super().apply(action)
        assert self.state == journal_get(self.table_session, self.seq).state
        return settled


def recorded_table(
    *,
    game: str,
    gaming_session: GamingSession,
    manager: User,
    croupier: User,
    seed: int,
    prefix: str,
    fresh: bool = False,
    settings: dict[str, Any] | None = None,
) -> RecordedTable:
    """A table of `game` at the simulator's settings opened in `gaming_session` with
    `croupier` on duty, its players (`<prefix>1`, `<prefix>2`, …) registered, ready to play the
    game's default strategy (every coup from a new pack with `fresh`, where the croupier may
    re-form it between coups: docs/odds.md, "First coups"), with `settings` over the
    simulator's own."""
    chosen = strategy_get(game, fresh=fresh)
    players: int = chosen.params["players"]
    seat_count = max(game_get(game).default_seat_count, players)
    scenario = {
        "game": game,
        "settings": table_settings(game, settings, players),
        "seat_count": seat_count,
    }
    table_session = table_with_croupier(scenario, gaming_session, manager, croupier)
    codes = [f"{prefix}{seat}" for seat in range(1, players + 1)]
    for code in codes:
        Player.objects.get_or_create(member_number=code, defaults={"name": f"Player {code}"})
    return RecordedTable(table_session, croupier, chosen, seed, players=codes)


def play(table: RecordedTable, coups: int) -> Tallies:
    """Record `coups` coups at `table`; the simulator's own tallies of them (what the runner
    measures of the coups it plays: `tables.engine.simulate.runner.simulate`)."""
    tallies = Tallies(table.run.measures)
    for _ in range(coups):
        before, after, coup, seen = table.play_coup()
        tallies.add(table.run.observe(before, after, coup, seen))
    return tallies
