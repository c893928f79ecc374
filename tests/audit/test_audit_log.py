"""The audit log read back (docs/audit.md): filtered by person, table, action and time, newest
first, by keyset pages that neither repeat nor skip a row, the same on screen, in the CSV and in
the API; bad filters refused with the reason, changing nothing."""

from __future__ import annotations

import csv
import io
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from establishment.errors import InvalidInputError
from establishment.models import AuditEntry
from establishment.roles import Role
from establishment.services import audit
from reports.audit.log import AuditLogFilter, audit_log_chunks, audit_log_page, cursor_decode
from tests.api.fixtures import open_table
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def log() -> dict[str, Any]:
    """Two tables at work and a clerk at the door: 120 rows of the same instant and of others,
    besides what opening the tables wrote."""
    first = open_table(number=3)
    second = open_table(number=4)
    clerk = UserFactory.create(username="clerk", roles=[Role.RECEPTION])
    now = timezone.now()
    same = now - timedelta(hours=1)
    for n in range(60):
        # Thirty rows share one instant: a page boundary falls inside them.
        at = same if n < 30 else now - timedelta(minutes=n)
        audit(user=first.croupier, action="sabot_open", table_session=first.table_session, at=at)
        audit(user=clerk, action="admission_check", at=at - timedelta(seconds=1), n=n)
    audit(user=second.croupier, action="sabot_open", table_session=second.table_session)
    auditor = UserFactory.create(username="auditor", roles=[Role.AUDITOR])
    return {"first": first, "second": second, "clerk": clerk, "auditor": auditor, "now": now}


def _walk(wanted: AuditLogFilter, size: int) -> list[int]:
    seen: list[int] = []
    cursor = ""
    while True:
        page = audit_log_page(wanted, cursor=cursor, size=size)
        seen.extend(row.pk for row in page.rows)
        if not page.next_cursor:
            return seen
        cursor = page.next_cursor


def _expected(**filters: Any) -> list[int]:
    return list(
        AuditEntry.objects.filter(**filters).order_by("-at", "-pk").values_list("pk", flat=True)
    )


@pytest.mark.parametrize("size", [1, 7, 29, 50, 500])
def test_pages_neither_repeat_nor_skip_a_row(log: dict[str, Any], size: int) -> None:
    assert _walk(AuditLogFilter(), size) == _expected()


def test_filters_by_person_table_action_and_time(log: dict[str, Any]) -> None:
    first = log["first"]
    assert _walk(AuditLogFilter(actor="clerk"), 13) == _expected(actor=log["clerk"])
    by_table = _walk(AuditLogFilter(table=3), 11)
    assert by_table == _expected(table_session_id=first.table_session.pk)
    assert len(by_table) >= 60
    assert _walk(AuditLogFilter(action="sabot_open", table=4), 5) == _expected(
        action="sabot_open", table_session_id=log["second"].table_session.pk
    )
    since, until = log["now"] - timedelta(minutes=40), log["now"] - timedelta(minutes=35)
    in_window = _walk(AuditLogFilter(since=since, until=until), 3)
    assert in_window == _expected(at__gte=since, at__lt=until)
    assert len(in_window) == 10  # minutes 36..40 included, 35 excluded, two rows each
    assert _walk(AuditLogFilter(actor="nobody"), 10) == []


def test_a_cursor_not_given_by_the_log_is_refused(log: dict[str, Any]) -> None:
    for bad in ("nonsense", "bm9waXBl", "MjAyNi0xMi0wMXwxMg"):  # "nope", a naive time
        with pytest.raises(InvalidInputError) as refused:
            cursor_decode(bad)
        assert "cursor" in refused.value.fields


def test_the_screen_shows_the_rows_and_pages_on(log: dict[str, Any]) -> None:
    client = Client()
    client.force_login(log["auditor"])
    page = client.get("/audit/log/", {"actor": "clerk"})
    assert page.status_code == 200
    html = page.content.decode()
    assert html.count("<code>admission_check</code>") == 50
    assert 'data-testid="audit-older"' in html
    older = client.get(
        "/audit/log/", {"actor": "clerk", "cursor": page.context["next_query"].split("cursor=")[1]}
    )
    assert older.content.decode().count("<code>admission_check</code>") == 10
    assert 'data-testid="audit-older"' not in older.content.decode()


def test_the_screen_refuses_bad_filters_in_place(log: dict[str, Any]) -> None:
    client = Client()
    client.force_login(log["auditor"])
    before = AuditEntry.objects.count()
    for query in ({"table": "three"}, {"since": "yesterday"}, {"cursor": "nonsense"}):
        page = client.get("/audit/log/", query)
        assert page.status_code == 400
        assert 'role="alert"' in page.content.decode()
    assert AuditEntry.objects.count() == before


def test_only_auditors_and_managers_read_the_log(log: dict[str, Any]) -> None:
    client = Client()
    client.force_login(log["clerk"])
    assert client.get("/audit/log/").status_code == 403
    assert client.get("/audit/log.csv").status_code == 403
    api = APIClient()
    api.force_authenticate(log["clerk"])
    refused = api.get("/api/audit-log/")
    assert refused.status_code == 403
    assert refused.json()["code"] == "permission_denied"


def test_the_csv_holds_every_selected_row(log: dict[str, Any]) -> None:
    client = Client()
    client.force_login(log["auditor"])
    answer = client.get("/audit/log.csv", {"table": "3"})
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/csv")
    body = b"".join(answer.streaming_content)  # type: ignore[attr-defined]
    rows = list(csv.DictReader(io.StringIO(body.decode())))
    expected = AuditEntry.objects.filter(table_session_id=log["first"].table_session.pk)
    assert [row["public_id"] for row in rows] == [
        str(p) for p in expected.order_by("-at", "-pk").values_list("public_id", flat=True)
    ]
    assert {row["table"] for row in rows} == {"3"}
    assert sum(len(chunk) for chunk in audit_log_chunks(AuditLogFilter(table=3))) == len(rows)


def test_the_api_pages_as_the_screen(log: dict[str, Any]) -> None:
    api = APIClient()
    api.force_authenticate(log["auditor"])
    seen: list[str] = []
    query: dict[str, Any] = {"action": "admission_check", "actor": "clerk", "page_size": 25}
    while True:
        answer = api.get("/api/audit-log/", query)
        assert answer.status_code == 200
        body = answer.json()
        seen.extend(row["public_id"] for row in body["results"])
        assert all(row["actor"] == "clerk" and row["table"] is None for row in body["results"])
        if body["next"] is None:
            break
        query["cursor"] = body["next"]
    assert len(seen) == len(set(seen)) == 60
    for bad in ({"page_size": 0}, {"page_size": "null"}, {"table": "x"}, {"since": "soon"}):
        refused = api.get("/api/audit-log/", bad)
        assert refused.status_code == 400, bad
    wrong_cursor = api.get("/api/audit-log/", {"cursor": "nonsense"})
    assert wrong_cursor.status_code == 422  # well formed, not one the log gave
    assert "cursor" in wrong_cursor.json()["extra"]["fields"]
