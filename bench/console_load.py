"""The console's record-action POST under load: the product under gunicorn, on loopback.

docs/conventions.md, P1.

Serves the project with gunicorn (deploy/gunicorn.conf.py) on 127.0.0.1 and a free port, on a
fresh temporary SQLite file — or on the database of DATABASE_URL when it is set (give it a
throwaway PostgreSQL database: the bench migrates it and fills it) — then drives the console's
record-action POST with 16 and then 40 requests in flight, as croupiers at as many tables would:
each client logs in (real session and CSRF cookies), opens its table screen and replays the
rules' worked examples (tests/scenarios/*/examples, every game) through the console's forms,
carrying the screen's meta (sequence number, idempotency key, digests) from answer to answer.
Now and then a client posts once with a stale sequence number on purpose (a second screen): the
409 is counted apart. Actions the examples expect to be refused are not posted.

Bounded: each phase stops after --requests posts or --seconds, whichever comes first; only
loopback traffic. Prints p50/p95/p99 per phase and every unexpected status.

    .venv/bin/python bench/console_load.py [--requests 2000] [--seconds 120] [--workers 2]
        [--cache-url redis://127.0.0.1:6379/15]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/load .venv/bin/python bench/console_load.py
"""

from __future__ import annotations

import argparse
import datetime
import gzip
import http.client
import itertools
import json
import os
import re
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "tests" / "scenarios").glob("*/examples/*.json"))
PHASES = (16, 40)
STALE_EVERY = 25  # one deliberate stale post (409) every this many posts of a client
PASSWORD = "load-bench-password"


