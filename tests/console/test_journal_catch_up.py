"""The journal of another process caught up event by event equals the journal replayed whole.

(tables/services/journal.py `_caught_up`, added for the console under gunicorn: each worker
has its own cache, so the events another worker recorded are applied to the newest journal
this one has, instead of replaying the whole night.)
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

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
