"""The reception's screens (establishment.console.reception): the search as one types, the
register form with its errors in place and its refusals, a player's record (identity for the
door and the auditors only), the exclusion list, its import and the import's progress."""

from __future__ import annotations

import re
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from establishment.door import exclusion_add, player_register
from establishment.models import AuditEntry, ExclusionEntry, ExclusionImport, Player
from establishment.roles import Role
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}
EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "exclusions.csv"


def client_of(*roles: Role) -> tuple[Client, User]:
    user = UserFactory.create(roles=list(roles))
    client = Client()
    client.force_login(user)
    return client, user


def form(**changes: str) -> dict[str, str]:
    given = {
        "surname": "Dupont",
        "first_names": "Jean",
        "birth_date": "1980-05-17",
        "birth_place": "Lyon",
        "address": "12 rue de la République, Lyon",
        "document_type": "passport",
        "document_number": "P123",
        "document_expiry": (timezone.localdate() + timedelta(days=400)).isoformat(),
    }
    return given | changes


def registered(user: User) -> Player:
    data: dict[str, Any] = form()
    return player_register(
        **data
        | {
            "birth_date": date(1980, 5, 17),
            "document_expiry": timezone.localdate() + timedelta(days=400),
        },
        registered_by=user,
    )


def test_the_search_answers_as_one_types_with_its_results_alone() -> None:
    client, user = client_of(Role.RECEPTION)
    registered(user)

    page = client.get(reverse("reception:players"))
    part = client.get(
        reverse("reception:players"), {"q": "dup"}, headers=HX | {"HX-Target": "results"}
    )

    html = page.content.decode()
    assert page.status_code == 200
    assert 'hx-trigger="input changed delay:200ms, search"' in html
    assert '<label for="player-search">' in html
    body = part.content.decode()
    assert part.status_code == 200 and body.lstrip().startswith('<div id="results"')
    assert "DUPONT Jean" in body and "M-000001" in body and "<html" not in body
    empty = client.get(
        reverse("reception:players"), {"q": "zz"}, headers=HX | {"HX-Target": "results"}
    )
    assert "No player found." in empty.content.decode()


def test_a_player_is_registered_through_the_form() -> None:
    client, _user = client_of(Role.RECEPTION)

    answer = client.post(reverse("reception:register"), form(), headers=HX)

    player = Player.objects.get()
    assert answer.status_code == 200
    assert answer["HX-Redirect"] == reverse("reception:player", args=[player.public_id])
    assert player.name == "DUPONT Jean" and player.member_number == "M-000001"
    plain = client.post(reverse("reception:register"), form(document_number="P2", surname="B"))
    assert plain.status_code == 303


def test_the_form_says_each_error_beside_its_field_and_never_fails() -> None:
    client, _user = client_of(Role.RECEPTION)

    missing = client.post(reverse("reception:register"), form(surname="", address=""), headers=HX)
    wrong = client.post(
        reverse("reception:register"),
        form(birth_date="17/13/1980", document_type="library", document_expiry="soon"),
        headers=HX,
    )
    expired = client.post(
        reverse("reception:register"), form(document_expiry="2020-01-01"), headers=HX
    )

    body = missing.content.decode()
    assert missing.status_code == 422 and body.lstrip().startswith('<section id="register"')
    assert re.search(r'data-testid="error-surname"><li>This field is required.</li>', body)
    assert 'data-testid="error-address"' in body and 'data-testid="error-birth_date"' not in body
    assert 'value="Lyon"' in body  # what was typed stays
    body = wrong.content.decode()
    assert wrong.status_code == 422
    for name in ("birth_date", "document_type", "document_expiry"):
        assert f'data-testid="error-{name}"' in body
    assert expired.status_code == 422 and "expired on 2020-01-01" in expired.content.decode()
    assert not Player.objects.exists()


def test_a_barred_person_is_refused_in_words_that_reveal_nothing() -> None:
    client, user = client_of(Role.RECEPTION)
    exclusion_add(
        surname="DUPONT",
        first_names="Jean",
        birth_date=date(1980, 5, 17),
        source="ministry",
        reference="MIN-42",
        added_by=user,
    )

    answer = client.post(reverse("reception:register"), form(), headers=HX)

    body = answer.content.decode()
    assert answer.status_code == 422
    assert "This person cannot be admitted to play." in body
    for secret in ("ministry", "Ministry", "MIN-42", "barred", "exclusion", "list"):
        assert secret not in body.split('data-testid="problem">')[1].split("</p>")[0]
    assert not Player.objects.exists()
    assert AuditEntry.objects.get(action="admission_check").data["reason"] == "barred"


