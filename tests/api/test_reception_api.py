"""The door through the API: register, search, a player's record (identity for the door and
the auditors only), the exclusion list (add, lift, list), its import and progress; bad input
is a 400 or a 422 in the API's error shape, never a 500."""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from establishment.models import AuditEntry, ExclusionEntry, Player
from establishment.roles import Role
from tests.api.conftest import ClientFor, StaffMaker

pytestmark = pytest.mark.django_db

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "exclusions.csv"
ERROR_SHAPE = {"code", "message", "extra"}


def body(**changes: Any) -> dict[str, Any]:
    given: dict[str, Any] = {
        "surname": "Dupont",
        "first_names": "Jean",
        "birth_date": "1980-05-17",
        "birth_place": "Lyon",
        "address": "12 rue de la République, Lyon",
        "document_type": "identity_card",
        "document_number": "ID-77",
        "document_expiry": (timezone.localdate() + timedelta(days=300)).isoformat(),
    }
    return given | changes


def test_a_player_is_registered_and_his_record_read_with_his_identity(
    staff: StaffMaker, client_for: ClientFor
) -> None:
    door = client_for(staff(Role.RECEPTION))

    made = door.post("/api/players/register/", body(), format="json")

    assert made.status_code == 201, made.content
    data = made.json()
    assert data["member_number"] == "M-000001" and data["name"] == "DUPONT Jean"
    assert data["identity"]["birth_date"] == "1980-05-17"
    record = door.get(f"/api/players/{data['public_id']}/record/").json()
    assert record["identity"]["document_number"] == "ID-77"
    assert record["identity"]["registered_by"].startswith("staff")


def test_identity_is_hidden_from_a_croupier(staff: StaffMaker, client_for: ClientFor) -> None:
    door = client_for(staff(Role.RECEPTION))
    made = door.post("/api/players/register/", body(), format="json").json()
    croupier = client_for(staff(Role.CROUPIER))
    auditor = client_for(staff(Role.AUDITOR))

    record = croupier.get(f"/api/players/{made['public_id']}/record/")
    found = croupier.get("/api/players/search/", {"q": "dupont"}).json()
    audited = auditor.get(f"/api/players/{made['public_id']}/record/").json()

    assert record.status_code == 200 and record.json()["identity"] is None
    assert found == [
        {
            "public_id": made["public_id"],
            "member_number": "M-000001",
            "name": "DUPONT Jean",
            "birth_date": None,
        }
    ]
    assert "Lyon" not in record.content.decode()
    assert audited["identity"]["address"] == "12 rue de la République, Lyon"
    refused = croupier.post("/api/players/register/", body(document_number="X"), format="json")
    assert refused.status_code == 403 and refused.json()["code"] == "permission_denied"
    assert croupier.get("/api/exclusions/").status_code == 403


def test_the_search_answers_best_first(staff: StaffMaker, client_for: ClientFor) -> None:
    door = client_for(staff(Role.INSPECTOR))
    door.post("/api/players/register/", body(), format="json")
    door.post(
        "/api/players/register/",
        body(surname="Martin", document_number="PX-1"),
        format="json",
    )

    by_number = door.get("/api/players/search/", {"q": "M-000002"}).json()
    by_document = door.get("/api/players/search/", {"q": "ID-77"}).json()
    too_short = door.get("/api/players/search/", {"q": "d"}).json()
    bad_limit = door.get("/api/players/search/", {"q": "du", "limit": "many"})

    assert [p["name"] for p in by_number] == ["MARTIN Jean"]
    assert [p["birth_date"] for p in by_document] == ["1980-05-17"]
    assert too_short == []
    assert bad_limit.status_code == 400 and set(bad_limit.json()) == ERROR_SHAPE


@pytest.mark.parametrize(
    ("changes", "status", "field"),
    [
        ({"birth_date": "17/13/1980"}, 400, "birth_date"),
        ({"birth_date": 19800517}, 400, "birth_date"),
        ({"document_type": "library_card"}, 400, "document_type"),
        ({"surname": None}, 400, "surname"),
        ({"document_expiry": "2020-01-01"}, 422, "document_expiry"),
        ({"birth_date": "2999-01-01"}, 422, "birth_date"),
        ({"surname": "   "}, 400, "surname"),
    ],
)
def test_bad_input_is_said_in_the_error_shape(
    staff: StaffMaker, client_for: ClientFor, changes: dict[str, Any], status: int, field: str
) -> None:
    door = client_for(staff(Role.RECEPTION))

    answer = door.post("/api/players/register/", body(**changes), format="json")

    assert answer.status_code == status, answer.content
    data = answer.json()
    assert set(data) == ERROR_SHAPE and field in data["extra"]["fields"]
    assert not Player.objects.exists()


def test_a_missing_field_and_a_body_that_is_not_an_object_are_400s(
    staff: StaffMaker, client_for: ClientFor
) -> None:
    door = client_for(staff(Role.RECEPTION))
    given = body()
    del given["address"]

    missing = door.post("/api/players/register/", given, format="json")
    listed = door.post("/api/players/register/", [1, 2], format="json")

    assert missing.status_code == 400 and "address" in missing.json()["extra"]["fields"]
    assert listed.status_code == 400 and set(listed.json()) == ERROR_SHAPE


