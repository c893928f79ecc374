"""The table's journal replayed through the engine: the one way to know where a table stands.

A table session's state is the fold of its effective actions — the `ACTION` events that no
undo or void has set aside — over the engine (COM-10.1). Events are append-only and numbered,
so the state after event `n` never changes: it is cached by `(table session, n)` and a new
action is applied to the cached state instead of replaying the whole night again.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.db import connection, transaction

from tables.engine import Action, Game, GameState, Seating, game_get, step
from tables.engine.registry import COUP_START_PHASES, NEW_PACK_ACTIONS
from tables.models import EventKind, TableEvent, TableSession
from tables.sql import events_after_sql, events_converted

# Session actions of COM-3.8 that seat or unseat people; they stay when a coup is voided.
SEATING_ACTIONS = frozenset({"sit", "leave", "add_standing", "set_first_banker"})
# A new shoe or pack formed between coups (CF-3, LM-3.3; each game's `new_pack_actions`) is no
# part of the next coup: voiding the coup leaves the shoe in the sabot. (A pack shuffled during a
# coup, LM-3.4, comes after the coup's first action and goes with the coup.)
BETWEEN_COUPS = SEATING_ACTIONS | NEW_PACK_ACTIONS


@dataclass(frozen=True)
class Journal:
    """Where a table session stands after its last event.

    `pending` lists the effective actions recorded since the last coup was settled and done
    with (money moved, then the table is back where a new coup can start), as `(seq, type)`:
    the actions of the coup in progress, which a void of the open coup can set aside, and from
    which a settling coup's first action is read.
    """

    game: Game
    state: GameState
    last_seq: int
    interrupted: bool
    pending: tuple[tuple[int, str], ...]

    def first_coup_action(self, settling_seq: int) -> int:
        """The first action of the coup being settled: seating actions and a new shoe before
        it don't count."""
        for seq, action_type in self.pending:
            if action_type not in BETWEEN_COUPS:
                return seq
        return settling_seq

    def open_coup_actions(self) -> list[int]:
        """The actions of the coup in progress, which a void of the open coup sets aside: from
        its first action on, but the seating actions."""
        first = self.first_coup_action(0)
        if first == 0:
            return []
        return [s for s, t in self.pending if s >= first and t not in SEATING_ACTIONS]


def money_moved(before: GameState, after: GameState) -> bool:
    """True when `after` settled a coup, added to a coup's transfers or moved session money."""
    if len(after.coups) != len(before.coups):
        return True
    if len(after.session_transfers) != len(before.session_transfers):
        return True
    return bool(after.coups) and after.coups[-1].transfers != before.coups[-1].transfers


def coup_can_start(state: GameState) -> bool:
    """A state where a new coup can start, where `sit`, `leave` and `end_session` are accepted
    (COM-3.8): `bank_pending` (LM, LR, CF) or `coup_start` (LC, PT), the union of the games'
    `coup_start_phases` (tables.engine.registry)."""
    return state.phase in COUP_START_PHASES


def opening_seating(table_session: TableSession, opening: Mapping[str, Any] | None) -> Seating:
    """The seating the table opened with (the `OPEN` event), else an empty table."""
    if not opening:
        return Seating(table_session.seat_count)
    seats = tuple(sorted((int(seat), str(code)) for seat, code in opening["seats"].items()))
    return Seating(table_session.seat_count, seats, tuple(opening.get("standing", [])))


def engine_start(
    table_session: TableSession, opening: Mapping[str, Any] | None = None
) -> tuple[Game, GameState]:
    """The engine's state when the table opened (COM-10.1 setup): settings and seating."""
    game = game_get(table_session.game)
    return game, game.start(table_session.settings, opening_seating(table_session, opening))


def journal_advance(journal: Journal, seq: int, kind: str, action: Mapping[str, Any]) -> Journal:
    """The journal after one more event that sets nothing aside (an action, a pause, a restart)."""
    if kind == EventKind.INTERRUPT:
        return Journal(journal.game, journal.state, seq, True, journal.pending)
    if kind == EventKind.RESUME:
        return Journal(journal.game, journal.state, seq, False, journal.pending)
    state, pending = _acted(journal.game, journal.state, journal.pending, seq, action)
    return Journal(journal.game, state, seq, journal.interrupted, pending)


Pending = tuple[tuple[int, str], ...]


def _acted(
    game: Game, before: GameState, pending: Pending, seq: int, action: Mapping[str, Any]
) -> tuple[GameState, Pending]:
    """The state after the action event `seq`, and the journal's `pending` after it."""
    state = step(game, before, Action.from_dict(action))
    if money_moved(before, state) or (coup_can_start(state) and not coup_can_start(before)):
        # A coup was settled, or what followed it (the bank's decision, the hand passed on)
        # is over: the actions of the next coup start here.
        return state, ()
    return state, (*pending, (seq, str(action["type"])))


