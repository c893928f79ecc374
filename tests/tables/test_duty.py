"""Duty at a table and the close's guardrails (issue 13 items 1 and 3; arrêté art. 58, model 11
column 3 bis in docs/registers.md).

Reliefs between coups and in the middle of one; one croupier and one changeur per table; a
person at one table at a time (the service's words and the database's index); the periods
stored and shown on the floor, the table screen, the API and the report; a relieved croupier's
screen read-only; a table that does not close over an open coup or a pending void unless an
inspector forces it.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from datetime import timedelta
from typing import Any

import pytest
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from establishment.errors import ErrorCode, PermissionDeniedError
from establishment.models import AuditEntry
from establishment.roles import Role
from tables.models import AssignmentRole, CroupierAssignment, TableEvent, TableSession
from tables.selectors import staff_free_list
from tables.services import (
    StaffBusyError,
    StaffRoleError,
    staff_assign,
    staff_release,
    table_session_close,
    void_request,
)
from tables.services.sessions import CloseBlockedError
from tests.concurrency.kit import Croupier, Floor, cf_banker_wins, cf_table
from tests.factories import UserFactory

Around = Callable[[], AbstractContextManager[Any]]
HX = {"HX-Request": "true"}
pytestmark = pytest.mark.django_db


def _open_duty(table_session: TableSession) -> dict[str, str]:
    rows = CroupierAssignment.objects.filter(table_session=table_session, released_at=None)
    return {row.role: row.staff.username for row in rows}


def test_a_relief_between_coups_ends_one_period_and_starts_the_next(
    floor: Floor, around: Around
) -> None:
    table = cf_table(floor)
    at = Croupier(table, floor.croupier, around)
    at.do("new_shoe", cut_by=1)
    at.play(cf_banker_wins(1000))
    at.do("continue_bank", 1, reliquat=0)
    incoming = UserFactory.create(roles=[Role.CROUPIER])

    new = staff_assign(
        table_session=table, staff=incoming, role="croupier", assigned_by=floor.inspector
    )

    old = CroupierAssignment.objects.get(table_session=table, staff=floor.croupier)
    assert old.released_at == new.assigned_at and old.released_by == floor.inspector
    assert _open_duty(table) == {"croupier": incoming.username}
    with pytest.raises(PermissionDeniedError):  # the outgoing croupier records no more
        at.do("announce_bank", 1, amount=1000)
    Croupier(table, incoming, around).do("announce_bank", 1, amount=1950)
    row = AuditEntry.objects.filter(action="staff_assign").latest("at")
    assert row.data == {
        "staff": incoming.username,
        "role": "croupier",
        "relieved": floor.croupier.username,
    }


def test_an_inspector_relieves_in_the_middle_of_a_coup_and_it_carries_on(
    floor: Floor, around: Around
) -> None:
    table = cf_table(floor)
    at = Croupier(table, floor.croupier, around)
    at.do("new_shoe", cut_by=1)
    first, *rest = cf_banker_wins(1000)
    at.play([first, rest[0]])  # the bank announced and the banco called: the coup is open
    incoming = UserFactory.create(roles=[Role.CROUPIER])
    staff_assign(table_session=table, staff=incoming, role="croupier", assigned_by=floor.inspector)

    Croupier(table, incoming, around).play(rest[1:])

    last = TableEvent.objects.filter(table_session=table).latest("seq")
    assert last.recorded_by == incoming
    assert table.coups.filter(number=1).exists()  # settled under the new croupier


def test_a_person_is_on_duty_at_one_table_at_a_time(floor: Floor) -> None:
    first = cf_table(floor, prefix="A")
    second = cf_table(floor, prefix="B", croupier=UserFactory.create(roles=[Role.CROUPIER]))

    with pytest.raises(StaffBusyError) as busy:
        staff_assign(
            table_session=second, staff=floor.croupier, role="croupier", assigned_by=floor.manager
        )
    assert busy.value.code == ErrorCode.STAFF_ON_DUTY
    assert str(first.table.number) in busy.value.message
    assert _open_duty(first) == {"croupier": floor.croupier.username}
    # The database holds it too, whatever calls it.
    with pytest.raises(IntegrityError), transaction.atomic():
        CroupierAssignment.objects.create(
            table_session=second,
            staff=floor.croupier,
            role=AssignmentRole.CHANGEUR,
            assigned_at=timezone.now(),
            assigned_by=floor.manager,
        )


def test_one_changeur_at_a_time_and_a_duty_ended_with_nobody_after(floor: Floor) -> None:
    table = cf_table(floor)
    first, second = (UserFactory.create(roles=[Role.CHANGEUR]) for _ in range(2))
    staff_assign(table_session=table, staff=first, role="changeur", assigned_by=floor.inspector)
    staff_assign(table_session=table, staff=second, role="changeur", assigned_by=floor.inspector)
    assert _open_duty(table)["changeur"] == second.username
    with pytest.raises(StaffRoleError):  # a croupier's duty for a changeur
        staff_assign(table_session=table, staff=first, role="croupier", assigned_by=floor.manager)
    with pytest.raises(PermissionDeniedError):
        staff_release(table_session=table, role="changeur", released_by=floor.croupier)

    ended = staff_release(table_session=table, role="changeur", released_by=floor.inspector)

    assert ended.staff == second and ended.released_by == floor.inspector
    assert "changeur" not in _open_duty(table)
    assert CroupierAssignment.objects.filter(table_session=table, role="changeur").count() == 2


def test_the_floor_offers_the_staff_on_shift_and_free(floor: Floor) -> None:
    cf_table(floor)  # floor.croupier is on duty there
    free = UserFactory.create(roles=[Role.CROUPIER])
    not_tonight = UserFactory.create(roles=[Role.CROUPIER])
    for user in (free, floor.croupier):
        Client().force_login(user)  # on shift: logged in since the night opened
    not_tonight.last_login = floor.gaming_session.opened_at - timedelta(days=1)
    not_tonight.save()

    offered = list(staff_free_list(role="croupier", gaming_session=floor.gaming_session))

    assert offered == [free]


def test_the_floor_relieves_and_shows_the_duty_and_bad_input_is_refused(floor: Floor) -> None:
    table = cf_table(floor)
    incoming = UserFactory.create(roles=[Role.CROUPIER])
    Client().force_login(incoming)
    inspector = Client()
    inspector.force_login(floor.inspector)
    url = reverse("console:duty-change", args=[table.public_id])

    page = inspector.get(reverse("console:floor")).content.decode()
    assert f'data-testid="on-duty-croupier">{floor.croupier.username}<' in page
    assert f'<option value="{incoming.username}">' in page  # on shift and free
    done = inspector.post(url, {"role": "croupier", "staff": incoming.username}, headers=HX)
    assert done.status_code == 200
    assert f'data-testid="on-duty-croupier">{incoming.username}<' in done.content.decode()

    before = list(CroupierAssignment.objects.values_list("pk", "released_at"))
    for bad in (
        {"role": "croupier", "staff": "nobody-such"},
        {"role": "dealer", "staff": incoming.username},
        {"role": "croupier"},
        {"role": "croupier", "staff": incoming.username},  # already on duty here
    ):
        refused = inspector.post(url, bad, headers=HX)
        assert 400 <= refused.status_code < 500, bad
        assert 'data-testid="problem"' in refused.content.decode()
    assert list(CroupierAssignment.objects.values_list("pk", "released_at")) == before
    croupier = Client()
    croupier.force_login(incoming)
    assert croupier.post(url, {"role": "croupier", "staff": "x"}, headers=HX).status_code == 403

    periods = inspector.get(reverse("console:duty")).content.decode()
    assert periods.count(f'data-staff="{floor.croupier.username}"') == 1
    assert periods.count(f'data-staff="{incoming.username}"') == 1


def test_the_relieved_croupiers_screen_turns_read_only_and_the_new_ones_home_shows_it(
    floor: Floor,
) -> None:
    table = cf_table(floor)
    outgoing = Client()
    outgoing.force_login(floor.croupier)
    screen = reverse("console:table", args=[table.public_id])
    assert 'name="duty" value="1"' in outgoing.get(screen).content.decode()
    incoming_user = UserFactory.create(roles=[Role.CROUPIER])
    incoming = Client()
    incoming.force_login(incoming_user)
    assert str(table.public_id) not in incoming.get(reverse("home")).content.decode()

    staff_assign(
        table_session=table, staff=incoming_user, role="croupier", assigned_by=floor.inspector
    )

    poll = outgoing.get(reverse("console:poll", args=[table.public_id]), {"duty": "1"}, headers=HX)
    assert poll.status_code == 200 and poll.headers["HX-Refresh"] == "true"
    page = outgoing.get(screen).content.decode()
    assert 'data-testid="relieved"' in page and floor.inspector.username in page
    assert 'name="duty" value="0"' in page and 'hx-post="undo/"' not in page
    assert str(table.public_id) in incoming.get(reverse("home")).content.decode()
    # The séance's record of duty on the table screen: the period that ended, and by whom.
    record = incoming.get(screen).content.decode()
    assert f'<li data-staff="{floor.croupier.username}">' in record


def test_the_api_relieves_releases_and_lists_every_period(floor: Floor) -> None:
    from rest_framework.test import APIClient

    table = cf_table(floor)
    incoming = UserFactory.create(roles=[Role.CROUPIER])
    api = APIClient()
    api.force_authenticate(floor.inspector)
    base = f"/api/table-sessions/{table.public_id}/assignments/"

    made = api.post(f"{base}create/", {"staff": incoming.username, "role": "croupier"})
    assert made.status_code == 201, made.json()
    bad = api.post(f"{base}create/", {"staff": incoming.username, "role": "dealer"})
    assert bad.status_code == 400
    busy = api.post(f"{base}create/", {"staff": incoming.username, "role": "croupier"})
    assert busy.status_code == 409 and busy.json()["code"] == "staff_on_duty"
    assert api.post(f"{base}release/", {"role": "croupier"}).status_code == 200
    assert api.post(f"{base}release/", {"role": "croupier"}).status_code == 409

    periods = api.get(base).json()["results"]
    assert [(p["staff"], p["released_by"]) for p in periods] == [
        (floor.croupier.username, floor.inspector.username),
        (incoming.username, floor.inspector.username),
    ]


# -- the close's guardrails ------------------------------------------------------------------


def test_a_table_does_not_close_over_a_pending_void_and_an_inspector_may_force_it(
    floor: Floor, around: Around
) -> None:
    """A table closes through `end_session`, legal only where a new coup can start (COM-3.8),
    which returns every reliquat (COM-7.2): an open coup and a void waiting stop it, listed."""
    table = cf_table(floor)
    at = Croupier(table, floor.croupier, around)
    at.do("new_shoe", cut_by=1)
    at.play(cf_banker_wins(1000))
    at.do("continue_bank", 1, reliquat=0)
    void_request(coup=table.coups.get(number=1), user=floor.croupier, reason="misread card")
    at.do("announce_bank", 1, amount=1950)  # a coup in progress too

    with pytest.raises(CloseBlockedError) as refused:
        table_session_close(table_session=table, user=floor.inspector)
    left = [{"what": "coup_open", "phase": "banco_call"}, {"what": "void_pending", "coup": 1}]
    assert refused.value.extra["left"] == left
    assert "void of coup 1" in refused.value.message
    with pytest.raises(PermissionDeniedError):  # a manager may close, not force
        table_session_close(table_session=table, user=floor.manager, force=True, reason="fire")
    with pytest.raises(Exception, match="reason"):
        table_session_close(table_session=table, user=floor.inspector, force=True, reason="")

    with around():
        closed = table_session_close(
            table_session=table, user=floor.inspector, force=True, reason="the room is evacuated"
        )

    assert closed.closed_at is not None and closed.close_forced and closed.close_left == left
    void = TableEvent.objects.filter(table_session=table, kind="void").latest("seq")
    assert void.sets_aside  # the open coup's actions set aside, nothing booked for them
    row = AuditEntry.objects.get(action="table_close", table_session_id=table.pk)
    assert row.data["forced"] is True and row.data["left"] == left


def test_the_voids_to_decide_are_decided_on_their_own_page(floor: Floor, around: Around) -> None:
    table = cf_table(floor)
    at = Croupier(table, floor.croupier, around)
    at.do("new_shoe", cut_by=1)
    at.play(cf_banker_wins(1000))
    at.do("continue_bank", 1, reliquat=0)
    asked = void_request(coup=table.coups.get(number=1), user=floor.croupier, reason="misread")
    inspector = Client()
    inspector.force_login(floor.inspector)

    page = inspector.get(reverse("console:voids")).content.decode()
    assert "misread" in page and 'name="from" value="voids"' in page
    decided = inspector.post(
        reverse("console:void-decide", args=[asked.public_id]),
        {"approve": "no", "note": "the card was right", "from": "voids", "password": "password"},
        headers=HX,
    )

    assert decided.status_code == 200
    assert "No void waits for a decision." in decided.content.decode()
    croupier = Client()
    croupier.force_login(floor.croupier)
    assert croupier.get(reverse("console:voids")).status_code == 403


def test_the_table_screen_relieves_and_the_floor_forces_a_close(
    floor: Floor, around: Around
) -> None:
    """From the console alike: an inspector relieves from the table screen (a plain form, the
    page drawn again) and forces a close from the floor, with a reason."""
    table = cf_table(floor)
    incoming = UserFactory.create(roles=[Role.CROUPIER])
    inspector = Client()
    inspector.force_login(floor.inspector)
    screen = reverse("console:table", args=[table.public_id])
    Client().force_login(incoming)
    page = inspector.get(screen).content.decode()
    assert 'data-testid="table-duty"' in page and f'<option value="{incoming.username}">' in page

    done = inspector.post(
        reverse("console:duty-change", args=[table.public_id]),
        {"from": "table", "role": "croupier", "staff": incoming.username},
    )
    assert done.status_code == 302 and done["Location"] == screen
    assert _open_duty(table) == {"croupier": incoming.username}

    Croupier(table, incoming, around).do("new_shoe", cut_by=1)
    Croupier(table, incoming, around).do("announce_bank", 1, amount=1000)
    close = reverse("console:table-close", args=[table.public_id])
    refused = inspector.post(close, {}, headers=HX)
    assert refused.status_code == 409 and "coup is in progress" in refused.content.decode()
    forced = inspector.post(close, {"force": "1", "reason": "the room is evacuated"}, headers=HX)
    assert forced.status_code == 200
    table.refresh_from_db()
    assert table.closed_at is not None and table.close_forced


def test_the_report_holds_every_duty_period_and_marks_a_forced_close(
    floor: Floor, around: Around
) -> None:
    import json

    from reports.services import settlement_report_generate
    from tables.services import gaming_session_close

    table = cf_table(floor)
    incoming = UserFactory.create(roles=[Role.CROUPIER])
    staff_assign(table_session=table, staff=incoming, role="croupier", assigned_by=floor.inspector)
    Croupier(table, incoming, around).do("new_shoe", cut_by=1)
    Croupier(table, incoming, around).do("announce_bank", 1, amount=1000)
    with around():
        table_session_close(
            table_session=table, user=floor.inspector, force=True, reason="a fight at the table"
        )
        gaming_session_close(gaming_session=floor.gaming_session, user=floor.inspector)
    report = settlement_report_generate(gaming_session_id=floor.gaming_session.pk)
    assert report is not None

    (section,) = json.loads(report.content)["tables"]
    assert [(s["staff"], s["assigned_by"], s["ended_by"]) for s in section["staff"]] == [
        (floor.croupier.username, floor.manager.username, floor.inspector.username),
        (incoming.username, floor.inspector.username, None),
    ]
    assert section["staff"][0]["until"] == section["staff"][1]["from"]
    assert section["forced_close"] == {
        "reason": "a fight at the table",
        "left": [{"what": "coup_open", "phase": "banco_call"}],
    }


def test_a_changeurs_home_lists_the_tables_he_works_at_and_lets_them_go_when_relieved(
    floor: Floor,
) -> None:
    table = cf_table(floor)
    changeur, relief = (UserFactory.create(roles=[Role.CHANGEUR]) for _ in range(2))
    at_home = Client()
    at_home.force_login(changeur)
    screen = reverse("console:table", args=[table.public_id])
    assert screen not in at_home.get(reverse("home")).content.decode()

    staff_assign(table_session=table, staff=changeur, role="changeur", assigned_by=floor.inspector)
    home = at_home.get(reverse("home")).content.decode()
    assert 'data-testid="my-tables"' in home and f'href="{screen}"' in home
    # His table's screen, read-only, and saying so: a changeur records nothing.
    page = at_home.get(screen).content.decode()
    assert 'name="duty" value="0"' in page and 'data-testid="read-only"' in page
    assert 'hx-post="undo/"' not in page

    staff_assign(table_session=table, staff=relief, role="changeur", assigned_by=floor.inspector)
    assert screen not in at_home.get(reverse("home")).content.decode()
