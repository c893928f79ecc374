"""Browser tests: the product served in a subprocess, driven by Playwright on Debian's chromium.

The server runs `manage.py runserver` on loopback, on its own temporary SQLite file, migrated and
loaded with the demo data (one table per game, with the settings of its worked examples) plus a
few more chemin de fer tables so the tests do not share a table, each with its croupier
(`croupier<number>`). A subprocess keeps the ledger's
append-only triggers away from the test database's flushes (tests/conftest.py).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.subprocess_env import ROOT, clean_env

CHROMIUM = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or ""
SHOTS = Path(os.environ.get("E2E_SCREENSHOTS", str(ROOT / "var" / "e2e")))
EXTRA_TABLES = (11, 12, 13, 14, 17)  # chemin de fer tables, one per test that needs its own
STOCK_TABLE = 17  # the numbered sabots at a table (test_registers.py)
FRENCH = ("croupier-fr", 15)  # a croupier who works in French, at a chemin de fer table of his own
NIGHT = 16  # a chemin de fer table for the night on the floor: reliefs, the door (test_night.py)
# A chemin de fer table opened while the house tore tickets (test_registers.py); the house goes
# back to the machine at once, so that no other séance keeps tickets.
TICKETS_TABLE = 18
# Tables opened with a worked example's settings and seating, fresh (no first banker yet), for
# the examples the demo tables cannot replay: (table number, examples file). Their players are
# `E<number>-<id of the example>`.
EXAMPLE_TABLES = (
    (21, "lansquenet_moderne/examples/LM-X3.json"),
    (22, "lansquenet_classique/examples/LC-X2.json"),
    (23, "pontoon/examples/PT-X3.json"),
)


def example_ids(number: int, scenario: dict[str, Any]) -> dict[str, str]:
    ids = list(scenario.get("seats", {}).values()) + list(scenario.get("standing", []))
    return {pid: f"E{number}-{pid}" for pid in ids}


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


SETUP = """
import django
django.setup()
from tables.management.commands.demo_data import DEMO_TABLES
from establishment.models import GamingSession, Player
from django.contrib.auth.models import User
from tables.models import AssignmentRole, Table
from tables.services import record, staff_assign, table_create, table_session_open
from tables.services.journal import last_seq_get
manager = User.objects.get(username="manager")
from django.contrib.auth.models import Group


def croupier_of(number):
    # A croupier of its own at each extra table (a person is on duty at one table at a time).
    user = User.objects.create_user(f"croupier{number}", password=f"croupier{number}-demo")
    user.groups.add(Group.objects.get(name="croupier"))
    return user


session = GamingSession.objects.filter(closed_at__isnull=True).get()
demo = DEMO_TABLES[0]
codes = list(Player.objects.filter(member_number__lte="DEMO-0008").order_by("member_number")
             .values_list("member_number", flat=True))
for number in %(tables)r:
    table = table_create(number=number, game=demo.game, settings=demo.settings, seat_count=12,
                         created_by=manager)
    ts = table_session_open(table=table, gaming_session=session, opened_by=manager,
                            seats={n: codes[n - 1] for n in range(1, 7)}, standing=codes[6:8])
    staff_assign(table_session=ts, staff=croupier_of(number), role=AssignmentRole.CROUPIER,
                 assigned_by=manager)
import datetime
import json
from pathlib import Path
for number, name in %(examples)r:
    data = json.loads((Path("tests/scenarios") / name).read_text())
    scenario = data[0] if isinstance(data, list) else data
    ids = {pid: f"E{number}-{pid}" for pid in
           list(scenario.get("seats", {}).values()) + list(scenario.get("standing", []))}
    for code in ids.values():
        # With the identity the door took: the table refuses a player without one.
        Player.objects.get_or_create(member_number=code, defaults={
            "name": f"Joueur {code}", "surname": code, "first_names": "Joueur",
            "birth_date": datetime.date(1980, 1, 1)})
    table = table_create(created_by=manager, number=number, game=scenario["game"],
                         settings=scenario["settings"],
                         seat_count=scenario.get("seat_count"))
    ts = table_session_open(table=table, gaming_session=session, opened_by=manager,
                            seats={int(n): ids[p] for n, p in scenario["seats"].items()},
                            standing=[ids[p] for p in scenario.get("standing", [])])
    staff_assign(table_session=ts, staff=croupier_of(number), role=AssignmentRole.CROUPIER,
                 assigned_by=manager)
# A croupier of his own at a chemin de fer table of its own, for the test that works in French.
french = User.objects.create_user(%(french)r, password=%(french)r + "-demo")
french.groups.add(Group.objects.get(name="croupier"))
table = table_create(number=%(french_table)r, game=demo.game, settings=demo.settings,
                     seat_count=12, created_by=manager)
