"""The journal of another process caught up event by event equals the journal replayed whole.

(tables/services/journal.py `_caught_up`, added for the console under gunicorn: each worker
has its own cache, so the events another worker recorded are applied to the newest journal
this one has, instead of replaying the whole night.)
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tables.services import writing
from tables.services.journal import _events_of, journal_build, journal_cache, journal_get
from tests.console.conftest import Floor
from tests.console.test_views import post_action, table_url

pytestmark = pytest.mark.django_db


def _steps(client: Client, floor: Floor, steps: list[tuple[str, dict[str, Any]]]) -> None:
    for action_type, params in steps:
        body = client.get(table_url(floor)).content.decode()
        assert post_action(client, floor, action_type, body, **params).status_code == 200


def test_a_journal_caught_up_equals_the_whole_replay(floor: Floor, croupier_client: Client) -> None:
    _steps(croupier_client, floor, [("new_shoe", {"actor": "croupier", "cut_by": 1})])
    journal_get(floor.table_session)  # this process has seen the table up to here
    older = journal_get(floor.table_session).last_seq
    # Then "another worker" records: here, the cache forgets all but the older journal.
    _steps(
        croupier_client,
        floor,
        [
            ("announce_bank", {"actor": "1", "amount": 1000}),
            ("banco_call", {"actor": "croupier", "claim": "3:banco"}),
        ],
    )
    kept = journal_cache.get((str(floor.table_session.public_id), older))
    assert kept is not None
    journal_cache.clear()
    journal_cache.put((str(floor.table_session.public_id), older), kept)

    caught_up = journal_get(floor.table_session)
    whole = journal_build(floor.table_session, _events_of(floor.table_session))

    assert caught_up.last_seq == whole.last_seq > older
    assert caught_up.state == whole.state and caught_up.pending == whole.pending


def test_an_undo_since_makes_the_whole_replay(floor: Floor, croupier_client: Client) -> None:
    _steps(croupier_client, floor, [("new_shoe", {"actor": "croupier", "cut_by": 1})])
    older = journal_get(floor.table_session)
    body = croupier_client.get(table_url(floor)).content.decode()
    fields = dict(re.findall(r'name="(\w+)" value="([^"]*)"', body.split('id="screen-meta"')[1]))
    croupier_client.post(table_url(floor, "undo"), fields, headers={"HX-Request": "true"})
    journal_cache.clear()
    journal_cache.put((str(floor.table_session.public_id), older.last_seq), older)

    after = journal_get(floor.table_session)

    assert after.state == journal_build(floor.table_session, _events_of(floor.table_session)).state
    assert after.state != older.state  # the shoe was set aside


@pytest.fixture
def remembered_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A recorded journal cached at once, as the commit does in production (this test's
    transaction never commits, so `journal_remember`'s on-commit hook would never run)."""

    def remember(table_session: Any, journal: Any) -> None:
        journal_cache.put((str(table_session.public_id), journal.last_seq), journal)

    monkeypatch.setattr(writing, "journal_remember", remember)


def test_a_post_after_another_workers_reads_the_missing_events_with_the_lock(
    floor: Floor, croupier_client: Client, remembered_at_once: None
) -> None:
    """The events another worker recorded are read with the table's lock (one more statement
    in the same round trip on PostgreSQL), not by a catch-up query of their own; the journal
    the post leaves equals the whole replay."""
    _steps(croupier_client, floor, [("new_shoe", {"actor": "croupier", "cut_by": 1})])
    older = journal_get(floor.table_session)
    _steps(croupier_client, floor, [("announce_bank", {"actor": "1", "amount": 1000})])
    body = croupier_client.get(table_url(floor)).content.decode()
    journal_cache.clear()  # "another worker" recorded the bank: this one knows only `older`
    journal_cache.put((str(floor.table_session.public_id), older.last_seq), older)

    with CaptureQueriesContext(connection) as queries:
        answer = post_action(
            croupier_client, floor, "banco_call", body, actor="croupier", claim="3:banco"
        )

    assert answer.status_code == 200
    reads = [q["sql"] for q in queries.captured_queries if "seq >" in q["sql"]]
    assert len(reads) == 1, reads  # the tail, read once, with the lock: the screen needs none
    head = next(
        n for n, q in enumerate(queries.captured_queries) if "AND idempotency_key =" in q["sql"]
    )  # the journal's head (tables/sql.py, `head_sql`)
    assert "seq >" in queries.captured_queries[head + 1]["sql"]  # the lock, the head, the tail
    whole = journal_build(floor.table_session, _events_of(floor.table_session))
    after = journal_cache.get((str(floor.table_session.public_id), whole.last_seq))
    assert after is not None and after.state == whole.state and after.pending == whole.pending
    assert whole.last_seq == older.last_seq + 2


def test_a_post_from_a_worker_that_is_up_to_date_reads_no_tail(
    floor: Floor, croupier_client: Client, remembered_at_once: None
) -> None:
    _steps(croupier_client, floor, [("new_shoe", {"actor": "croupier", "cut_by": 1})])
    body = croupier_client.get(table_url(floor)).content.decode()

    with CaptureQueriesContext(connection) as queries:
        answer = post_action(croupier_client, floor, "announce_bank", body, actor="1", amount=1000)

    assert answer.status_code == 200
    assert not [q["sql"] for q in queries.captured_queries if "seq >" in q["sql"]]
