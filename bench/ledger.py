"""Ledger write throughput through `tables.services.record` on PostgreSQL, the cost of the
database invariants, and the journal cache.

    .venv/bin/python bench/ledger.py [--server postgres://postgres@127.0.0.1:5432]
        [--connections 4] [--coups 150] [--rounds 3] [--long 500] [--keep]

Creates a scratch database (`bench_ledger_<pid>`), migrates it, and then:

1. throughput: `--connections` worker processes, each the croupier of its own chemin de fer
   table in one gaming session, record `--coups` settled coups each as fast as they can:
   random legal play with the parameters the engine's playouts generate (banks, bancos and
   stakes, deals, draws, reliquats, suites, new shoes; about eight actions per coup).
   Settled coups per second, recorded actions per second and the latency of one `record`
   call (p50, p95), with every trigger on, then with the
   invariant triggers disabled (`ALTER TABLE … DISABLE TRIGGER USER`: the zero-sum and
   append-only triggers of the ledger, the journal, the coups, the bank register and the audit
   log); rounds alternate on/off and the medians are compared. Targets: ≥ 500 coups/s, ratio
   ≤ 1.25.
2. journal cache: one table with `--long` coups; the time to rebuild its journal from the
   database (cold) and to find it in the cache, and one `record` call with the cache cleared
   before it against one with the cache warm.

Drops the scratch database at the end unless `--keep`.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import statistics
import sys
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.scratch import django_setup, scratch_database  # noqa: E402

INVARIANT_TABLES = (
    "ledger_entry",
    "ledger_transaction",
    "tables_tableevent",
    "tables_coup",
    "tables_banktenure",
    "establishment_auditentry",
)
SETTINGS = {"decks": 3, "chip_unit": 10, "min_bank": 100, "min_stake": 10}


SKIPPED = frozenset({"sit", "leave", "add_standing", "end_session", "give_up_bank"})


def _next_action(journal: Any, rng: random.Random) -> dict[str, Any]:
    """A random legal action of chemin de fer with generated parameters, as the engine's own
    playouts make them (tests/engine/test_chemin_de_fer.py `Driver`): banks, bancos and
    stakes, deals and draws, reliquats, new shoes. Session actions are left out."""
    from tables.engine import Action, RuleError, step
    from tests.engine.test_chemin_de_fer import Driver

    state = journal.state
    legal = [la for la in journal.game.legal_actions(state) if la.type not in SKIPPED]
    while True:
        chosen = rng.choice(legal)
        actor = rng.choice(chosen.actors)
        for params in Driver(rng, state).candidates(chosen.type, actor):
            action = {"type": chosen.type, "actor": actor, **params}
            try:
                step(journal.game, state, Action.from_dict(action))
            except RuleError:
                continue
            return action


def _table(index: int, tag: str) -> tuple[int, int]:
    """A chemin de fer table with its croupier, in the bench's gaming session."""
    from django.contrib.auth.models import Group, User
    from django.db.models import Max

    from establishment.models import GamingSession, Player
    from establishment.roles import Role
    from tables.models import AssignmentRole, Table
    from tables.services import staff_assign, table_create, table_session_open

    manager, _ = User.objects.get_or_create(username="bench-manager")
    manager.groups.add(Group.objects.get(name=Role.MANAGER))
    session = GamingSession.objects.filter(closed_at__isnull=True).first()
    if session is None:
        from establishment.services import gaming_session_open

        session = gaming_session_open(opened_by=manager)
    croupier = User.objects.create(username=f"croupier-{tag}-{index}")
    croupier.groups.add(Group.objects.get(name=Role.CROUPIER))
    seats = {}
    for seat in range(1, 7):
        code = f"{tag}{index}S{seat}"
        Player.objects.get_or_create(member_number=code, defaults={"name": code})
        seats[seat] = code
    # The next free number (tables are set up one after the other): a number made from the
    # tag's hash could meet another round's, the hash of a string being random per process.
    number = (Table.objects.aggregate(last=Max("number"))["last"] or 0) + 1
    table = table_create(number=number, game="chemin_de_fer", settings=SETTINGS, created_by=manager)
    opened = table_session_open(table=table, gaming_session=session, opened_by=manager, seats=seats)
    staff_assign(
        table_session=opened, staff=croupier, role=AssignmentRole.CROUPIER, assigned_by=manager
    )
    return opened.pk, croupier.pk


def _record_timed(table: Any, user: Any, action: dict[str, Any], last: int) -> tuple[Any, float]:
    """`action` recorded after journal line `last`, and the seconds `record` took."""
    from tables.services import record

    began = time.perf_counter()
    done = record(
        table_session=table,
        action=action,
        expected_seq=last + 1,
        user=user,
        idempotency_key=str(uuid.uuid4()),
    )
    return done, time.perf_counter() - began


def _record_coups(table_pk: int, user_pk: int, coups: int, latencies: list[float]) -> int:
    from django.contrib.auth.models import User

    from tables.models import TableSession
    from tables.services.journal import journal_get, last_seq_get

    table = TableSession.objects.get(pk=table_pk)
    user = User.objects.get(pk=user_pk)
    settled = 0
    rng = random.Random(table_pk)
    last = last_seq_get(table)
    while settled < coups:
        done, took = _record_timed(table, user, _next_action(journal_get(table, last), rng), last)
        latencies.append(took)
        last = done.seq
        settled += len(done.outcome["coups"])
    return settled


