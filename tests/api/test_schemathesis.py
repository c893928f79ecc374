"""Schemathesis against /api/schema/, in process (the WSGI app), logged in with a token.

At least 1 000 generated requests across every operation, half of them aimed at objects that
exist (an open table of each game, a settled coup, a pending void request) so they get past
the 404s; no response may be a 500, have a status, a content type, headers or a body the
schema does not describe. Runs in CI (marked `slow`); about a minute on SQLite.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from django.utils import timezone
from hypothesis import HealthCheck, Phase, given, settings, strategies as st
from rest_framework.authtoken.models import Token
from schemathesis import APIOperation
from schemathesis.checks import not_a_server_error
from schemathesis.core.result import Ok
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from establishment.roles import Role
from tables.models import Coup, TableSession
from tables.services import table_create, table_session_open, void_request
from tables.services.journal import last_seq_get
from tests.api.fixtures import open_table, settlement_report_make
from tests.api.test_play import COUP, play
from tests.factories import GamingSessionFactory, UserFactory

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]
EXAMPLES_PER_OPERATION = 40
MINIMUM_REQUESTS = 1_000


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
    }


def _order(operation: APIOperation[Any, Any, Any, Any]) -> tuple[int, str]:
    """Reads first, then writes; interrupting, restarting and closing last, so that most
    requests meet open tables where play goes on."""
    label = operation.label
    for rank, word in enumerate(("/interrupt/", "/resume/", "close/"), start=2):
        if word in label:
            return rank, label
    return (0 if operation.method.upper() == "GET" else 1), label


def _exchange(
    operation: APIOperation[Any, Any, Any, Any],
    known: dict[str, str],
    auth: dict[str, str],
    seen: Counter[Any],
) -> Callable[[], None]:
    """A Hypothesis test of one operation: generated cases, half of them at known objects."""
    wanted = {p.name: known[p.name] for p in operation.path_parameters if p.name in known}
    strategy = operation.as_strategy()
    if wanted:
        strategy = st.one_of(strategy, operation.as_strategy(path_parameters=wanted))

    @given(case=strategy, in_step=st.booleans())
    @settings(
        max_examples=EXAMPLES_PER_OPERATION,
        deadline=None,
        derandomize=True,
        database=None,
        phases=[Phase.explicit, Phase.generate, Phase.shrink],
        suppress_health_check=list(HealthCheck),
    )
    def exchange(case: Any, in_step: bool) -> None:
        table_session_id = (case.path_parameters or {}).get("table_session_id")
        body = case.body if isinstance(case.body, dict) else None
        if in_step and body is not None and "expected_seq" in body:
            # Half the journal writes carry the sequence number the table expects, so they
            # reach the rules instead of stopping at 409 stale_sequence.
            found = TableSession.objects.filter(public_id=str(table_session_id)).first()
            if found is not None:
                body["expected_seq"] = last_seq_get(found) + 1
        response = case.call(headers=auth)
        case.validate_response(response, checks=CHECKS, headers=auth)
        seen[(operation.label, response.status_code)] += 1

    return exchange


@contextmanager
def connections_kept() -> Iterator[None]:
    """Call the project's WSGI application in process, within the test's transaction.

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


def test_the_api_answers_as_its_schema_says(client_for: Any) -> None:
    known = _known_objects(client_for)
    user = UserFactory.create(roles=[Role.INSPECTOR, Role.MANAGER, Role.AUDITOR])
    token = Token.objects.create(user=user)
    # The in-process WSGI transport does not inflate a gzip body (GZipMiddleware answers
    # gzip when asked, as schemathesis's HTTP client does by default): ask for none.
    auth = {"Authorization": f"Token {token.key}", "Accept-Encoding": "identity"}
    seen: Counter[tuple[str, int]] = Counter()

    with connections_kept():
        app = get_wsgi_application()
        schema = schemathesis.openapi.from_wsgi("/api/schema/", app, headers=auth)
        operations = sorted(
            (result.ok() for result in schema.get_all_operations() if isinstance(result, Ok)),
            key=_order,
        )
        for operation in operations:
            _exchange(operation, known, auth, seen)()

    assert len(operations) >= 45

    assert seen.total() >= MINIMUM_REQUESTS
    # Every operation answered, and the writes got past the checks to the services and rules.
    assert {label for label, _status in seen} == {operation.label for operation in operations}
    record = "POST /api/table-sessions/{table_session_id}/record/"
    assert seen[(record, 422)] > 0  # the engine refused generated actions with its codes
    assert sum(n for (label, status), n in seen.items() if status < 300) >= 300