def percentile(values: Sequence[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def examples() -> list[dict[str, Any]]:
    """The worked examples, shortest first within a game (CF-X5 is a whole shoe)."""
    found = []
    for path in EXAMPLES:
        data = json.loads(path.read_text(encoding="utf-8"))
        found += data if isinstance(data, list) else [data]
    return found


# -- the data: tables, croupiers, players -----------------------------------------------------


@dataclass
class Assignment:
    """One client of the load: a browser and the table sessions it plays, in order, each with
    the session key of its croupier (a person is on duty at one table at a time: the browser
    changes croupier, logged in before the clock, as it changes table)."""

    username: str
    tables: list[tuple[str, dict[str, Any], dict[str, str], str]] = field(default_factory=list)


def player_ids(scenario: Mapping[str, Any]) -> set[str]:
    """Every player id a scenario names: seated, standing, actors, claims, sit/leave."""
    ids = set(scenario.get("seats", {}).values()) | set(scenario.get("standing", []))
    for action in scenario["actions"]:
        for value in (action.get("actor"), action.get("player")):
            if isinstance(value, str) and value != "croupier":
                ids.add(value)
        for claim in action.get("claims", []) or []:
            if isinstance(claim.get("player"), str):
                ids.add(claim["player"])
    return ids


BORN = datetime.date(1980, 1, 1)


def session_of(user: Any) -> str:
    """A logged-in session of `user`, made as `django.contrib.auth.login` makes one."""
    from importlib import import_module

    from django.conf import settings
    from django.utils.module_loading import import_string

    store = import_module(settings.SESSION_ENGINE).SessionStore()
    store["_auth_user_id"] = str(user.pk)
    # The backend that authenticated him, as a login records it: the first that can give the
    # user back (django-axes's backend, first in the list, only checks for lockouts).
    store["_auth_user_backend"] = next(
        path
        for path in settings.AUTHENTICATION_BACKENDS
        if hasattr(import_string(path), "get_user")
    )
    store["_auth_user_hash"] = user.get_session_auth_hash()
    store.create()
    return str(store.session_key)


def data_create(clients_per_phase: tuple[int, ...], requests: int) -> list[list[Assignment]]:
    """Croupiers, players and opened table sessions: enough worked examples for each client's
    share of the requests (plus one), every example at a table of its own."""
    import django

    django.setup()
    from django.contrib.auth.models import Group, User
    from django.core.management import call_command
    from django.db import connections

    from establishment.models import Player
    from establishment.roles import Role
    from establishment.services import gaming_session_open
    from tables.models import AssignmentRole
    from tables.services import staff_assign, table_create, table_session_open

    call_command("migrate", verbosity=0, interactive=False)
    call_command("collectstatic", verbosity=0, interactive=False)  # DEBUG is off: a manifest
    manager = User.objects.create_user("load-manager", password=PASSWORD)
    manager.groups.add(Group.objects.get(name=Role.MANAGER))
    gaming_session = gaming_session_open(opened_by=manager)
    corpus = examples()
    cycle = itertools.cycle(range(len(corpus)))
    numbers = itertools.count(100)
    phases: list[list[Assignment]] = []
    for phase, clients in enumerate(clients_per_phase):
        share = requests // clients + 1
        assignments = []
        for client in range(clients):
            croupier = User.objects.create_user(f"load-{phase}-{client}", password=PASSWORD)
            croupier.groups.add(Group.objects.get(name=Role.CROUPIER))
            assignment = Assignment(croupier.username)
            planned = 0
            while planned < share:
                scenario = corpus[next(cycle)]
                number = next(numbers)
                ids = {pid: f"L{number}-{pid}" for pid in player_ids(scenario)}
                Player.objects.bulk_create(
                    # With the identity the door took: the table refuses a player without one.
                    [
                        Player(
                            member_number=code,
                            name=f"Load {code}",
                            surname=code,
                            first_names="Load",
                            birth_date=BORN,
                        )
                        for code in ids.values()
                    ]
                )
                table = table_create(
                    created_by=manager,
                    number=number,
                    game=scenario["game"],
                    settings=scenario.get("settings", {}),
                    seat_count=scenario.get("seat_count"),
                )
                opened = table_session_open(
                    table=table,
                    gaming_session=gaming_session,
                    opened_by=manager,
                    seats={int(seat): ids[pid] for seat, pid in scenario.get("seats", {}).items()},
                    standing=[ids[pid] for pid in scenario.get("standing", [])],
                )
                # The table's own croupier, logged in ahead (his session made here: a login's
                # password hash is a third of a second of CPU, no part of an action).
                on_duty = User.objects.create_user(f"load-{phase}-{client}-{number}")
                on_duty.groups.add(Group.objects.get(name=Role.CROUPIER))
                staff_assign(
                    table_session=opened,
                    staff=on_duty,
                    role=AssignmentRole.CROUPIER,
                    assigned_by=manager,
                )
                assignment.tables.append(
                    (str(opened.public_id), scenario, ids, session_of(on_duty))
                )
                planned += sum(1 for a in scenario["actions"] if "expect_error" not in a)
            assignments.append(assignment)
        phases.append(assignments)
    connections.close_all()
    return phases


# -- one croupier's browser ---------------------------------------------------------------------


class Browser:
    """Cookies, CSRF and the screen's meta, over one keep-alive connection to the server."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.cookies: dict[str, str] = {}
        self.meta: dict[str, str] = {}
        self.kept: dict[str, None] = {}
        self.regions: list[str] = []
        self.sizes = (0, 0)

    def request(
        self, method: str, path: str, body: Mapping[str, Any] | list[tuple[str, Any]] | None = None
    ) -> tuple[int, str]:
        # As a browser: answers come compressed (GZipMiddleware); `sizes` keeps the last one's
        # bytes on the wire and of HTML.
        headers = {
            "Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items()),
            "Accept-Encoding": "gzip",
        }
        data = None
        if body is not None:
            data = urlencode(body, doseq=True)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["X-CSRFToken"] = self.cookies.get("csrftoken", "")
            headers["HX-Request"] = "true"
        for attempt in range(2):
            try:
                self.connection.request(method, path, body=data, headers=headers)
                response = self.connection.getresponse()
                raw = response.read()
                html = gzip.decompress(raw) if response.getheader("Content-Encoding") else raw
                self.sizes = (len(raw), len(html))
                text = html.decode()
                break
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                self._reconnect()
                if attempt:
                    raise
        if (response.getheader("Connection") or "").lower() == "close":
            # gunicorn's sync workers close the connection after each answer, as a browser
            # sees it: the next request opens a new one (not a write on the closed one first).
            self._reconnect()
        for header in response.headers.get_all("Set-Cookie") or []:
            cookie = SimpleCookie(header)
            self.cookies.update({key: morsel.value for key, morsel in cookie.items()})
        return response.status, text

    def _reconnect(self) -> None:
        self.connection.close()
        self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)

    def login(self, username: str) -> None:
        self.request("GET", "/login/")
        status, _text = self.request(
            "POST",
            "/login/",
            {
                "username": username,
                "password": PASSWORD,
                "csrfmiddlewaretoken": self.cookies["csrftoken"],
            },
        )
        assert status == 302, f"login of {username}: {status}"

    def open(self, table_session: str) -> None:
        status, page = self.request("GET", f"/console/tables/{table_session}/")
        assert status == 200, status
        self.regions = re.findall(r'data-regions="([^"]*)"', page)[0].split()
        self.take_meta(page)
        self.kept = dict.fromkeys(self.region_digests().values())

    def take_meta(self, body: str) -> None:
        start = body.index('id="screen-meta"')
        meta = body[start : body.index("</div>", start)]
        self.meta = dict(re.findall(r'name="(\w+)" value="([^"]*)"', meta))
        digests = self.region_digests()
        for name in re.findall(r'<\w+ hx-swap-oob="true" id="table-(\w+)"', body):
            self.kept[digests[name]] = None
        while len(self.kept) > 64:  # console.js keeps 64 regions
            del self.kept[next(iter(self.kept))]

    def region_digests(self) -> dict[str, str]:
        digests = [item for item in self.meta["screen"].split() if ":" not in item]
        return dict(zip(self.regions, digests, strict=True))


def form_data(action: Mapping[str, Any], ids: Mapping[str, str]) -> list[tuple[str, Any]]:
    """An engine action as the console's form posts it (tables/console/forms.py)."""

    def who(value: Any) -> str:
        return str(value) if isinstance(value, int) else ids.get(str(value), str(value))

    data: list[tuple[str, Any]] = [("type", action["type"]), ("actor", who(action["actor"]))]
    for name, value in action.items():
        if name in ("type", "actor", "expect_error"):
            continue
        if name == "claims":
            for claim in value:
                data.append(("claim", f"{who(claim['player'])}:{claim['kind']}"))
                if "amount" in claim:
                    data.append((f"claim_amount_{who(claim['player'])}", claim["amount"]))
        elif isinstance(value, list):
            data += [(name, item) for item in value]
        elif isinstance(value, bool):
            data.append((name, "yes" if value else "no"))
        else:
            data.append((name, who(value)))
    return data


@dataclass
class Results:
    times: list[float] = field(default_factory=list)
    sizes: list[tuple[int, int]] = field(default_factory=list)  # (on the wire, HTML) per post
    statuses: Counter[int] = field(default_factory=Counter)
    stale: Counter[int] = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


def client_run(
    browser: Browser,
    assignment: Assignment,
    budget: Iterator[int],
    deadline: float,
    results: Results,
) -> None:
    posts = 0
    for table_session, scenario, ids, session_key in assignment.tables:
        browser.cookies["sessionid"] = session_key
        browser.open(table_session)
        path = f"/console/tables/{table_session}/record/"
        for action in scenario["actions"]:
            if "expect_error" in action:
                continue
            if time.monotonic() > deadline or next(budget, None) is None:
                return
            posts += 1
            if posts % STALE_EVERY == 0:
                # A second screen that had not seen the last action: refused, 409, redrawn.
                stale = [
                    *form_data(action, ids),
                    ("expected_seq", int(browser.meta["expected_seq"]) - 1),
                    ("key", secrets.token_hex(8)),
                    ("screen", browser.meta["screen"]),
                ]
                status, body = browser.request("POST", path, stale)
                with results.lock:
                    results.stale[status] += 1
                if status == 409:
                    browser.take_meta(body)
            body_data = [
                *form_data(action, ids),
                *browser.meta.items(),
                ("cached", " ".join(browser.kept)),
            ]
            started = time.perf_counter()
            status, body = browser.request("POST", path, body_data)
            elapsed = (time.perf_counter() - started) * 1000
            with results.lock:
                results.times.append(elapsed)
                results.sizes.append(browser.sizes)
                results.statuses[status] += 1
                if status != 200:
                    results.errors.append(f"{status} {scenario['name']} {action}: {body[:300]}")
            if status != 200:
                break  # this table's example is off its rails: on to the next table
            browser.take_meta(body)


class Budget(Iterator[int]):
    """The posts a phase may still send, shared by its clients (a bound on the run)."""

    def __init__(self, size: int) -> None:
        self.left = size
        self.lock = threading.Lock()

    def __next__(self) -> int:
        with self.lock:
            if self.left <= 0:
                raise StopIteration
            self.left -= 1
            return self.left


def phase_run(
    port: int, assignments: list[Assignment], requests: int, seconds: float
) -> tuple[Results, float]:
    results = Results()
    budget = Budget(requests)
    # The croupiers log in before the clock starts, as they do before the tables open: a
    # login's password hash (PBKDF2, a third of a second of CPU) is no part of an action.
    browsers = []
    for assignment in assignments:
        browser = Browser(port)
        browser.login(assignment.username)
        browsers.append(browser)
    deadline = time.monotonic() + seconds
    threads = [
        threading.Thread(
            target=client_run, args=(browser, a, budget, deadline, results), daemon=True
        )
        for browser, a in zip(browsers, assignments, strict=True)
    ]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=seconds + 60)
    return results, time.monotonic() - started


def report(clients: int, results: Results, elapsed: float) -> None:
    times = results.times
    if not times:
        print(f"{clients} in flight: no request completed")
        return
    unexpected = sum(n for status, n in results.statuses.items() if status != 200)
    print(
        f"{clients:>2} in flight: {len(times)} posts in {elapsed:.1f} s "
        f"({len(times) / elapsed:.0f}/s); latency ms p50 {percentile(times, 50):.1f}, "
        f"p95 {percentile(times, 95):.1f}, p99 {percentile(times, 99):.1f}, "
        f"max {max(times):.1f}, mean {statistics.mean(times):.1f}; "
        f"unexpected statuses {unexpected} {dict(results.statuses)}; "
        f"deliberate stale posts {dict(results.stale)}"
    )
    if results.sizes:
        wire = sorted(w for w, _h in results.sizes)
        html = sorted(h for _w, h in results.sizes)
        print(
            "    bytes per answer, on the wire (gzip) / HTML: "
            f"median {statistics.median(wire):.0f} / {statistics.median(html):.0f}, "
            f"p95 {percentile(wire, 95):.0f} / {percentile(html, 95):.0f}, "
            f"max {wire[-1]} / {html[-1]}"
        )
    if len(times) >= 400:
        # Latencies in the order the answers came: a run that slows as the books grow shows
        # it here (each client's tables are new, so the database grows through the run).
        quarter = len(times) // 4
        parts = [times[i * quarter : (i + 1) * quarter] for i in range(4)]
        print(
            "    p95 by quarter of the run, ms:",
            " / ".join(f"{percentile(p, 95):.1f}" for p in parts),
        )
    for line in results.errors[:5]:
        print("   ", line)


def bench_env(folder: Path, cache_url: str = "") -> dict[str, str]:
    """The product's environment for a bench run in `folder` (also set in this process, which
    fills the database): production settings on loopback, SQLite in `folder` unless
    DATABASE_URL is set, sessions from `cache_url` if given."""
    env = {
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "HOME": os.environ.get("HOME", "/tmp"),
        "DJANGO_SETTINGS_MODULE": "casino.settings",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DJANGO_DEBUG": "false",
        # Plain HTTP on loopback: no TLS redirect, cookies without the Secure flag.
        "DJANGO_SECURE_SSL_REDIRECT": "false",
        "DJANGO_SECURE_COOKIES": "false",
        "DJANGO_LOG_LEVEL": "WARNING",
        "SQLITE_PATH": str(folder / "db.sqlite3"),
        "DJANGO_STATIC_ROOT": str(folder / "static"),
    }
    if os.environ.get("DATABASE_URL"):
        env["DATABASE_URL"] = os.environ["DATABASE_URL"]
    if cache_url:
        env["DJANGO_CACHE_URL"] = cache_url
    os.environ.update(env)
    sys.path.insert(0, str(ROOT))
    return env


@contextmanager
def served(env: dict[str, str], folder: Path, workers: int = 0) -> Iterator[int]:
    """The product under gunicorn (deploy/gunicorn.conf.py) on a free loopback port, ready."""
    port = free_port()
    server_env = env | {"GUNICORN_BIND": f"127.0.0.1:{port}", "GUNICORN_LOG_LEVEL": "warning"}
    if workers:
        server_env["GUNICORN_WORKERS"] = str(workers)
    log = (folder / "gunicorn.log").open("w")
    server = subprocess.Popen(
        [
            str(Path(sys.executable).parent / "gunicorn"),
            "-c",
            str(ROOT / "deploy" / "gunicorn.conf.py"),
            "--access-logfile",
            "/dev/null",
            "casino.wsgi:application",
        ],
        cwd=ROOT,
        env=server_env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
                connection.request("GET", "/login/")
                connection.getresponse().read()
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise RuntimeError((folder / "gunicorn.log").read_text()) from None
                time.sleep(0.2)
        yield port
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
        log.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=2000, help="posts per phase (bound)")
    parser.add_argument("--seconds", type=float, default=120, help="time limit per phase")
    parser.add_argument("--workers", type=int, default=0, help="gunicorn workers (0: its conf)")
    parser.add_argument(
        "--cache-url",
        default=os.environ.get("DJANGO_CACHE_URL", ""),
        help="the shared cache of deploy/.env.example (redis://…): sessions read from it",
    )
    parser.add_argument("--phases", default=",".join(map(str, PHASES)), help="in flight, each")
    args = parser.parse_args()
    phases = tuple(int(n) for n in args.phases.split(","))

    folder = Path(tempfile.mkdtemp(prefix="console-load-"))
    env = bench_env(folder, args.cache_url)
    print(f"database: {'PostgreSQL' if 'DATABASE_URL' in env else 'SQLite ' + str(folder)}")
    print(f"shared cache (sessions): {args.cache_url or 'none, sessions in the database'}")
    started = time.monotonic()
    plan = data_create(phases, args.requests)
    tables = sum(len(a.tables) for p in plan for a in p)
    print(f"set up {tables} table sessions in {time.monotonic() - started:.0f} s")

    with served(env, folder, args.workers) as port:
        for clients, assignments in zip(phases, plan, strict=True):
            results, elapsed = phase_run(port, assignments, args.requests, args.seconds)
            report(clients, results, elapsed)
    print(f"server log: {folder / 'gunicorn.log'}")


if __name__ == "__main__":
    main()
