"""The exclusion list (arrêté du 14 mai 2007, art. 22): entries added and lifted (never
deleted), its CSV import (docs/exclusions.md) checked line by line, all or nothing, with its
progress, through the Celery task; the list's search; and a refusal's audit row that stands
although the caller's action is rolled back."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

import pytest
from celery import current_app
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction

from establishment.door import exclusion_add, exclusion_lift, player_admission_check
from establishment.errors import (
    InvalidInputError,
    InvalidStateError,
    PermissionDeniedError,
    PlayerRefusedError,
)
from establishment.exclusions import IMPORT_BATCH, exclusion_import, exclusion_import_run
from establishment.identity import Identity
from establishment.models import AuditEntry, ExclusionEntry, ExclusionImport
from establishment.roles import Role
from establishment.selectors import exclusion_search
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "exclusions.csv"
HEADER = "surname,first_names,birth_date,birth_place,source,reference,effective_from,until\n"
TODAY = date(2026, 12, 1)


@pytest.fixture
def reception() -> User:
    return UserFactory.create(roles=[Role.RECEPTION])


@pytest.fixture
def committed(django_capture_on_commit_callbacks: Any) -> Any:
    """`with committed():` runs what waits for the commit (the task), as a real commit would."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


def add(user: User, **changes: Any) -> ExclusionEntry:
    given: dict[str, Any] = {
        "surname": "Dupont",
        "first_names": "Jean",
        "birth_date": date(1980, 5, 17),
        "source": "ministry",
    }
    return exclusion_add(**(given | changes), added_by=user, today=TODAY)


def test_an_entry_is_added_with_folded_names_and_an_audit_row(reception: User) -> None:
    entry = add(reception, surname="  Lefèvre-D'Arc ", first_names="Hélène  Marie")

    assert (entry.surname, entry.first_names) == ("Lefèvre-D'Arc", "Hélène Marie")
    assert (entry.surname_key, entry.first_names_key) == ("lefevre d arc", "helene marie")
    assert entry.effective_from == TODAY and entry.until is None and entry.is_in_force(TODAY)
    row = AuditEntry.objects.get(action="exclusion_add")
    assert row.actor == reception and row.data["exclusion"] == str(entry.public_id)


def test_an_entry_needs_its_fields(reception: User) -> None:
    with pytest.raises(InvalidInputError) as refused:
        add(
            reception,
            surname="",
            birth_date=None,
            source="rumour",
            effective_from=date(2026, 5, 1),
            until=date(2026, 4, 1),
        )

    assert set(refused.value.fields) == {"surname", "birth_date", "source", "until"}
    assert not ExclusionEntry.objects.exists()


def test_lifting_is_recorded_once_and_the_entry_kept(reception: User) -> None:
    entry = add(reception)
    manager = UserFactory.create(roles=[Role.MANAGER])

    with pytest.raises(InvalidInputError):
        exclusion_lift(entry=entry, reason=" ", lifted_by=manager)
    lifted = exclusion_lift(entry=entry, reason="Court decision of 2026-11-30", lifted_by=manager)
    with pytest.raises(InvalidStateError):
        exclusion_lift(entry=entry, reason="again", lifted_by=manager)

    entry.refresh_from_db()
    assert entry.lifted_by == manager and entry.lift_reason == "Court decision of 2026-11-30"
    assert lifted.lifted_at is not None and not entry.is_in_force(TODAY)
    assert ExclusionEntry.objects.count() == 1
    row = AuditEntry.objects.get(action="exclusion_lift")
    assert row.data == {"exclusion": str(entry.public_id), "reason": entry.lift_reason}


def test_the_database_keeps_lift_fields_together(reception: User) -> None:
    entry = add(reception)

    with pytest.raises(IntegrityError), transaction.atomic():
        ExclusionEntry.objects.filter(pk=entry.pk).update(lift_reason="no one lifted it")


def test_only_the_door_keepers_keep_the_list() -> None:
    croupier = UserFactory.create(roles=[Role.CROUPIER])
    with pytest.raises(PermissionDeniedError):
        add(croupier)
    with pytest.raises(PermissionDeniedError):
        exclusion_import(file_name="x.csv", content=HEADER, imported_by=croupier)


