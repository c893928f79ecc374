"""The simulator's tables recorded through the recording service (docs/odds.md, "How it plays").

`RecordedTable` is the simulator's own table (`tables.engine.simulate.runner.Table`): the same
strategy decides every action and the same shoe deals the cards, but each action is recorded
with `tables.services.record` at a real table session, by the croupier on duty, so that what it
plays is recorded play: journal lines, coups, the books. The demo's nights are played so, and the
audit's tests record their tables so. `rig` lets a caller record something else than the fair
deal (a croupier whose results drift); `tick` is called after each recorded action (the demo's
clock moves on).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tables.engine import Action
from tables.engine.registry import game_get
from tables.engine.settlement import CROUPIER, CoupRecord
from tables.engine.simulate.runner import GAME_RUNS, Table
from tables.engine.simulate.strategies import Strategy
from tables.models import TableSession
from tables.services import record
from tables.services.journal import journal_get, last_seq_get

if TYPE_CHECKING:
    from django.contrib.auth.models import User

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
        tick: Callable[[], None] | None = None,
        client: str = "simulator",
    ) -> None:
        self.table_session = table_session
        self.croupier = croupier
        self.codes = players
        self.rig = rig
        self.tick = tick
        self.client = client
        self.seq = 0
        game = game_get(table_session.game)
        super().__init__(game, GAME_RUNS[game.code], strategy, table_session.settings, seed)

    def open(self) -> None:
        """The table as it stands (seated at its opening or not), then every player of
        `players` not seated yet sits down, at the first free seat."""
        ts = self.table_session
        self.seq = last_seq_get(ts)
        self.state = journal_get(ts, self.seq).state
        self._reform()
        seated = dict(self.state.seating.seats)
        free = (seat for seat in range(1, ts.seat_count + 1) if seat not in seated)
        for code in self.codes:
            if code not in seated.values():
                self.apply(Action("sit", CROUPIER, {"player": code, "seat": next(free)}))

    def record(self, action: Action) -> None:
        """Record `action` at the table, by its croupier, as his screen would."""
        done = record(
            table_session=self.table_session,
            action=action.as_dict(),
            expected_seq=self.seq + 1,
            user=self.croupier,
            idempotency_key=str(uuid.uuid4()),
            client=self.client,
        )
        self.seq = done.seq
        if self.tick is not None:
            self.tick()

    def apply(self, action: Action) -> tuple[Any, Any, CoupRecord] | None:
        """Record `action`; then follow it as the simulator does (the same fold)."""
        action = self.rig(self.state, action)
        self.record(action)
        return super().apply(action)
