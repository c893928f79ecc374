"""Registers benchmark (docs/registers.md): model 12 of a journée of 60 tables × 300 coups in
≤ 1 s once its séances are closed and counted, model 13 of a month in ≤ 2 s; PostgreSQL only.

    createdb -h 127.0.0.1 -U postgres casino_registers
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/casino_registers \\
        .venv/bin/python bench/registers.py [--tables 60] [--coups-per-table 300] [--days 30]

It plays a night of `--tables` chemin de fer tables × `--coups-per-table` coups as the recording
service writes them (bench/settlement_night.py) and settles it (the night's report), then times:

1. each table's count certified (`reports.counting.cagnotte_count_record`, which books the
   difference; in the embedded mode the worker that freezes the séance's model 11 runs when
   the count commits, within the timed call): median and total;
2. the registre de contrôle of the journée signed by two managers (`journee_sign` twice: the
   first builds model 12 from the 60 model 11s and stores it, the second signs it);
3. the carnet des prélèvements of a past month of `--days` journées (`month_close`), each
   journée with its séances and its model 12 signed by two, stored through the same service
   steps beforehand (the month's model 12s copy the measured journée's content under their
   own date).

Beside them, the limit of this machine in the same run: one-row commits per second on one
connection.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
from datetime import date, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
os.environ.setdefault("DJANGO_SECRET_KEY", "bench-only-secret-key")

import django  # noqa: E402

django.setup()

from django.contrib.auth.models import Group, User  # noqa: E402
from django.db import connection, transaction  # noqa: E402

from bench.scratch import configured_parser, configured_postgresql_migrate  # noqa: E402
from bench.settlement_night import make_session  # noqa: E402
from establishment.house import house_settings_in_force  # noqa: E402
from establishment.roles import Role  # noqa: E402
from reports.builders import canonical_json  # noqa: E402
from reports.counting import cagnotte_count_record  # noqa: E402
from reports.models import RegisterSignature  # noqa: E402
from reports.registers.builders import MODEL_12  # noqa: E402
from reports.registers.store import _store, journee_sign, month_close  # noqa: E402
from reports.services import settlement_report_generate  # noqa: E402
from tables.models import Table, TableSession  # noqa: E402


def _manager(name: str) -> User:
    user, _ = User.objects.get_or_create(username=name)
    user.set_password("password")
    user.save()
    for role in (Role.MANAGER, Role.INSPECTOR):
        user.groups.add(Group.objects.get_or_create(name=role)[0])
    return user


def commits_per_second(seconds: float = 2.0) -> float:
    """The machine's limit beside the measures: one-row commits on one connection."""
    with connection.cursor() as cursor:
        cursor.execute("CREATE TEMP TABLE IF NOT EXISTS bench_commit (n integer)")
    done, started = 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("INSERT INTO bench_commit VALUES (1)")
        done += 1
    return done / (time.perf_counter() - started)


def counts(session: Any, director: User, witness: User) -> dict[str, float]:
    report = settlement_report_generate(gaming_session_id=session.pk)
    assert report is not None
    times = []
    for entry in json.loads(report.content)["tables"]:
        started = time.perf_counter()
        cagnotte_count_record(
            report=report,
            table=Table.objects.get(number=entry["table"]),
            counted_chips=entry["cagnotte_expected"],
            counted_by=director,
            password="password",
            witness=witness,
            witness_password="password",
        )
        times.append(time.perf_counter() - started)
    return {"median_ms": statistics.median(times) * 1000, "total_s": sum(times)}


def month_of(days: int, model_12: Any, night: Any, directors: tuple[User, User]) -> str:
    """A past month of `days` journées, each with a closed séance and its model 12 signed by
    two (the measured journée's content under its own date)."""
    first = date(2026, 10, 1)
    house = house_settings_in_force()
    table = Table.objects.create(
        number=900_001, game="chemin_de_fer", settings={}, seat_count=6, is_active=False
    )
    content = json.loads(model_12.content)
    for offset in range(days):
        day = first + timedelta(days=offset)
        TableSession.objects.create(
            table=table,
            gaming_session=night,
            game="chemin_de_fer",
            settings={},
            seat_count=6,
            opened_at=model_12.stored_at - timedelta(days=60 - offset),
            closed_at=model_12.stored_at - timedelta(days=60 - offset),
            opened_by=directors[0],
            closed_by=directors[0],
            house_settings=house,
            journee=day,
        )
        with transaction.atomic():
            stored = _store(MODEL_12, day.isoformat(), {**content, "journee": day.isoformat()})
            for signer, role in zip(directors, ("director", "committee"), strict=True):
                RegisterSignature.objects.create(
                    register=stored,
                    signed_by=signer,
                    signed_at=stored.stored_at,
                    signed_as=role,
                    signed_sha256=stored.sha256,
                )
    return first.strftime("%Y-%m")


def main() -> None:
    parser = configured_parser(__doc__)
    parser.add_argument("--tables", type=int, default=60)
    parser.add_argument("--coups-per-table", type=int, default=300)
    parser.add_argument("--days", type=int, default=30)
    args = parser.parse_args()
    configured_postgresql_migrate("bench/registers.py")
    director, other, witness = _manager("director"), _manager("committee"), _manager("witness")
    session = make_session(
        "reg", args.tables * args.coups_per_table, args.tables, director, 300_001
    )
    result: dict[str, Any] = {"commits_per_second_one_connection": round(commits_per_second())}
    result["count_and_model_11"] = counts(session, director, witness)
    journee = TableSession.objects.filter(gaming_session=session).first().journee  # type: ignore[union-attr]
    started = time.perf_counter()
    model_12 = journee_sign(journee=journee, user=director, password="password")
    first = time.perf_counter() - started
    started = time.perf_counter()
    journee_sign(journee=journee, user=other, password="password")
    result["model_12"] = {
        "seances": len(json.loads(model_12.content)["seances"]),
        "first_signature_builds_and_stores_s": round(first, 3),
        "second_signature_s": round(time.perf_counter() - started, 3),
        "bytes": len(canonical_json(json.loads(model_12.content))),
    }
    month = month_of(args.days, model_12, session, (director, other))
    started = time.perf_counter()
    model_13 = month_close(month=month, user=director, password="password")
    result["model_13"] = {
        "journees": len(json.loads(model_13.content)["journees"]),
        "close_s": round(time.perf_counter() - started, 3),
    }
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