def test_the_example_file_imports_through_the_task(reception: User, committed: Any) -> None:
    with committed():
        job = exclusion_import(
            file_name="exclusions.csv", content=EXAMPLE.read_bytes(), imported_by=reception
        )

    job.refresh_from_db()
    assert job.status == ExclusionImport.Status.DONE, job.errors
    assert (job.lines_total, job.lines_done, job.errors, job.percent) == (4, 4, [], 100)
    entries = {e.surname: e for e in ExclusionEntry.objects.filter(source_import=job)}
    assert set(entries) == {"DUPONT", "Lefèvre", "O'Brien", "MARTIN"}
    assert entries["Lefèvre"].birth_date == date(1975, 2, 3)
    assert entries["O'Brien"].birth_place == "Dublin, Ireland"
    assert entries["Lefèvre"].until == date(2029, 6, 1)
    assert entries["DUPONT"].added_by == reception
    assert AuditEntry.objects.get(action="exclusion_import").data["lines"] == 4
    # The list now bars its people at the door.
    with pytest.raises(PlayerRefusedError):
        player_admission_check(
            identity=Identity("Dupont", "Jean-Pierre", date(1980, 5, 17)),
            user=reception,
            where="registration",
        )


def test_a_file_with_bad_lines_imports_nothing_and_says_where(
    reception: User, committed: Any
) -> None:
    content = HEADER + (
        "DUPONT,Jean,1980-05-17,,ministry,,,\n"
        ",Paul,1970-01-01,,house,,,\n"
        "DURAND,Luc,17/13/1980,,ministry,,,\n"
        "\n"
        "PETIT,Ana,1999-01-01,,rumour,,2026-05-01,2026-04-01\n"
        "TOO,Few,columns\n"
    )

    with committed():
        job = exclusion_import(file_name="bad.csv", content=content, imported_by=reception)

    job.refresh_from_db()
    assert job.status == ExclusionImport.Status.REFUSED and job.lines_done == 0
    assert not ExclusionEntry.objects.exists()
    said = [(e["line"], e["column"]) for e in job.errors]
    assert said == [
        (3, "surname"),
        (4, "birth_date"),
        (6, "source"),
        (6, "until"),
        (7, ""),
    ]
    by_line = {(e["line"], e["column"]): e for e in job.errors}
    assert by_line[(4, "birth_date")]["message"] == "“17/13/1980” is not a date."
    assert "YYYY-MM-DD" in by_line[(4, "birth_date")]["expected"]
    assert "ministry" in by_line[(6, "source")]["expected"]
    assert by_line[(7, "")]["message"] == "3 columns instead of 8."


def test_a_file_without_its_header_or_not_utf8_is_refused(reception: User, committed: Any) -> None:
    with committed():
        job = exclusion_import(
            file_name="x.csv", content="DUPONT,Jean,1980-05-17\n", imported_by=reception
        )
    job.refresh_from_db()
    assert job.status == ExclusionImport.Status.REFUSED
    assert job.errors[0]["line"] == 1 and "Missing" in job.errors[0]["message"]

    with pytest.raises(InvalidInputError):
        exclusion_import(
            file_name="latin1.csv",
            content=(HEADER + "LEFÈVRE,Hélène,1975-02-03,,house,,,\n").encode("latin-1"),
            imported_by=reception,
        )
    for content in (HEADER + "DUPONT,Je\x00an,1980-05-17,,house,,,\n", b"\x00"):
        with pytest.raises(InvalidInputError) as refused:
            exclusion_import(file_name="nul.csv", content=content, imported_by=reception)
        assert "NUL" in refused.value.message