def test_identity_is_shown_to_the_door_and_the_auditors_never_to_a_croupier() -> None:
    door, user = client_of(Role.RECEPTION)
    player = registered(user)
    url = reverse("reception:player", args=[player.public_id])
    croupier, _c = client_of(Role.CROUPIER)
    auditor, _a = client_of(Role.AUDITOR)

    seen = door.get(url).content.decode()
    audited = auditor.get(url).content.decode()
    hidden = croupier.get(url).content.decode()
    searched = croupier.get(
        reverse("reception:players"), {"q": "dupont"}, headers=HX | {"HX-Target": "results"}
    ).content.decode()

    for page in (seen, audited):
        assert "1980-05-17" in page and "Lyon" in page and "P123" in page
    assert "DUPONT Jean" in hidden and "M-000001" in hidden
    for secret in ("1980-05-17", "Lyon", "P123", "République", "Passport"):
        assert secret not in hidden and secret not in searched
    assert 'id="register"' not in croupier.get(reverse("reception:players")).content.decode()
    refused = croupier.post(reverse("reception:register"), form(), headers=HX)
    assert refused.status_code == 403


def test_the_exclusion_list_is_the_doors_and_the_auditors() -> None:
    croupier, _c = client_of(Role.CROUPIER)
    auditor, _a = client_of(Role.AUDITOR)

    assert croupier.get(reverse("reception:exclusions")).status_code == 403
    page = auditor.get(reverse("reception:exclusions")).content.decode()
    assert "Exclusion list" in page and "Add a person to the list" not in page
    assert auditor.post(reverse("reception:exclusion-add"), {}, headers=HX).status_code == 403


def test_an_entry_is_added_searched_and_lifted_on_the_screen() -> None:
    client, _user = client_of(Role.INSPECTOR)

    bad = client.post(
        reverse("reception:exclusion-add"),
        {"surname": "Lefèvre", "first_names": "", "birth_date": "1975-02-03", "source": "house"},
        headers=HX,
    )
    added = client.post(
        reverse("reception:exclusion-add"),
        {
            "surname": "Lefèvre",
            "first_names": "Hélène",
            "birth_date": "1975-02-03",
            "source": "house",
        },
        headers=HX,
    )
    found = client.get(
        reverse("reception:exclusions"), {"q": "lefevre"}, headers=HX | {"HX-Target": "entries"}
    )
    entry = ExclusionEntry.objects.get()
    lift_url = reverse("reception:exclusion-lift", args=[entry.public_id])
    no_reason = client.post(lift_url, {"reason": ""}, headers=HX)
    lifted = client.post(lift_url, {"reason": "Listed by mistake"}, headers=HX)

    assert bad.status_code == 422 and 'data-testid="error-first_names"' in bad.content.decode()
    assert added.status_code == 200 and "Lefèvre Hélène" in added.content.decode()
    assert found.content.decode().lstrip().startswith('<div id="entries"')
    assert "Lefèvre Hélène" in found.content.decode()
    assert no_reason.status_code == 422
    assert lifted.status_code == 200 and 'data-testid="lifted"' in lifted.content.decode()
    entry.refresh_from_db()
    assert entry.lift_reason == "Listed by mistake" and ExclusionEntry.objects.count() == 1


def test_the_example_file_is_imported_and_its_progress_shown(
    django_capture_on_commit_callbacks: Any,
) -> None:
    client, _user = client_of(Role.RECEPTION)
    upload = SimpleUploadedFile("exclusions.csv", EXAMPLE.read_bytes(), content_type="text/csv")

    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(reverse("reception:exclusion-import"), {"file": upload}, headers=HX)

    job = ExclusionImport.objects.get()
    assert answer.status_code == 200
    assert job.status == ExclusionImport.Status.DONE and ExclusionEntry.objects.count() == 4
    progress = client.get(
        reverse("reception:exclusion-import-progress", args=[job.public_id]), headers=HX
    ).content.decode()
    assert 'data-status="done"' in progress and "4 of 4 lines" in progress
    assert "hx-trigger" not in progress  # finished: no more polling


def test_an_import_under_way_is_polled_and_a_bad_file_lists_its_errors(
    django_capture_on_commit_callbacks: Any,
) -> None:
    client, user = client_of(Role.RECEPTION)
    waiting = ExclusionImport.objects.create(
        file_name="big.csv", content="", created_by=user, lines_total=10, lines_done=4
    )
    bad = SimpleUploadedFile(
        "bad.csv",
        b"surname,first_names,birth_date,source\nDUPONT,Jean,1980-13-01,ministry\n",
    )

    polled = client.get(
        reverse("reception:exclusion-import-progress", args=[waiting.public_id]), headers=HX
    ).content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        refused = client.post(reverse("reception:exclusion-import"), {"file": bad}, headers=HX)
    nothing = client.post(reverse("reception:exclusion-import"), {}, headers=HX)

    assert 'hx-trigger="every 1s"' in polled and "4 of 10 lines" in polled
    assert 'value="40"' in polled
    # The task ran once the upload was committed (eager here): the screen shows its errors.
    assert refused.status_code == 200
    body = client.get(reverse("reception:exclusions")).content.decode()
    assert 'data-testid="import-errors"' in body
    assert "<td>2</td><td>birth_date</td>" in body and "Nothing was imported" in body
    assert nothing.status_code == 422 and 'data-testid="error-file"' in nothing.content.decode()
    assert not ExclusionEntry.objects.exists()