def test_under_18_and_barred_are_refused_in_the_same_words(
    staff: StaffMaker, client_for: ClientFor
) -> None:
    door = client_for(staff(Role.RECEPTION))
    added = door.post(
        "/api/exclusions/create/",
        {"surname": "DUPONT", "first_names": "Jean", "birth_date": "1980-05-17", "source": "house"},
        format="json",
    )
    young = (date.today() - timedelta(days=17 * 365)).isoformat()

    barred = door.post("/api/players/register/", body(), format="json")
    minor = door.post(
        "/api/players/register/", body(surname="Petit", birth_date=young), format="json"
    )

    assert added.status_code == 201 and added.json()["is_lifted"] is False
    for answer in (barred, minor):
        assert answer.status_code == 422
        assert answer.json() == {
            "code": "player_refused",
            "message": "This person cannot be admitted to play.",
            "extra": {},
        }
    reasons = [
        r.data["reason"] for r in AuditEntry.objects.filter(action="admission_check").order_by("pk")
    ]
    assert reasons == ["barred", "under_age"]


def test_an_entry_is_lifted_once_and_then_admits(staff: StaffMaker, client_for: ClientFor) -> None:
    door = client_for(staff(Role.MANAGER))
    entry = door.post(
        "/api/exclusions/create/",
        {
            "surname": "Dupont",
            "first_names": "Jean",
            "birth_date": "1980-05-17",
            "source": "self_exclusion",
            "until": "2030-01-01",
        },
        format="json",
    ).json()
    url = f"/api/exclusions/{entry['public_id']}/lift/"

    no_reason = door.post(url, {}, format="json")
    lifted = door.post(url, {"reason": "End of the self-exclusion"}, format="json")
    again = door.post(url, {"reason": "again"}, format="json")
    listed = door.get("/api/exclusions/", {"q": "dupont"}).json()

    assert no_reason.status_code == 400
    assert lifted.status_code == 200 and lifted.json()["is_lifted"] is True
    assert lifted.json()["lift_reason"] == "End of the self-exclusion"
    assert again.status_code == 409 and again.json()["code"] == "invalid_state"
    assert [e["public_id"] for e in listed] == [entry["public_id"]]
    assert door.post("/api/players/register/", body(), format="json").status_code == 201


def test_bad_exclusion_input_is_a_400_or_a_422(staff: StaffMaker, client_for: ClientFor) -> None:
    door = client_for(staff(Role.RECEPTION))

    wrong_source = door.post(
        "/api/exclusions/create/",
        {"surname": "A", "first_names": "B", "birth_date": "1980-01-01", "source": "rumour"},
        format="json",
    )
    backwards = door.post(
        "/api/exclusions/create/",
        {
            "surname": "A",
            "first_names": "B",
            "birth_date": "1980-01-01",
            "source": "house",
            "effective_from": "2026-05-01",
            "until": "2026-04-01",
        },
        format="json",
    )

    assert wrong_source.status_code == 400
    assert backwards.status_code == 422 and backwards.json()["code"] == "invalid_input"
    assert "until" in backwards.json()["extra"]["fields"]
    assert not ExclusionEntry.objects.exists()


def test_the_example_file_is_imported_and_its_progress_read(
    staff: StaffMaker, client_for: ClientFor, django_capture_on_commit_callbacks: Any
) -> None:
    door = client_for(staff(Role.RECEPTION))
    upload = SimpleUploadedFile("exclusions.csv", EXAMPLE.read_bytes(), content_type="text/csv")

    with django_capture_on_commit_callbacks(execute=True):
        made = door.post("/api/exclusions/imports/create/", {"file": upload}, format="multipart")
    progress = door.get(f"/api/exclusions/imports/{made.json()['public_id']}/").json()

    assert made.status_code == 202 and made.json()["lines_total"] == 4
    assert progress["status"] == "done" and progress["lines_done"] == 4
    assert progress["percent"] == 100 and progress["line_errors"] == []
    assert ExclusionEntry.objects.count() == 4


def test_an_import_with_bad_lines_lists_them(
    staff: StaffMaker, client_for: ClientFor, django_capture_on_commit_callbacks: Any
) -> None:
    door = client_for(staff(Role.RECEPTION))
    bad = SimpleUploadedFile(
        "bad.csv", b"surname,first_names,birth_date,source\n,Jean,1980-01-01,house\n"
    )

    with django_capture_on_commit_callbacks(execute=True):
        made = door.post("/api/exclusions/imports/create/", {"file": bad}, format="multipart")
    progress = door.get(f"/api/exclusions/imports/{made.json()['public_id']}/").json()
    as_json = door.post("/api/exclusions/imports/create/", {"file": "x"}, format="json")
    no_file = door.post("/api/exclusions/imports/create/", {}, format="multipart")
    latin1 = door.post(
        "/api/exclusions/imports/create/",
        {"file": SimpleUploadedFile("l.csv", "surname,é\n".encode("latin-1"))},
        format="multipart",
    )

    assert progress["status"] == "refused" and progress["lines_done"] == 0
    assert progress["line_errors"][0] == {
        "line": 2,
        "column": "surname",
        "message": "This field is required.",
        "expected": "",
    }
    assert as_json.status_code == 415 and set(as_json.json()) == ERROR_SHAPE
    assert no_file.status_code == 400 and "file" in no_file.json()["extra"]["fields"]
    assert latin1.status_code == 422 and latin1.json()["code"] == "invalid_input"