def journal_build(table_session: TableSession, events: Iterable[tuple[Any, ...]]) -> Journal:
    """Replay a table session from its events `(seq, kind, action, sets_aside)` in order.

    The fold of `journal_advance` over the events, the journal made once at the end: a night's
    report replays every table this way (reports.reconciliation)."""
    rows = list(events)
    set_aside: set[int] = set()
    for _seq, kind, _action, aside in rows:
        if kind in (EventKind.UNDO, EventKind.VOID):
            set_aside.update(aside)
    opening = next((action for _s, kind, action, _a in rows if kind == EventKind.OPEN), None)
    game, state = engine_start(table_session, opening)
    last_seq, interrupted = 0, False
    pending: Pending = ()
    for seq, kind, action, _aside in rows:
        last_seq = seq
        if kind == EventKind.ACTION:
            if seq not in set_aside:
                state, pending = _acted(game, state, pending, seq, action)
        elif kind == EventKind.INTERRUPT:
            interrupted = True
        elif kind == EventKind.RESUME:
            interrupted = False
        # OPEN, UNDO and VOID move nothing: their effect is the seating and `set_aside`.
    return Journal(game, state, last_seq, interrupted, pending)


def _events_of(table_session: TableSession) -> Iterable[tuple[Any, ...]]:
    return (
        TableEvent.objects.filter(table_session=table_session)
        .order_by("seq")
        .values_list("seq", "kind", "action", "sets_aside")
    )


class _JournalCache:
    """A small LRU of journals by `(table session public id, last seq)`: events never change.

    Keyed by the public id, not the primary key: a rolled-back table session's key is never
    reused by another one. `latest` looks in the table's own entries (an index by table), not
    through the whole cache: it is asked on every action another process recorded the one
    before.
    """

    def __init__(self, size: int = 512) -> None:
        self._size = size
        self._items: OrderedDict[tuple[str, int], Journal] = OrderedDict()
        self._by_table: dict[str, set[int]] = {}
        self._lock = threading.Lock()

    def get(self, key: tuple[str, int]) -> Journal | None:
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
            return found

    def put(self, key: tuple[str, int], journal: Journal) -> None:
        with self._lock:
            self._items[key] = journal
            self._items.move_to_end(key)
            self._by_table.setdefault(key[0], set()).add(key[1])
            while len(self._items) > self._size:
                (table, seq), _old = self._items.popitem(last=False)
                seqs = self._by_table.get(table)
                if seqs is not None:
                    seqs.discard(seq)
                    if not seqs:
                        del self._by_table[table]

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self._by_table.clear()

    def latest(self, table: str, before: int) -> Journal | None:
        """The cached journal of `table` with the highest sequence number below `before`."""
        with self._lock:
            seqs = [seq for seq in self._by_table.get(table, ()) if seq < before]
            return self._items.get((table, max(seqs))) if seqs else None


journal_cache = _JournalCache()


def _caught_up(
    table_session: TableSession, last_seq: int, tail: tuple[int, list[Any]] | None = None
) -> Journal | None:
    """The journal at `last_seq` from an older one this process cached, by applying only the
    events since: another process (a gunicorn worker) recorded them. `tail` is `(seq, events
    after it)` when the caller already read them (`record` reads them with the lock). None when
    one of those events sets earlier ones aside (an undo, a void): then the whole journal is
    replayed."""
    base = journal_cache.latest(str(table_session.public_id), last_seq)
    if base is None:
        return None
    if tail is not None and tail[0] == base.last_seq:
        newer = tail[1]
    else:
        newer = _events_after(table_session.pk, base.last_seq)
    if not newer or any(
        kind in (EventKind.UNDO, EventKind.VOID, EventKind.OPEN) for _s, kind, _a in newer
    ):
        return None
    journal = base
    for seq, kind, action in newer:
        journal = journal_advance(journal, seq, kind, action)
    return journal


def _events_after(pk: int, seq: int) -> list[tuple[int, str, Any]]:
    """The events after `seq` (`tables.sql.events_after_sql`): asked on many actions, see
    `_caught_up`."""
    with connection.cursor() as cursor:
        cursor.execute(events_after_sql(), [pk, seq])
        return events_converted(cursor.fetchall())


def tail_from(table_session: TableSession, expected_seq: int) -> int | None:
    """When this process's newest journal of the table is older than the screen that posted
    (`expected_seq` - 1: another process recorded since), its number: the events after it are
    worth reading with the lock. None when it is current, or when there is none to catch up
    from (the journal is then replayed whole)."""
    base = journal_cache.latest(str(table_session.public_id), expected_seq)
    if base is None or base.last_seq >= expected_seq - 1:
        return None
    return base.last_seq


def journal_get(
    table_session: TableSession,
    last_seq: int | None = None,
    tail: tuple[int, list[Any]] | None = None,
) -> Journal:
    """The journal of `table_session` after its last event (`last_seq` if the caller knows it;
    `tail`, the events after an older journal, if it read them: see `_caught_up`)."""
    if last_seq is None:
        last_seq = last_seq_get(table_session)
    key = (str(table_session.public_id), last_seq)
    cached = journal_cache.get(key)
    if cached is not None:
        return cached
    journal = _caught_up(table_session, last_seq, tail) or journal_build(
        table_session, _events_of(table_session)
    )
    if journal.last_seq == last_seq:
        journal_cache.put(key, journal)
    return journal


def journal_remember(table_session: TableSession, journal: Journal) -> None:
    """Cache the journal after a new event, once (and only if) its transaction commits."""
    key = (str(table_session.public_id), journal.last_seq)
    transaction.on_commit(lambda: journal_cache.put(key, journal))


def last_seq_get(table_session: TableSession) -> int:
    last = (
        TableEvent.objects.filter(table_session=table_session)
        .order_by("-seq")
        .values_list("seq", flat=True)
        .first()
    )
    return last or 0
