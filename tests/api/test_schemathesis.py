"""Schemathesis against /api/schema/: every operation, every phase, every check that applies.

Schemathesis's own engine runs its four phases — examples, coverage (the edges of each schema,
valid and invalid), fuzzing (generated valid and invalid requests), stateful (walks following
the schema's OpenAPI links, tables/api/links.py) — against the project served over HTTP by a
thread of this test, logged in with a token. Half the path parameters name objects that exist
(an open table of each game, a settled coup, a pending void request), so requests get past the
404s to the rules.

No check may fail: no 500, no status, content type or header the schema does not describe, no
body off its schema; a request the schema forbids is refused (`negative_data_rejection`) and
one it allows is not refused as malformed (`positive_data_acceptance`, see `CONFIG`); an
operation that needs a token refuses a request without one (`ignored_auth`); a method the path
does not have answers 405 with its `Allow` (`unsupported_method`, `allow_header_conformance`).
Left out: `max_response_time`, not set (CI machines are shared; speed is the benches',
docs/conventions.md) and `object_level_authorization` (it needs two users' resources declared to
it; who may see what is tests/api/test_permissions.py's).

At least 10,000 requests in all, counted and printed per phase; the stateful phase must reach
the engine through the links at least once: a record sent with the séance's current number
(from the state's link), recorded (2xx) or refused by the game's rules for the state the table
is in (422). Which of the two depends on the walk the seed draws from the schema and the data.
The walk cannot take the token's user's roles away (`POST /api/staff/{username}/roles/`):
nobody changes his own roles. Marked `slow`: about two minutes on SQLite.
"""

from __future__ import annotations

import threading
import traceback
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

import pytest
import schemathesis
from django.core.signals import got_request_exception, request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections, connections
from django.utils import timezone
from rest_framework.authtoken.models import Token
from schemathesis.config import SchemathesisConfig
from schemathesis.engine import events, from_schema

from establishment.roles import Role
from tables.models import Coup
from tables.services import table_create, table_session_open, void_request
from tests.api.fixtures import open_table, settlement_report_make
from tests.api.test_play import COUP, play
from tests.factories import GamingSessionFactory, UserFactory

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

MINIMUM_REQUESTS = 10_000
# The least each phase sends (below what a run sends, whatever the database).
MINIMUM_PER_PHASE = {"examples": 150, "coverage": 3_000, "fuzzing": 4_000, "stateful": 200}
RECORD = "POST /api/table-sessions/{table_session_id}/record/"

CONFIG: dict[str, Any] = {
    "seed": 20_261_201,
    "max-failures": 1_000_000,  # report every failure, not the first
    "suppress-health-check": ["all"],
    "cache": {"enabled": False},  # nothing kept between runs, nothing written to the tree
    "generation": {
        "deterministic": True,
        "database": "none",
        "max-examples": 80,
        # Django refuses NUL in any text (tests/api/test_input_types.py); PostgreSQL could not
        # store it.
        "allow-x00": False,
    },
    "checks": {
        "enabled": True,
        "object_level_authorization": {"enabled": False},
        # 400 says the request does not match the schema; a request that does may still be
        # refused by a rule the schema cannot say (422: a number already in service, a cross-
        # field bound, the engine's settings) or by the state of things (404, 409).
        "positive_data_acceptance": {
            "expected-statuses": ["2xx", "401", "403", "404", "409", "422", "429"]
        },
    },
    "phases": {
        "examples": {"enabled": True, "fill-missing": True},
        "coverage": {"enabled": True},
        "fuzzing": {"enabled": True},
        "stateful": {"enabled": True, "max-steps": 20, "generation": {"max-examples": 300}},
    },
}


def _known_objects(client_for: Any) -> dict[str, str]:
    """Objects for path parameters: a table with a settled coup and a pending void request,
    and two more tables open in the same gaming session."""
    table = open_table(number=11)
    play(client_for(table.croupier), table, COUP)
    coup = Coup.objects.get(table_session=table.table_session)
    asked = void_request(coup=coup, user=table.croupier, reason="schema test")
    for number, game in ((12, "lansquenet_moderne"), (13, "pontoon")):
        other = table_create(number=number, game=game, created_by=table.manager)
        table_session_open(
            table=other, gaming_session=table.gaming_session, opened_by=table.manager
        )
    # A report is a closed night's (and one night only is open at a time).
    closed = timezone.now()
    report = settlement_report_make(
        GamingSessionFactory.create(
            opened_at=closed - timedelta(hours=8), closed_at=closed, closed_by=table.manager
        )
    )
    seated = table.table_session.seat_occupancies.select_related("player").first()
    assert seated is not None
    return {
        "table_session_id": str(table.table_session.public_id),
        "gaming_session_id": str(table.gaming_session.public_id),
        "table_id": str(table.table_session.table.public_id),
        "coup_id": str(coup.public_id),
        "void_request_id": str(asked.public_id),
        "player_id": str(seated.player.public_id),
        "report_id": str(report.public_id),
        "name": "players.csv",
        "username": table.croupier.username,
    }


