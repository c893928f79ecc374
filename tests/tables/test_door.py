"""The door at the table (issue 13 item 2; arrêté art. 22): a barred or under-age person is
refused when seated at the opening, sat down, added standing and named banker, with words that
say nothing more; every check is in the audit log, and a refusal's row stays although the
action is refused (the check commits on its own, before the action's transaction)."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from datetime import date
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from establishment.door import exclusion_add
from establishment.errors import ErrorCode, PlayerRefusedError
from establishment.models import AuditEntry, Player
from establishment.roles import Role
from tables.models import SeatOccupancy, TableEvent
from tables.services import table_session_open
from tables.services.journal import last_seq_get
from tests.concurrency.kit import Croupier, Floor, cf_ponte_wins, cf_table
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db
Around = Callable[[], AbstractContextManager[Any]]


def _person(code: str, surname: str, born: date) -> Player:
    return Player.objects.create(
        member_number=code,
        name=f"{surname} Jean",
        surname=surname,
        first_names="Jean",
        birth_date=born,
    )


def _bar(surname: str, born: date) -> None:
    door = UserFactory.create(roles=[Role.RECEPTION])
    exclusion_add(
        surname=surname, first_names="Jean", birth_date=born, source="ministry", added_by=door
    )


def _checks(where: str) -> list[str]:
    rows = AuditEntry.objects.filter(action="admission_check").order_by("pk")
    return [row.data["result"] for row in rows if row.data.get("where") == where]


def test_a_barred_person_is_refused_when_he_sits_down_or_stands(
    floor: Floor, around: Around
) -> None:
    table = cf_table(floor)
    _person("BARRED-1", "Interdit", date(1980, 5, 1))
    _person("GUEST-1", "Invite", date(1990, 5, 1))
    _bar("Interdit", date(1980, 5, 1))
    at = Croupier(table, floor.croupier, around)
    before = last_seq_get(table)
    opening = len(_checks("standing")), len(_checks("seat"))

    with pytest.raises(PlayerRefusedError) as refused:
        at.do("add_standing", player="BARRED-1")
    assert refused.value.code == ErrorCode.PLAYER_REFUSED
    assert refused.value.message == "This person cannot be admitted to play."
    with pytest.raises(PlayerRefusedError):
        at.do("leave", seat=6)
        at.do("sit", seat=6, player="BARRED-1")
    at.do("add_standing", player="GUEST-1")

    assert _checks("standing")[opening[0] :] == ["refused", "admitted"]
    assert _checks("seat")[opening[1] :] == ["refused"]
    assert not SeatOccupancy.objects.filter(player__member_number="BARRED-1").exists()
    actions = TableEvent.objects.filter(table_session=table, seq__gt=before)
    assert [e.action["type"] for e in actions] == ["leave", "add_standing"]


def test_an_under_age_person_is_refused_at_the_opening(floor: Floor) -> None:
    from tables.models import Table

    young = _person("YOUNG-1", "Jeune", date.today().replace(year=date.today().year - 17))
    table = Table.objects.create(number=40, game="pontoon", settings={}, seat_count=7)

    with pytest.raises(PlayerRefusedError):
        table_session_open(
            table=table,
            gaming_session=floor.gaming_session,
            opened_by=floor.inspector,
            seats={1: young.member_number},
        )

    assert not table.sessions.exists()
    assert _checks("seat") == ["refused"]
    row = AuditEntry.objects.get(action="admission_check")
    assert row.data["reason"] == "under_age"


def test_a_player_barred_during_the_night_is_refused_the_bank(floor: Floor, around: Around) -> None:
    from tables.engine import legal_action_types
    from tables.services.journal import journal_get

    table = cf_table(floor)
    seated = Player.objects.get(member_number="S2")
    seated.surname, seated.first_names, seated.birth_date = "Banquier", "Jean", date(1970, 1, 1)
    seated.save()
    _bar("Banquier", date(1970, 1, 1))
    at = Croupier(table, floor.croupier, around)
    at.do("new_shoe", cut_by=1)
    at.play(cf_ponte_wins(1000))  # the hand is then offered to seat 2 (CF-6.3)
    journal = journal_get(table, last_seq_get(table))
    assert "accept_bank" in legal_action_types(journal.game, journal.state)
    offered = last_seq_get(table)
    with pytest.raises(PlayerRefusedError):
        at.do("accept_bank", 2)
    assert _checks("banker") == ["refused"]
    assert last_seq_get(table) == offered  # nothing recorded: the hand is still on offer


def test_the_console_shows_the_refusal_in_place(floor: Floor) -> None:
    table = cf_table(floor)
    _person("BARRED-2", "Interdit", date(1980, 5, 1))
    _bar("Interdit", date(1980, 5, 1))
    client = Client()
    client.force_login(floor.croupier)
    screen = client.get(reverse("console:table", args=[table.public_id])).content.decode()
    import re

    key = re.search(r'name="key" value="([^"]+)"', screen)
    seq = re.search(r'name="expected_seq" value="(\d+)"', screen)
    assert key and seq
    answer = client.post(
        reverse("console:record", args=[table.public_id]),
        {
            "type": "add_standing",
            "actor": "croupier",
            "player": "BARRED-2",
            "expected_seq": seq.group(1),
            "key": key.group(1),
        },
        headers={"HX-Request": "true"},
    )
    assert answer.status_code == 422
    assert "This person cannot be admitted to play." in answer.content.decode()
    assert _checks("standing")[-1] == "refused"


def test_the_bank_named_through_the_consoles_reference_with_a_cold_cache(
    floor: Floor, around: Around
) -> None:
    """The console posts with a reference to the table (its key, public id and game only): the
    door's check of a banker reads the journal from the row, whatever this process cached (a
    bench found it with a worker that had never drawn the table)."""
    from tables.console.access import table_session_reference
    from tables.services import record
    from tables.services.journal import journal_cache

    table = cf_table(floor)
    at = Croupier(table, floor.croupier, around)
    at.do("new_shoe", cut_by=1)
    at.play(cf_ponte_wins(1000))
    journal_cache.clear()

    with around():
        record(
            table_session=table_session_reference(table.public_id),
            action={"type": "accept_bank", "actor": 2},
            expected_seq=last_seq_get(table) + 1,
            user=floor.croupier,
            idempotency_key="cold-cache-banker",
        )

    assert _checks("banker") == ["admitted"]
