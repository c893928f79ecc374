"""A season re-audited by replay: every séance's journal read back from PostgreSQL, replayed
through the rules engine and compared with its books, against the time to read its events.

    .venv/bin/python bench/season.py [--server postgres://postgres@127.0.0.1:5432]
        [--coups 1000000] [--night-coups 5000] [--night-tables 10] [--batch 50] [--runs 2]
        [--keep]

Creates a scratch database `bench_season_<pid>` (bench/scratch.py), migrates it, drops it at the
end unless `--keep`. Then:

1. one night of `--night-coups` chemin de fer coups over `--night-tables` tables, played through
   the engine and written as the recording service writes it (bench/settlement_night.py: the
   journals with their postings, the coups, the register of bankers, one balanced ledger
   transaction per settlement);
2. copies of that night's séances, made by the database itself (`INSERT … SELECT`, triggers off
   for the load only, as `settlement_night.other_entries` loads its entries), each a séance of
   its own — its own public id, so its own place and posting keys in the books — until the
   season holds `--coups` coups; `VACUUM ANALYZE`. A copy keeps its model's chain hashes (and
   its transactions take the next chain positions): the re-audit replays, it does not walk the
   chains (`history_verify` does), so the copies are not valid links and need not be;
3. timed, `--runs` times each, in groups of `--batch` séances (a night's tables):
   (a) reading every event: the query the replay reads the journals with
       (`reports.selectors.reconciliation_events_list`), streamed through a server-side cursor;
   (b) the re-audit: `reports.services.table_summaries_make` for each group, the replay the
       night's settlement makes of its tables (the same query, the JSON decoded, every séance
       folded through the engine, each coup's transfers compared with the coup booked and the
       ledger's entries); every séance must agree with its books.

Prints both times, the coups and events per second, and the ratio (b)/(a) (goal: ≤ 3).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.scratch import scratch_database  # noqa: E402

# The copy of the template séances: each row of `season_copy` is one new séance (`dst`) made
# from a template one (`src`); the places and posting keys name the séance's public id.
COPY_STEPS = (
    """
    CREATE TEMP TABLE season_copy AS
    SELECT ts.id AS src, ts.public_id::text AS src_public, gen_random_uuid() AS public_id,
           NULL::bigint AS dst
      FROM tables_tablesession ts CROSS JOIN generate_series(1, %(copies)s)
     WHERE ts.id = ANY(%(template)s)
    """,
    """
    INSERT INTO tables_tablesession (public_id, game, settings, seat_count, opened_at, closed_at,
        closed_by_id, gaming_session_id, opened_by_id, table_id, close_forced, close_left,
        close_reason, house_settings_id, journee)
    SELECT m.public_id, ts.game, ts.settings, ts.seat_count, ts.opened_at, ts.closed_at,
           ts.closed_by_id, ts.gaming_session_id, ts.opened_by_id, ts.table_id, ts.close_forced,
           ts.close_left, ts.close_reason, ts.house_settings_id, ts.journee
      FROM season_copy m JOIN tables_tablesession ts ON ts.id = m.src
    """,
    """
    UPDATE season_copy m SET dst = ts.id FROM tables_tablesession ts
     WHERE ts.public_id = m.public_id
    """,
    """
    INSERT INTO tables_tableevent (seq, kind, action, sets_aside, idempotency_key, recorded_at,
        client, reason, outcome, recorded_by_id, table_session_id, chain_hash)
    SELECT e.seq, e.kind, e.action, e.sets_aside,
           replace(e.idempotency_key, m.src_public, m.public_id::text), e.recorded_at, e.client,
           e.reason, replace(e.outcome::text, m.src_public, m.public_id::text)::jsonb,
           e.recorded_by_id, m.dst, e.chain_hash
      FROM season_copy m JOIN tables_tableevent e ON e.table_session_id = m.src
    """,
    """
    INSERT INTO tables_coup (public_id, number, outcome, banker, transfers, results, faults,
        cagnotte_chips, first_seq, settled_seq, settled_at, table_session_id)
    SELECT gen_random_uuid(), c.number, c.outcome, c.banker, c.transfers, c.results, c.faults,
           c.cagnotte_chips, c.first_seq, c.settled_seq, c.settled_at, m.dst
      FROM season_copy m JOIN tables_coup c ON c.table_session_id = m.src
    """,
    """
    INSERT INTO tables_banktenure (seq, how, first_coup_number, started_at, player_id,
        table_session_id)
    SELECT b.seq, b.how, b.first_coup_number, b.started_at, b.player_id, m.dst
      FROM season_copy m JOIN tables_banktenure b ON b.table_session_id = m.src
    """,
    """
    INSERT INTO ledger_transaction (public_id, idempotency_key, posted_at, memo, place,
        gaming_session_id, posted_by_id, chain_position, chain_hash)
    SELECT gen_random_uuid(), replace(t.idempotency_key, m.src_public, m.public_id::text),
           t.posted_at, t.memo, replace(t.place, m.src_public, m.public_id::text),
           t.gaming_session_id, t.posted_by_id,
           (SELECT max(chain_position) FROM ledger_transaction)
               + row_number() OVER (ORDER BY m.dst, t.id),
           t.chain_hash
      FROM season_copy m JOIN ledger_transaction t ON t.place = %(prefix)s || m.src_public
    """,
    """
    INSERT INTO ledger_entry (side, amount, reason, account_id, transaction_id)
    SELECT e.side, e.amount, e.reason, e.account_id, copy.id
      FROM season_copy m
      JOIN ledger_transaction t ON t.place = %(prefix)s || m.src_public
      JOIN ledger_entry e ON e.transaction_id = t.id
      JOIN ledger_transaction copy
        ON copy.idempotency_key = replace(t.idempotency_key, m.src_public, m.public_id::text)
    """,
    "DROP TABLE season_copy",
)


def season_write(coups: int, night_coups: int, night_tables: int) -> tuple[int, int]:
    """The template night, then its copies up to `coups` coups: the gaming session's id and the
    number of events written."""
    from django.contrib.auth.models import User
    from django.db import connection, transaction

    from bench.settlement_night import make_session
    from tables.models import TableEvent, TableSession
    from tables.postings import table_session_place

    user, _ = User.objects.get_or_create(username="bench")
    night = make_session("season", night_coups, night_tables, user, 300_001)
    template = list(TableSession.objects.filter(gaming_session=night).values_list("pk", flat=True))
    prefix = table_session_place("")  # a séance's place: this, then its public id
    copies = max(-(-coups // night_coups) - 1, 0)
    started = time.perf_counter()
    done = 0
    while done < copies:
        step = min(10, copies - done)  # ten nights per transaction
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SET LOCAL session_replication_role = replica")
            for sql in COPY_STEPS:
                cursor.execute(sql, {"copies": step, "template": template, "prefix": prefix})
        done += step
        print(f"  {done + 1} nights of {night_coups} coups", flush=True)
    with connection.cursor() as cursor:
        for table in ("tables_tableevent", "tables_coup", "ledger_transaction", "ledger_entry"):
            cursor.execute(f"VACUUM ANALYZE {table}")
    events = TableEvent.objects.filter(table_session__gaming_session=night).count()
    print(f"  copies and VACUUM ANALYZE in {time.perf_counter() - started:.1f} s", flush=True)
    return night.pk, events


def _groups(items: list[Any], size: int) -> list[list[Any]]:
    return [items[i : i + size] for i in range(0, len(items), size)]


def events_read(groups: list[list[Any]]) -> int:
    """(a) Every event of every séance, as the replay reads them (server-side cursor)."""
    from reports.selectors import reconciliation_events_list

    count = 0
    for group in groups:
        rows = reconciliation_events_list(table_session_ids=[ts.pk for ts in group])
        for _row in rows.iterator(chunk_size=5000):
            count += 1
    return count


def season_reaudit(groups: list[list[Any]], accounts: dict[int, Any]) -> tuple[int, int]:
    """(b) Every séance replayed and compared with its books (`table_summaries_make`): the coups
    replayed and the séances that agree with their books."""
    from reports.services import table_summaries_make

    replayed = agreed = 0
    for group in groups:
        for text in table_summaries_make(table_sessions=group, accounts=accounts).values():
            summary = json.loads(text)
            replayed += int(summary["coups_replayed"])
            agreed += not summary["differences"] and summary["error"] is None
    return replayed, agreed


def _timed(call: Callable[[], Any]) -> tuple[float, Any]:
    started = time.perf_counter()
    found = call()
    return time.perf_counter() - started, found


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--server", default="postgres://postgres@127.0.0.1:5432")
    parser.add_argument("--coups", type=int, default=1_000_000)
    parser.add_argument("--night-coups", type=int, default=5_000)
    parser.add_argument("--night-tables", type=int, default=10)
    parser.add_argument("--batch", type=int, default=50, help="séances audited together")
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--keep", action="store_true", help="keep the scratch database")
    args = parser.parse_args()
    with scratch_database(args.server, f"bench_season_{os.getpid()}", keep=args.keep):
        from reports.selectors import settlement_accounts_values
        from tables.models import Coup, TableSession

        print("Writing the season…", flush=True)
        session_id, _ = season_write(args.coups, args.night_coups, args.night_tables)
        sessions = list(TableSession.objects.filter(gaming_session_id=session_id).order_by("pk"))
        coups = Coup.objects.filter(table_session__gaming_session_id=session_id).count()
        groups = _groups(sessions, args.batch)
        accounts = settlement_accounts_values(gaming_session_id=session_id)
        reads: list[float] = []
        audits: list[float] = []
        events = 0
        for _ in range(args.runs):
            seconds, events = _timed(lambda: events_read(groups))
            reads.append(seconds)
            seconds, (replayed, agreed) = _timed(lambda: season_reaudit(groups, accounts))
            audits.append(seconds)
            assert replayed == coups, f"{replayed} coups replayed of {coups}"
            assert agreed == len(sessions), f"{len(sessions) - agreed} séances disagree"
        read, audit = statistics.median(reads), statistics.median(audits)
        print(
            json.dumps(
                {
                    "seances": len(sessions),
                    "coups": coups,
                    "events": events,
                    "read_events_runs_s": [round(s, 2) for s in reads],
                    "reaudit_runs_s": [round(s, 2) for s in audits],
                    "read_events_median_s": round(read, 2),
                    "reaudit_median_s": round(audit, 2),
                    "reaudit_coups_per_s": round(coups / audit),
                    "reaudit_events_per_s": round(events / audit),
                    "ratio": round(audit / read, 2),
                },
                indent=1,
            )
        )


if __name__ == "__main__":
    main()