def _config(known: dict[str, str], auth: dict[str, str]) -> SchemathesisConfig:
    """`CONFIG`, the token, and each known object as the value of its path parameter in half
    the requests (a dictionary of one value, drawn with probability 0.5)."""
    return SchemathesisConfig.from_dict(
        {
            **CONFIG,
            "headers": auth,
            "dictionaries": {name: {"values": [value]} for name, value in known.items()},
            "parameters": {
                f"path.{name}": {"dictionary": name, "probability": 0.5} for name in known
            },
        }
    )


@contextmanager
def connections_kept() -> Iterator[None]:
    """Serve the project within the test's transaction.

    Django's handler closes "old" database connections when a request starts and finishes;
    inside a test transaction that drops the transaction (PostgreSQL). Django's own test client
    switches this off around each of its requests (and back on after); here it is off while
    Schemathesis sends its requests.
    """
    for signal in (request_started, request_finished):
        signal.disconnect(close_old_connections)
    try:
        yield
    finally:
        for signal in (request_started, request_finished):
            signal.connect(close_old_connections)


class _Quiet(WSGIRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        """No line per request on the test's output."""


@contextmanager
def served() -> Iterator[str]:
    """The project's WSGI application on a local port, in a thread that uses the test's own
    database connection (so it sees the test's objects, in the test's transaction) — one
    request at a time, as Schemathesis sends them with one worker. Yields the base URL.

    Over HTTP rather than Schemathesis's in-process WSGI transport: its engine's checks pass
    socket options that transport does not take.
    """
    connection = connections["default"]
    connection.inc_thread_sharing()
    application = get_wsgi_application()

    def app(environ: dict[str, Any], start_response: Any) -> Any:
        connections["default"] = connection
        return application(environ, start_response)

    with connections_kept():
        server: WSGIServer = make_server("127.0.0.1", 0, app, handler_class=_Quiet)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            yield f"http://127.0.0.1:{server.server_port}"
        finally:
            server.shutdown()
            thread.join()
            server.server_close()
            connection.dec_thread_sharing()


def _failures(event: events.ScenarioFinished) -> Iterator[str]:
    for case_id, checks in event.recorder.checks.items():
        for check in checks:
            if check.failure_info is None:
                continue
            interaction = event.recorder.interactions.get(case_id)
            sent = interaction.request if interaction else None
            got = interaction.response if interaction else None
            yield (
                f"[{event.phase.value}] {check.name} {event.label}: {check.failure_info.failure}"
                f"\n  {getattr(sent, 'method', '')} {getattr(sent, 'uri', '')}"
                f"\n  body {str(getattr(sent, 'body', ''))[:300]}"
                f"\n  -> {getattr(got, 'status_code', '')} {str(getattr(got, 'content', ''))[:300]}"
            )


def test_the_api_answers_as_its_schema_says(client_for: Any) -> None:
    known = _known_objects(client_for)
    user = UserFactory.create(roles=[Role.INSPECTOR, Role.MANAGER, Role.AUDITOR])
    token = Token.objects.create(user=user)
    # schemathesis's HTTP client asks for gzip, which GZipMiddleware gives: ask for none, so
    # the bodies recorded in a failure read as sent.
    auth = {"Authorization": f"Token {token.key}", "Accept-Encoding": "identity"}

    requests: Counter[str] = Counter()
    answered: Counter[tuple[str, str, int]] = Counter()
    failures: list[str] = []
    errors: list[str] = []
    crashes: list[str] = []

    def crashed(sender: Any, request: Any, **kwargs: Any) -> None:
        crashes.append(f"{request.method} {request.get_full_path()}\n{traceback.format_exc()}")

    got_request_exception.connect(crashed)
    with served() as base_url:
        schema = schemathesis.openapi.from_url(
            f"{base_url}/api/schema/", headers=auth, config=_config(known, auth)
        )
        schema.config.base_url = base_url
        for event in from_schema(schema).execute():
            if isinstance(event, events.ScenarioFinished):
                for case_id, interaction in event.recorder.interactions.items():
                    requests[event.phase.value] += 1
                    if interaction.response is not None:
                        label = event.recorder.cases[case_id].value.operation.label
                        answered[(event.phase.value, label, interaction.response.status_code)] += 1
                failures.extend(_failures(event))
            elif isinstance(event, events.NonFatalError):
                errors.append(f"{event.label}: {event.info.title}: {event.info.message}")
    got_request_exception.disconnect(crashed)

    print("requests per phase:", dict(requests), "in all:", requests.total())
    print("stateful:", sorted((k[1:], n) for k, n in answered.items() if k[0] == "stateful"))
    assert not errors, "\n".join(errors[:20])
    assert not crashes, "\n\n".join(crashes[:5])
    assert not failures, f"{len(failures)} failures:\n" + "\n".join(failures[:30])
    assert requests.total() >= MINIMUM_REQUESTS
    for phase, least in MINIMUM_PER_PHASE.items():
        assert requests[phase] >= least, (phase, requests[phase])
    stateful_records = {
        status for phase, label, status in answered if phase == "stateful" and label == RECORD
    }
    assert any(200 <= status < 300 or status == 422 for status in stateful_records), (
        stateful_records
    )