def test_progress_grows_batch_by_batch_and_a_second_run_adds_nothing(
    reception: User, monkeypatch: pytest.MonkeyPatch, committed: Any
) -> None:
    lines = IMPORT_BATCH * 2 + 7
    content = HEADER + "".join(
        f"PERSON{n},Jean,1980-01-01,,ministry,R{n},,\n" for n in range(lines)
    )
    seen: list[int] = []
    sent: list[int] = []
    current_app.loader.import_default_modules()
    task = current_app.tasks["establishment.exclusions_import"]
    monkeypatch.setattr(task, "delay", lambda pk: sent.append(pk))  # run below, by hand
    save = ExclusionImport.save

    def watched(self: ExclusionImport, *args: Any, **kwargs: Any) -> None:
        save(self, *args, **kwargs)
        seen.append(self.lines_done)

    with committed():
        job = exclusion_import(file_name="big.csv", content=content, imported_by=reception)
    assert sent == [job.pk] and job.status == ExclusionImport.Status.PENDING
    assert (job.lines_total, job.lines_done, job.percent) == (lines, 0, 0)
    monkeypatch.setattr(ExclusionImport, "save", watched)

    exclusion_import_run(import_id=job.pk)
    exclusion_import_run(import_id=job.pk)  # a message delivered twice

    job.refresh_from_db()
    assert job.status == ExclusionImport.Status.DONE and job.lines_done == lines
    assert [n for n in seen if 0 < n < lines] == [IMPORT_BATCH, IMPORT_BATCH * 2]
    assert ExclusionEntry.objects.count() == lines


def test_a_run_that_died_goes_on_from_its_last_batch(
    reception: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    content = HEADER + "".join(
        f"PERSON{n},Jean,1980-01-01,,ministry,,,\n" for n in range(IMPORT_BATCH + 5)
    )
    current_app.loader.import_default_modules()
    task = current_app.tasks["establishment.exclusions_import"]
    monkeypatch.setattr(task, "delay", lambda pk: None)
    job = exclusion_import(file_name="big.csv", content=content, imported_by=reception)
    bulk_create = ExclusionEntry.objects.bulk_create
    calls: list[int] = []

    def dies_second_time(rows: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append(len(rows))
        if len(calls) == 2:
            raise ConnectionError("the worker died")
        return bulk_create(rows, *args, **kwargs)

    monkeypatch.setattr(ExclusionEntry.objects, "bulk_create", dies_second_time)
    with pytest.raises(ConnectionError):
        exclusion_import_run(import_id=job.pk)
    job.refresh_from_db()
    assert (job.status, job.lines_done) == (ExclusionImport.Status.RUNNING, IMPORT_BATCH)

    exclusion_import_run(import_id=job.pk)

    job.refresh_from_db()
    assert job.status == ExclusionImport.Status.DONE
    assert ExclusionEntry.objects.count() == IMPORT_BATCH + 5


def test_the_list_is_searched_by_name_and_reference(reception: User) -> None:
    add(reception, surname="Lefèvre", first_names="Hélène", reference="MIN-7")
    add(reception, surname="Dupont", first_names="Jean")
    lifted = add(reception, surname="Durand", first_names="Luc")
    exclusion_lift(entry=lifted, reason="error in the list", lifted_by=reception)

    assert [e.surname for e in exclusion_search(query="lefevre")] == ["Lefèvre"]
    assert [e.surname for e in exclusion_search(query="min-7")] == ["Lefèvre"]
    assert [e.surname for e in exclusion_search(query="DURAND luc")] == ["Durand"]
    assert len(exclusion_search(query="")) == 3  # the latest, lifted ones included


@pytest.mark.postgres
def test_the_list_search_forgives_typos_on_postgresql(reception: User) -> None:
    add(reception, surname="Lefèvre", first_names="Hélène")
    add(reception, surname="Dupont", first_names="Jean")

    assert [e.surname for e in exclusion_search(query="lefebvre")][:1] == ["Lefèvre"]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_a_refusal_row_is_committed_although_the_callers_action_rolls_back() -> None:
    # A transactional test: what is committed is really committed (PostgreSQL: the flush
    # between tests truncates, which the audit log's append-only triggers allow; the database's
    # rows are put back after it, serialized_rollback, as the other transactional tests do).
    reception = UserFactory.create(roles=[Role.RECEPTION])
    add(reception, surname="Dupont", first_names="Jean")
    barred = Identity("Dupont", "Jean", date(1980, 5, 17))

    def seat_then_record() -> None:
        """A caller as the table will be: the check first, then its own transaction."""
        player_admission_check(identity=barred, user=reception, where="seat")
        with transaction.atomic(durable=True):  # the caller's action, never reached
            AuditEntry.objects.create(actor=reception, action="seat", at=reception.date_joined)

    with pytest.raises(PlayerRefusedError):
        seat_then_record()

    rows = AuditEntry.objects.filter(action__in=["admission_check", "seat"])
    assert [(r.action, r.data["result"], r.data["reason"]) for r in rows] == [
        ("admission_check", "refused", "barred")
    ]