ts = table_session_open(table=table, gaming_session=session, opened_by=manager,
                        seats={n: codes[n - 1] for n in range(1, 7)}, standing=codes[6:8])
staff_assign(table_session=ts, staff=french, role=AssignmentRole.CROUPIER, assigned_by=manager)
# The night's table: its croupier and its changeur (the demo's croupier6 and changeur2 are free).
table = table_create(number=%(night)r, game=demo.game, settings=demo.settings,
                     seat_count=12, created_by=manager)
ts = table_session_open(table=table, gaming_session=session, opened_by=manager,
                        seats={n: codes[n - 1] for n in range(1, 7)}, standing=codes[6:8])
staff_assign(table_session=ts, staff=croupier_of(%(night)r), role=AssignmentRole.CROUPIER,
             assigned_by=manager)
changeur = User.objects.create_user("changeur%(night)s", password="changeur%(night)s-demo")
changeur.groups.add(Group.objects.get(name="changeur"))
staff_assign(table_session=ts, staff=changeur, role=AssignmentRole.CHANGEUR, assigned_by=manager)
from establishment.house import house_settings_change
house_settings_change(changed_by=manager, reason="A table tears tickets", levy_record="tickets")
table = table_create(number=%(tickets)r, game=demo.game, settings=demo.settings, seat_count=12,
                     created_by=manager)
ts = table_session_open(table=table, gaming_session=session, opened_by=manager,
                        seats={n: codes[n - 1] for n in range(1, 7)}, standing=codes[6:8])
staff_assign(table_session=ts, staff=croupier_of(%(tickets)r), role=AssignmentRole.CROUPIER,
             assigned_by=manager)
house_settings_change(changed_by=manager, reason="Back to the machine", levy_record="machine")
# An alert for the desk's test (tests/e2e/test_audit_desk.py).
from reports.audit.alerts import alert_raise
from reports.audit.models import AlertKind
alert_raise(AlertKind.CORRECTIONS, "corrections:e2e:croupier1", gaming_session=session,
            person="croupier1", undos=7, voids=2)
"""


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    if not CHROMIUM:
        pytest.skip("Debian chromium is not installed (apt-get install chromium)")
    folder = tmp_path_factory.mktemp("e2e")
    env = clean_env(
        {
            "DJANGO_DEBUG": "true",
            "DJANGO_SECRET_KEY": "e2e-only-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz",
            "SQLITE_PATH": str(folder / "db.sqlite3"),
            "DJANGO_LOG_LEVEL": "WARNING",
        }
    )
    manage = [sys.executable, str(ROOT / "manage.py")]
    # Tonight's tables at their start, for the worked examples to be played through.
    for args in (["migrate", "--noinput"], ["demo_data", "--coups", "0"]):
        subprocess.run([*manage, *args], cwd=ROOT, env=env, check=True, capture_output=True)
    subprocess.run(
        [
            sys.executable,
            "-c",
            SETUP
            % {
                "tables": EXTRA_TABLES,
                "examples": EXAMPLE_TABLES,
                "french": FRENCH[0],
                "french_table": FRENCH[1],
                "night": NIGHT,
                "tickets": TICKETS_TABLE,
            },
        ],
        cwd=ROOT,
        env=env | {"DJANGO_SETTINGS_MODULE": "casino.settings"},
        check=True,
        capture_output=True,
    )
    port = _free_port()
    log = (folder / "server.log").open("w")
    process = subprocess.Popen(
        [*manage, "runserver", "--noreload", f"127.0.0.1:{port}"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            urllib.request.urlopen(f"{url}/login/", timeout=1).close()
            break
        except OSError:
            if time.monotonic() > deadline or process.poll() is not None:
                process.kill()
                raise RuntimeError((folder / "server.log").read_text()) from None
            time.sleep(0.2)
    yield url
    process.terminate()
    process.wait(timeout=10)
    log.close()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not CHROMIUM:
        pytest.skip("Debian chromium is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
            ],
        )
        yield launched
        launched.close()


@pytest.fixture
def new_page(browser: Any, server: str) -> Iterator[Any]:
    """Pages in fresh browser contexts (one per user), closed after the test."""
    contexts: list[Any] = []

    def make(username: str) -> Any:
        context = browser.new_context(
            base_url=server, viewport={"width": 1366, "height": 900}, locale="en-GB"
        )
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(8000)
        page.goto("/login/")
        page.get_by_label("Username").fill(username)
        page.get_by_label("Password").fill(f"{username}-demo")
        page.get_by_role("button", name="Log in").click()
        page.wait_for_url(lambda url: "/login/" not in url)
        return page

    yield make
    for context in contexts:
        context.close()


def screenshot(page: Any, name: str) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
