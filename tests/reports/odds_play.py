"""The simulator's tables recorded through the recording service, for the audit's tests.

`RecordedTable` is the simulator's own table (`tables.engine.simulate.runner.Table`): the same
strategy decides every action and the same shoe deals the cards (docs/odds.md, "How it plays"),
but each action is recorded with `tables.services.record` at a real table session, by the
croupier on duty, and the state is read back from the journal, so that the coups the audit reads
are recorded coups. `rig` lets a test record something else than the fair deal: a croupier whose
results drift.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.models import User

from establishment.models import GamingSession, Player
from tables.engine import Action
from tables.engine.registry import game_get
from tables.engine.settlement import CROUPIER
from tables.engine.simulate.measures import Tallies
from tables.engine.simulate.runner import GAME_RUNS, Table, table_settings
from tables.engine.simulate.strategies import Strategy, strategy_get
from tables.models import TableSession
from tables.services.journal import journal_get, last_seq_get
from tests.scenario_service import ServiceRun, step, table_with_croupier

Rig = Callable[[Any, Action], Action]


def fair(state: Any, action: Action) -> Action:
    return action


class RecordedTable(Table):
    """A simulated table whose every action is recorded at `table_session` by `croupier`."""

    def __init__(
        self,
        table_session: TableSession,
        croupier: User,
        strategy: Strategy,
        seed: int,
        *,
        players: list[str],
        rig: Rig = fair,
    ) -> None:
        self.table_session = table_session
        self.croupier = croupier
        self.codes = players
        self.rig = rig
        game = game_get(table_session.game)
        super().__init__(game, GAME_RUNS[game.code], strategy, table_session.settings, seed)

    def open(self) -> None:
        """The table as it opened (no one seated), then every player sits down, seat 1 first."""
        ts = self.table_session
        self.recording = ServiceRun(ts, self.croupier, seq=last_seq_get(ts))
        self.state = journal_get(ts, self.recording.seq).state
        self._reform()
        for seat, code in enumerate(self.codes, start=1):
            self.apply(Action("sit", CROUPIER, {"player": code, "seat": seat}))

    def apply(self, action: Action) -> tuple[Any, Any, Any] | None:
        """Record `action` at the table; then follow it as the simulator does (the same fold),
        holding the table's state to the one its journal gives back."""
        action = self.rig(self.state, action)
        step(self.recording, action.as_dict())
        settled = super().apply(action)
        assert self.state == journal_get(self.table_session, self.recording.seq).state
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
