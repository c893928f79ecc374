"""Players at the door (issue 13): registration with an identity, the age of majority and the
exclusion list (arrêté du 14 mai 2007, art. 22), member numbers, the search, and one gaming
session open at a time."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone

from establishment.door import (
    exclusion_add,
    exclusion_lift,
    player_admission_check,
    player_admission_check_codes,
    player_register,
)
from establishment.errors import (
    ErrorCode,
    InvalidInputError,
    InvalidStateError,
    PermissionDeniedError,
    PlayerRefusedError,
)
from establishment.identity import Identity, age_on, name_key
from establishment.models import AuditEntry, DocumentType, GamingSession, Player
from establishment.roles import Role
from establishment.selectors import player_search
from establishment.services import gaming_session_open
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db

TODAY = date(2026, 12, 1)
REFUSAL = "This person cannot be admitted to play."


@pytest.fixture
def reception() -> User:
    return UserFactory.create(roles=[Role.RECEPTION])


def identity(**changes: Any) -> dict[str, Any]:
    given: dict[str, Any] = {
        "surname": "Dupont",
        "first_names": "Jean Pierre",
        "birth_date": date(1980, 5, 17),
        "birth_place": "Lyon",
        "address": "12 rue de la République, 69002 Lyon",
        "document_type": DocumentType.IDENTITY_CARD,
        "document_number": "x12345678",
        "document_expiry": date(2030, 1, 1),
    }
    return given | changes


def register(user: User, **changes: Any) -> Player:
    return player_register(**identity(**changes), registered_by=user, client="test", today=TODAY)


def checks() -> list[dict[str, Any]]:
    return [row.data for row in AuditEntry.objects.filter(action="admission_check")]


def test_a_player_is_registered_with_his_identity_and_a_member_number(reception: User) -> None:
    first = register(reception)
    second = register(reception, surname="Martin", document_number="P999")

    assert first.name == "DUPONT Jean Pierre"
    assert (first.member_number, second.member_number) == ("M-000001", "M-000002")
    assert first.birth_date == date(1980, 5, 17) and first.document_number == "X12345678"
    assert first.registered_by == reception and first.has_identity
    registered = AuditEntry.objects.get(action="player_register", data__member_number="M-000001")
    assert registered.actor == reception and registered.client == "test"
    assert checks()[0] | {} == {
        "where": "registration",
        "result": "admitted",
        "surname": "Dupont",
        "first_names": "Jean Pierre",
        "birth_date": "1980-05-17",
    }


def test_member_numbers_follow_the_highest_and_ignore_other_forms(reception: User) -> None:
    PlayerFactory.create(member_number="M-000041")
    PlayerFactory.create(member_number="M000999")  # the factory's, not the door's form
    PlayerFactory.create(member_number="P1")

    assert register(reception).member_number == "M-000042"


@pytest.mark.parametrize(
    "field",
    [
        "surname",
        "first_names",
        "birth_date",
        "birth_place",
        "address",
        "document_type",
        "document_number",
        "document_expiry",
    ],
)
def test_every_field_is_required(reception: User, field: str) -> None:
    blank = None if field in ("birth_date", "document_expiry") else "  "

    with pytest.raises(InvalidInputError) as refused:
        register(reception, **{field: blank})

    assert refused.value.code == ErrorCode.INVALID_INPUT
    assert refused.value.fields == {field: ["This field is required."]}
    assert not Player.objects.exists() and not checks()


def test_wrong_values_are_said_field_by_field(reception: User) -> None:
    with pytest.raises(InvalidInputError) as refused:
        register(
            reception,
            birth_date=date(2027, 1, 1),
            document_type="library_card",
            document_expiry="soon",
            surname="x" * 101,
        )

    fields = refused.value.fields
    assert set(fields) == {"birth_date", "document_type", "document_expiry", "surname"}
    assert fields["birth_date"] == ["The date of birth cannot be in the future."]
    assert "identity_card" in fields["document_type"][0]
    assert fields["document_expiry"] == ["Enter a date (YYYY-MM-DD)."]


def test_an_expired_document_is_refused_and_one_valid_today_is_taken(reception: User) -> None:
    with pytest.raises(InvalidInputError) as refused:
        register(reception, document_expiry=date(2026, 11, 30))

    assert "expired on 2026-11-30" in refused.value.fields["document_expiry"][0]
    assert register(reception, document_expiry=TODAY).member_number == "M-000001"


def test_a_document_is_registered_once(reception: User) -> None:
    register(reception)

    with pytest.raises(InvalidInputError) as refused:
        register(reception, surname="Autre", document_number="X12345678")

    assert list(refused.value.fields) == ["document_number"]


def test_only_the_door_keepers_register_players() -> None:
    for role in (Role.CROUPIER, Role.CHANGEUR, Role.AUDITOR):
        with pytest.raises(PermissionDeniedError):
            register(UserFactory.create(roles=[role]))
    for role in (Role.RECEPTION, Role.INSPECTOR, Role.MANAGER):
        register(UserFactory.create(roles=[role]), document_number=f"D-{role}")
    assert Player.objects.count() == 3


def test_under_18_is_refused_the_day_before_and_admitted_on_the_18th_birthday(
    reception: User,
) -> None:
    with pytest.raises(PlayerRefusedError) as refused:
        register(reception, birth_date=date(2008, 12, 2))

    assert refused.value.message == REFUSAL and refused.value.http_status == 422
    assert checks()[-1]["result"] == "refused" and checks()[-1]["reason"] == "under_age"
    assert not Player.objects.exists()
    assert register(reception, birth_date=date(2008, 12, 1)).birth_date == date(2008, 12, 1)


def test_the_age_counts_whole_years_even_for_a_29_february() -> None:
    assert age_on(date(2008, 2, 29), date(2026, 2, 28)) == 17
    assert age_on(date(2008, 2, 29), date(2026, 3, 1)) == 18
    assert age_on(date(2008, 12, 1), date(2026, 11, 30)) == 17


def test_a_barred_person_is_refused_in_words_that_reveal_nothing(reception: User) -> None:
    entry = exclusion_add(
        surname="DUPONT",
        first_names="Jean",
        birth_date=date(1980, 5, 17),
        source="ministry",
        reference="MIN-1",
        added_by=reception,
        today=TODAY,
    )

    with pytest.raises(PlayerRefusedError) as refused:
        register(reception, surname="Dupônt", first_names="jean-pierre")

    assert str(refused.value) == REFUSAL and refused.value.extra == {}
    assert not Player.objects.exists()
    # The audit row says why, for the auditors; the refusal said nothing of it.
    assert checks()[-1] | {} == {
        "where": "registration",
        "result": "refused",
        "reason": "barred",
        "exclusion": str(entry.public_id),
        "source": "ministry",
        "surname": "Dupônt",
        "first_names": "jean-pierre",
        "birth_date": "1980-05-17",
    }


def test_a_lifted_bar_admits_the_person_again(reception: User) -> None:
    entry = exclusion_add(
        surname="Dupont",
        first_names="Jean Pierre",
        birth_date=date(1980, 5, 17),
        source="self_exclusion",
        added_by=reception,
        today=TODAY,
    )
    with pytest.raises(PlayerRefusedError):
        register(reception)

    exclusion_lift(entry=entry, reason="End of the self-exclusion period", lifted_by=reception)

    assert register(reception).member_number == "M-000001"
    assert [c["result"] for c in checks()] == ["refused", "admitted"]


def test_a_bar_not_in_force_yet_or_any_more_does_not_refuse(reception: User) -> None:
    for start, end in ((date(2027, 1, 1), None), (date(2020, 1, 1), date(2026, 11, 30))):
        exclusion_add(
            surname="Dupont",
            first_names="Jean",
            birth_date=date(1980, 5, 17),
            source="house",
            effective_from=start,
            until=end,
            added_by=reception,
            today=TODAY,
        )

    assert register(reception).has_identity


def test_another_person_of_the_same_name_is_admitted(reception: User) -> None:
    exclusion_add(
        surname="Dupont",
        first_names="Jean Pierre",
        birth_date=date(1981, 5, 17),  # not the same birth
        source="ministry",
        added_by=reception,
        today=TODAY,
    )
    exclusion_add(
        surname="Dupont",
        first_names="Paul",  # not the same first names
        birth_date=date(1980, 5, 17),
        source="ministry",
        added_by=reception,
        today=TODAY,
    )

    assert register(reception).has_identity


def test_a_refusal_row_stands_when_the_callers_action_is_refused(reception: User) -> None:
    player = register(reception)
    exclusion_add(
        surname="DUPONT",
        first_names="Jean Pierre",
        birth_date=date(1980, 5, 17),
        source="house",
        added_by=reception,
        today=TODAY,
    )
    croupier = UserFactory.create(roles=[Role.CROUPIER])

    with pytest.raises(PlayerRefusedError):
        player_admission_check(player=player, user=croupier, where="seat", today=TODAY)

    row = AuditEntry.objects.filter(action="admission_check").last()
    assert row is not None and row.actor == croupier
    assert row.data["player"] == str(player.public_id) and row.data["reason"] == "barred"


def test_the_check_refuses_to_run_inside_the_callers_transaction(reception: User) -> None:
    player = register(reception)

    # Its audit row would be rolled back with the caller's refused action: it is called
    # before, outside the caller's atomic block.
    with pytest.raises(RuntimeError), transaction.atomic():
        player_admission_check(player=player, user=reception, where="seat", today=TODAY)


def test_the_check_by_member_numbers_writes_one_row_per_player(reception: User) -> None:
    one = register(reception)
    two = register(reception, surname="Martin", document_number="P2")
    exclusion_add(
        surname="Martin",
        first_names="Jean",
        birth_date=date(1980, 5, 17),
        source="ministry",
        added_by=reception,
        today=TODAY,
    )
    croupier = UserFactory.create(roles=[Role.CROUPIER])

    player_admission_check_codes(
        codes=[one.member_number, "NOBODY"], user=croupier, where="standing", today=TODAY
    )
    with pytest.raises(PlayerRefusedError):
        player_admission_check_codes(
            codes=[one.member_number, two.member_number],
            user=croupier,
            where="banker",
            today=TODAY,
        )

    rows = checks()[-3:]
    assert [(r["member_number"], r["where"], r["result"]) for r in rows] == [
        ("M-000001", "standing", "admitted"),
        ("M-000001", "banker", "admitted"),
        ("M-000002", "banker", "refused"),
    ]


def test_a_player_without_an_identity_is_not_admitted_until_the_door_records_it(
    reception: User, settings: Any
) -> None:
    legacy = PlayerFactory.create()
    settings.ADMISSION_REQUIRES_IDENTITY = True  # the project's default (tests/settings.py)

    with pytest.raises(PlayerRefusedError):
        player_admission_check(player=legacy, user=reception, where="seat", today=TODAY)
    settings.ADMISSION_REQUIRES_IDENTITY = False
    player_admission_check(player=legacy, user=reception, where="seat", today=TODAY)

    assert [(c["result"], c["reason"]) for c in checks()] == [
        ("refused", "identity_missing"),
        ("admitted", "identity_missing"),
    ]


def test_an_identity_is_checked_before_registration() -> None:
    user = UserFactory.create(roles=[Role.INSPECTOR])
    young = Identity("Petit", "Léa", date(2010, 1, 1))

    with pytest.raises(PlayerRefusedError):
        player_admission_check(identity=young, user=user, where="registration", today=TODAY)
    with pytest.raises(ValueError):
        player_admission_check(identity=young, user=user, where="bar", today=TODAY)


def test_names_are_folded_for_matching() -> None:
    assert name_key("  Hélène  DE LA Tour-d’Auvergne ") == "helene de la tour d auvergne"
    assert name_key("Œdipe SCHÖẞ") == "oedipe schoss"


# -- the search ---------------------------------------------------------------------------------


def _people(reception: User) -> None:
    register(reception)
    register(reception, surname="Lefèvre", first_names="Hélène", document_number="AB7")
    register(reception, surname="Martinez", first_names="Luis", document_number="PASS-9")


def test_the_search_finds_by_name_member_number_and_document(reception: User) -> None:
    _people(reception)

    assert [p.name for p in player_search(query="dupo")] == ["DUPONT Jean Pierre"]
    assert [p.name for p in player_search(query="M-000003")] == ["MARTINEZ Luis"]
    assert [p.name for p in player_search(query="pass-9")] == ["MARTINEZ Luis"]
    assert player_search(query="d") == [] and player_search(query="") == []
    assert player_search(query="--") == [] and player_search(query="%_") == []
    assert len(player_search(query="M-00", limit=2)) == 2


def test_the_search_on_sqlite_falls_back_to_contains_and_prefix(reception: User) -> None:
    from django.db import connection

    if connection.vendor != "sqlite":
        pytest.skip("the SQLite fallback")
    _people(reception)

    assert [p.name for p in player_search(query="LEF")] == ["LEFÈVRE Hélène"]
    assert player_search(query="dupnot") == []  # no trigrams: a typo finds nothing


@pytest.mark.postgres
def test_the_search_forgives_typos_and_accents_on_postgresql(reception: User) -> None:
    _people(reception)
    for index in range(30):
        PlayerFactory.create(name=f"OTHER Person{index}", member_number=f"Z{index}")

    assert [p.name for p in player_search(query="dupond")][:1] == ["DUPONT Jean Pierre"]
    assert [p.name for p in player_search(query="lefevre helene")][:1] == ["LEFÈVRE Hélène"]
    assert [p.name for p in player_search(query="martines")][:1] == ["MARTINEZ Luis"]
    assert [p.name for p in player_search(query="x12345678")] == ["DUPONT Jean Pierre"]


# -- one gaming session at a time ---------------------------------------------------------------


def test_a_second_gaming_session_is_refused_by_the_service() -> None:
    manager = UserFactory.create(roles=[Role.MANAGER])
    first = gaming_session_open(opened_by=manager)

    with pytest.raises(InvalidStateError) as refused:
        gaming_session_open(opened_by=manager)

    assert refused.value.message == "A gaming session is already open."
    assert list(GamingSession.objects.all()) == [first]
    first.closed_at, first.closed_by = timezone.now(), manager
    first.save()
    assert gaming_session_open(opened_by=manager).is_open


def test_a_second_open_gaming_session_is_refused_by_the_database() -> None:
    manager = UserFactory.create(roles=[Role.MANAGER])
    GamingSession.objects.create(opened_at=timezone.now(), opened_by=manager)
    now = timezone.now()
    GamingSession.objects.create(
        opened_at=now, opened_by=manager, closed_at=now, closed_by=manager
    )  # closed ones are many

    with pytest.raises(IntegrityError), transaction.atomic():
        GamingSession.objects.create(opened_at=timezone.now(), opened_by=manager)

    assert GamingSession.objects.filter(closed_at__isnull=True).count() == 1