def _worker(url: str, table_pk: int, user_pk: int, coups: int, start: Any, out: Any) -> None:
    django_setup(url)
    from django.db import connection

    connection.ensure_connection()
    latencies: list[float] = []
    start.wait()
    began = time.perf_counter()
    settled = _record_coups(table_pk, user_pk, coups, latencies)
    out.put((settled, time.perf_counter() - began, latencies))


def throughput(url: str, connections: int, coups: int, tag: str) -> dict[str, float]:
    from django.db import connections as all_connections

    tables = [_table(i, tag) for i in range(connections)]
    for pk, user in tables:  # first coup outside the clock: accounts created
        _record_coups(pk, user, 1, [])
    all_connections.close_all()
    ctx = multiprocessing.get_context("fork")
    start, out = ctx.Barrier(connections + 1), ctx.Queue()
    workers = [
        ctx.Process(target=_worker, args=(url, pk, user, coups, start, out)) for pk, user in tables
    ]
    for worker in workers:
        worker.start()
    start.wait()
    began = time.perf_counter()
    results = [out.get(timeout=600) for _ in workers]
    wall = time.perf_counter() - began
    for worker in workers:
        worker.join()
    settled = sum(r[0] for r in results)
    latencies = sorted(x for r in results for x in r[2])
    return {
        "coups": settled,
        "seconds": wall,
        "coups_per_s": settled / wall,
        "actions_per_s": len(latencies) / wall,
        "p50_ms": 1000 * latencies[len(latencies) // 2],
        "p95_ms": 1000 * latencies[int(len(latencies) * 0.95)],
    }


def _triggers(enable: bool) -> None:
    from django.db import connection

    verb = "ENABLE" if enable else "DISABLE"
    with connection.cursor() as cursor:
        for table in INVARIANT_TABLES:
            cursor.execute(f"ALTER TABLE {table} {verb} TRIGGER USER")


def journal_cache(long: int) -> dict[str, float]:
    from django.contrib.auth.models import User

    from tables.models import TableSession
    from tables.services.journal import journal_cache as cache, journal_get, last_seq_get

    pk, user_pk = _table(0, "long")
    _record_coups(pk, user_pk, long, [])
    table = TableSession.objects.get(pk=pk)
    user = User.objects.get(pk=user_pk)
    last = last_seq_get(table)

    def cold() -> None:
        cache.clear()
        journal_get(table, last)

    def warm() -> None:
        journal_get(table, last)

    def timed(call: Any, times: int = 7) -> float:
        samples = []
        for _ in range(times):
            began = time.perf_counter()
            call()
            samples.append(time.perf_counter() - began)
        return 1000 * statistics.median(samples)

    cold_ms, warm_ms = timed(cold), timed(warm)

    def one_record(clear: bool) -> float:
        nonlocal last
        if clear:
            cache.clear()
        action = _next_action(journal_get(table, last), random.Random(last))
        if clear:
            cache.clear()
        done, took = _record_timed(table, user, action, last)
        last = done.seq
        return 1000 * took

    record_cold = statistics.median(one_record(True) for _ in range(7))
    record_warm = statistics.median(one_record(False) for _ in range(7))
    return {
        "events": last,
        "rebuild_ms": cold_ms,
        "cached_ms": warm_ms,
        "record_cold_ms": record_cold,
        "record_warm_ms": record_warm,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", default="postgres://postgres@127.0.0.1:5432")
    parser.add_argument("--connections", type=int, default=4)
    parser.add_argument("--coups", type=int, default=150, help="settled coups per connection")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--long", type=int, default=500, help="coups of the long table")
    parser.add_argument("--keep", action="store_true")
    args = parser.parse_args()

    name = f"bench_ledger_{os.getpid()}"
    with scratch_database(args.server, name, keep=args.keep) as url:
        from django.db import connection

        with connection.cursor() as cursor:
            cursor.execute("SELECT current_setting('synchronous_commit')")
            sync = cursor.fetchone()
        print(f"database {name}, synchronous_commit={sync[0] if sync else '?'}")

        runs: dict[bool, list[dict[str, float]]] = {True: [], False: []}
        for round_ in range(args.rounds):
            for on in (True, False):
                _triggers(on)
                tag = f"r{round_}{'on' if on else 'off'}"
                result = throughput(url, args.connections, args.coups, tag)
                runs[on].append(result)
                print(
                    f"round {round_ + 1} triggers {'on ' if on else 'off'}: "
                    f"{result['coups']:.0f} coups in {result['seconds']:.2f} s = "
                    f"{result['coups_per_s']:.0f} coups/s ({result['actions_per_s']:.0f} "
                    f"actions/s), record p50 {result['p50_ms']:.1f} ms p95 "
                    f"{result['p95_ms']:.1f} ms"
                )
        _triggers(True)
        with_on = statistics.median(r["coups_per_s"] for r in runs[True])
        off = statistics.median(r["coups_per_s"] for r in runs[False])
        print(
            f"median with every invariant on: {with_on:.0f} settled coups/s "
            f"with {args.connections} connections (target >= 500)"
        )
        print(f"median with the invariant triggers off: {off:.0f} coups/s")
        print(f"cost of the invariants: {off / with_on:.2f}x (target <= 1.25)")

        cache = journal_cache(args.long)
        print(
            f"journal of a table with {args.long} coups ({cache['events']:.0f} events): "
            f"rebuilt from the database {cache['rebuild_ms']:.1f} ms, "
            f"from the cache {cache['cached_ms']:.3f} ms"
        )
        print(
            f"one record() at that table: {cache['record_cold_ms']:.1f} ms with a cold cache, "
            f"{cache['record_warm_ms']:.1f} ms with a warm one"
        )


if __name__ == "__main__":
    main()
