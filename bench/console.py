"""Server time of the console's record-action POST, and the bytes it swaps.

docs/conventions.md, P1.

Runs in-process through Django's test client (the whole middleware stack: sessions, auth,
CSRF, htmx, the user's language) on a throwaway test database — SQLite by default, PostgreSQL
when DATABASE_URL is set — and plays chemin de fer coups the way the screen posts them:
banco, the deal, « Non », the banker stands, the bank continues. Prints p50/p95/p99 of the
server time per action and the size of the answers (the HTML swapped).

    .venv/bin/python bench/console.py [--coups 60]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench .venv/bin/python bench/console.py
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")

import django

django.setup()

from django.contrib.auth.models import Group, User  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402
from django.urls import reverse  # noqa: E402

from establishment.models import Player  # noqa: E402
from establishment.roles import Role  # noqa: E402
from establishment.services import gaming_session_open  # noqa: E402
from tables.console.views import REGIONS  # noqa: E402
from tables.models import AssignmentRole, TableSession  # noqa: E402
from tables.services import staff_assign, table_create, table_session_open  # noqa: E402

SETTINGS = {"decks": 6, "chip_unit": 10, "min_bank": 100, "min_stake": 10}
# Deals that leave the ponte at 5 and the banker at 5: « Non », the banker stands, a tie.
DEALS = [(["2", "3"], ["5", "10"]), (["A", "4"], ["4", "A"]), (["6", "9"], ["7", "8"])]
HX = {"HX-Request": "true"}


def percentile(values: Sequence[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def fresh_table(number: int, croupier: User, manager: User) -> TableSession:
    table = table_create(
        number=number, game="chemin_de_fer", settings=SETTINGS, seat_count=12, created_by=manager
    )
    session = gaming_session_open(opened_by=manager)
    opened = table_session_open(
        table=table,
        gaming_session=session,
        opened_by=manager,
        seats={n: f"B{n}" for n in range(1, 7)},
    )
    staff_assign(
        table_session=opened, staff=croupier, role=AssignmentRole.CROUPIER, assigned_by=manager
    )
    return opened


class Screen:
    """What the browser holds, as htmx and console.js would: the meta of the last answer
    (sequence, key, digests), the action panel, and the digests of the regions it keeps."""

    def __init__(self, client: Client, table_session: TableSession) -> None:
        self.client = client
        self.url = reverse("console:record", kwargs={"table_session": table_session.public_id})
        page = client.get(
            reverse("console:table", kwargs={"table_session": table_session.public_id})
        ).content.decode()
        self.meta = meta_of(page)
        self.actions = page
        self.kept: dict[str, None] = dict.fromkeys(region_digests(self.meta).values())
        self.panels = {region_digests(self.meta)["actions"]: page}
        self.times: list[float] = []
        self.sizes: list[int] = []

    def post(self, action_type: str, **params: Any) -> None:
        assert f'data-type="{action_type}"' in self.actions, (action_type, self.actions[:2000])
        data = {"type": action_type, **self.meta, "cached": " ".join(self.kept), **params}
        started = time.perf_counter()
        response = self.client.post(self.url, data, headers=HX)
        self.times.append((time.perf_counter() - started) * 1000)
        assert response.status_code == 200, response.content.decode()[:500]
        body = response.content.decode()
        self.sizes.append(len(response.content))
        self.meta = meta_of(body)
        digests = region_digests(self.meta)
        for name in re.findall(r'<\w+ hx-swap-oob="true" id="table-(\w+)"', body):
            self.kept[digests[name]] = None
        for name in re.findall(r'id="table-(\w+)" hx-swap-oob="true" data-cached', body):
            assert digests[name] in self.kept, name
        while len(self.kept) > 64:  # console.js keeps 64
            del self.kept[next(iter(self.kept))]
        if 'hx-swap-oob="true" id="table-actions"' in body:
            self.actions = body
        elif 'id="table-actions"' in body:
            self.actions = self.panels[digests["actions"]]
        self.panels[digests["actions"]] = self.actions


def meta_of(body: str) -> dict[str, str]:
    """The screen's meta: what every post carries (hx-include="#screen-meta")."""
    meta = body[body.index('id="screen-meta"') :]
    meta = meta[: meta.index("</div>")]
    return dict(re.findall(r'name="(\w+)" value="([^"]*)"', meta))


def region_digests(meta: dict[str, str]) -> dict[str, str]:
    regions = [item for item in meta["screen"].split() if ":" not in item]
    return dict(zip(REGIONS, regions, strict=True))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--coups", type=int, default=60)
    args = parser.parse_args()
    setup_test_environment()
    old_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0)
    try:
        manager = User.objects.create_user("bench-manager")
        manager.groups.add(Group.objects.get(name=Role.MANAGER))
        croupier = User.objects.create_user("bench-croupier", password="x")
        croupier.groups.add(Group.objects.get(name=Role.CROUPIER))
        for n in range(1, 7):
            Player.objects.create(member_number=f"B{n}", name=f"Bench player {n}")
        client = Client()
        client.force_login(croupier)
        screen: Screen | None = None
        per_coup: list[int] = []
        times: list[float] = []
        sizes: list[int] = []
        for coup in range(args.coups):
            if coup % 30 == 0:  # a fresh shoe (and table) before any rank runs out
                if screen is not None:
                    times, sizes = times + screen.times, sizes + screen.sizes
                table_session = fresh_table(coup // 30 + 1, croupier, manager)
                screen = Screen(client, table_session)
                screen.post("new_shoe", actor="croupier", cut_by=1)
            assert screen is not None
            ponte, banker = DEALS[coup % len(DEALS)]
            before = len(screen.sizes)
            screen.post("announce_bank", actor="1", amount=100)
            screen.post("banco_call", actor="croupier", claim=f"{coup % 5 + 2}:banco")
            screen.post("deal", actor="croupier", ponte=ponte, banker=banker)
            screen.post("ponte_stand", actor=str(coup % 5 + 2))
            screen.post("banker_stand", actor="1")
            screen.post("continue_bank", actor="1", reliquat=0)
            per_coup.append(sum(screen.sizes[before:]))
        assert screen is not None
        times, sizes = times + screen.times, sizes + screen.sizes
        print(f"database: {connection.vendor}; {len(times)} recorded actions, {args.coups} coups")
        print(
            "server time per action (ms): "
            f"p50 {percentile(times, 50):.1f}, p95 {percentile(times, 95):.1f}, "
            f"p99 {percentile(times, 99):.1f}, max {max(times):.1f}"
        )
        print(
            "bytes swapped per action: "
            f"median {statistics.median(sizes):.0f}, p95 {percentile(sizes, 95):.0f}, "
            f"max {max(sizes)}; per coup median {statistics.median(per_coup):.0f}"
        )
        first, last = per_coup[1:6], per_coup[-5:]
        print(
            f"per coup, coups 2-6: {statistics.mean(first):.0f} B; "
            f"last 5: {statistics.mean(last):.0f} B"
        )
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
