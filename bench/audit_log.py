"""The audit log read back over ten million rows (docs/audit.md, "The audit log").

    .venv/bin/python bench/audit_log.py [--server postgres://postgres@127.0.0.1:5432]
        [--rows 10000000] [--repeat 5] [--keep]

Creates a scratch database (`bench_audit_<pid>`), migrates it, opens 8 tables and copies their
séances over 60 nights, then writes `--rows` audit rows in SQL (40 people, 20 actions, four rows
in five at a table, one every 0.25 s) and builds the audit log's indexes, timed. Then, through
the audit log's own selector (`reports.audit.log.audit_log_page`, a page of 50 newest first),
the median of `--repeat` runs of: the first page; a page 1,000 pages deep by its keyset cursor,
beside the same page read by OFFSET; each filter (a person, a table, an action, one hour, a
person in one hour); and the same once the indexes are dropped. Prints milliseconds per page.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.scratch import scratch_database  # noqa: E402

PEOPLE = 40
ACTIONS = 20
NIGHTS = 60
INDEXES = (
    ("casino_audit_at", "(at, id)"),
    ("casino_audit_actor_at", "(actor_id, at, id)"),
    ("casino_audit_action_at", "(action, at, id)"),
    ("casino_audit_table_at_id", "(table_session_id, at, id)"),
)


def _house() -> tuple[list[int], list[int]]:
    """The people and the séances the rows name: 8 tables opened by the services, their séances
    copied, closed, over `NIGHTS` nights."""
    from django.db import connection

    from establishment.roles import Role
    from establishment.services import gaming_session_open
    from tables.services import table_create, table_session_open
    from tests.factories import UserFactory

    people = [UserFactory.create(roles=[Role.CROUPIER]).pk for _ in range(PEOPLE)]
    manager = UserFactory.create(roles=[Role.MANAGER])
    night = gaming_session_open(opened_by=manager)
    for number in range(1, 9):
        table = table_create(number=number, game="chemin_de_fer", created_by=manager)
        table_session_open(table=table, gaming_session=night, opened_by=manager)
    with connection.cursor() as cursor:
        cursor.execute(
            """
            INSERT INTO tables_tablesession (public_id, table_id, gaming_session_id, game,
                settings, seat_count, opened_at, opened_by_id, closed_at, closed_by_id,
                close_forced, close_reason, close_left, house_settings_id, journee)
            SELECT gen_random_uuid(), s.table_id, s.gaming_session_id, s.game, s.settings,
                s.seat_count, s.opened_at - n * interval '1 day', s.opened_by_id,
                s.opened_at - n * interval '1 day' + interval '7 hours', s.opened_by_id,
                false, '', '[]', s.house_settings_id, s.journee - n
            FROM tables_tablesession s, generate_series(1, %s) n
            """,
            [NIGHTS - 1],
        )
        cursor.execute("SELECT id FROM tables_tablesession ORDER BY id")
        seances = [row[0] for row in cursor.fetchall()]
    return people, seances


def _write(rows: int, people: list[int], seances: list[int]) -> float:
    """`rows` audit rows in one statement, oldest first, then the indexes; seconds."""
    from django.db import connection

    started = time.perf_counter()
    with connection.cursor() as cursor:
        for name, _columns in INDEXES:
            cursor.execute(f"DROP INDEX IF EXISTS {name}")
        cursor.execute(
            """
            INSERT INTO establishment_auditentry (public_id, at, actor_id, action, client,
                table_session_id, data, chain_position, chain_hash)
            SELECT gen_random_uuid(), now() - (%(rows)s - i) * interval '250 milliseconds',
                (%(people)s::bigint[])[1 + i %% %(npeople)s], 'action_' || (i %% %(actions)s),
                'console', CASE WHEN i %% 5 < 4
                    THEN (%(seances)s::bigint[])[1 + (i / 997) %% %(nseances)s] END,
                jsonb_build_object('n', i),
                -- Placed after the rows the set-up wrote; their hashes are not a chain (the
                -- bench reads pages, it does not verify the history).
                (SELECT COALESCE(MAX(chain_position), 0) FROM establishment_auditentry) + i,
                encode(sha256(i::text::bytea), 'hex')
            FROM generate_series(1, %(rows)s) i
            """,
            {
                "rows": rows,
                "people": people,
                "npeople": len(people),
                "actions": ACTIONS,
                "seances": seances,
                "nseances": len(seances),
            },
        )
        written = time.perf_counter() - started
        print(f"{rows:,} rows written in {written:.1f} s")
        for name, columns in INDEXES:
            began = time.perf_counter()
            cursor.execute(f"CREATE INDEX {name} ON establishment_auditentry {columns}")
            print(f"  index {name} {columns} built in {time.perf_counter() - began:.1f} s")
        cursor.execute("ANALYZE establishment_auditentry")
    return time.perf_counter() - started


def _median_ms(call: Callable[[], object], repeat: int) -> float:
    call()  # warm the cache
    times = []
    for _ in range(repeat):
        began = time.perf_counter()
        call()
        times.append(time.perf_counter() - began)
    return statistics.median(times) * 1000


def _measures(repeat: int, people: list[int]) -> dict[str, float]:
    from django.contrib.auth.models import User

    from establishment.models import AuditEntry
    from reports.audit.log import AuditLogFilter, audit_log_page, cursor_encode

    someone = User.objects.get(pk=people[7]).username
    newest = AuditEntry.objects.order_by("-at", "-pk").first()
    assert newest is not None
    hour_until = newest.at - timedelta(days=3)
    since, until = hour_until - timedelta(hours=1), hour_until
    deep_row = AuditEntry.objects.order_by("-at", "-pk")[49_999]  # page 1,001 ends here
    deep_cursor = cursor_encode(deep_row)

    def page(cursor: str = "", **wanted: object) -> Callable[[], object]:
        return lambda: audit_log_page(AuditLogFilter(**wanted), cursor=cursor)  # type: ignore[arg-type]

    return {
        "first page": _median_ms(page(), repeat),
        "page 1,001 by keyset": _median_ms(page(deep_cursor), repeat),
        "page 1,001 by OFFSET": _median_ms(
            lambda: list(AuditEntry.objects.order_by("-at", "-pk")[50_000:50_050]), repeat
        ),
        "a person": _median_ms(page(actor=someone), repeat),
        "a person, deep page": _median_ms(
            page(
                cursor_encode(
                    AuditEntry.objects.filter(actor_id=people[7]).order_by("-at", "-pk")[
                        min(49_999, AuditEntry.objects.count() // PEOPLE // 2)
                    ]
                ),
                actor=someone,
            ),
            repeat,
        ),
        "a table": _median_ms(page(table=5), repeat),
        "an action": _median_ms(page(action="action_3"), repeat),
        "one hour": _median_ms(page(since=since, until=until), repeat),
        "a person in one hour": _median_ms(page(actor=someone, since=since, until=until), repeat),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", default="postgres://postgres@127.0.0.1:5432")
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--keep", action="store_true")
    args = parser.parse_args()
    if args.rows < 50_000:
        parser.error("--rows must be 50,000 or more: the deep page read is page 1,001 of 50 rows")
    with scratch_database(args.server, f"bench_audit_{os.getpid()}", keep=args.keep):
        from django.db import connection

        people, seances = _house()
        _write(args.rows, people, seances)
        indexed = _measures(args.repeat, people)
        with connection.cursor() as cursor:
            for name, _columns in INDEXES:
                cursor.execute(f"DROP INDEX {name}")
            cursor.execute("ANALYZE establishment_auditentry")
        bare = _measures(args.repeat, people)
        print(f"\nms per page of 50 over {args.rows:,} rows (median of {args.repeat}):")
        print(f"{'':24} {'indexed':>10} {'no index':>10}")
        for name, ms in indexed.items():
            print(f"{name:24} {ms:10.1f} {bare[name]:10.1f}")


if __name__ == "__main__":
    main()
