"""The house's settings and its gaming day (docs/registers.md, "Common to every register"):
a séance belongs to the journée in which it opened, across midnight and across both
daylight-saving changes; a change of the settings is a new version, never an edit."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

import pytest
from django.db import models, transaction

from establishment.errors import AppendOnlyError, InvalidInputError, PermissionDeniedError
from establishment.house import (
    house_journee_of,
    house_settings_change,
    house_settings_current,
    house_settings_in_force,
    journee_bounds,
    journee_of,
)
from establishment.models import AuditEntry, HouseSettings
from establishment.roles import Role
from tests.db_owner import history_refusal
from tests.factories import UserFactory

PARIS = "Europe/Paris"
SIX = time(6, 0)


def utc(year: int, month: int, day: int, hour: int, minute: int) -> datetime:
    return datetime(year, month, day, hour, minute, tzinfo=UTC)


@pytest.mark.parametrize(
    ("moment", "journee"),
    [
        # an evening in winter (UTC+1): the night of 1 December
        (utc(2026, 12, 1, 20, 0), date(2026, 12, 1)),
        (utc(2026, 12, 1, 22, 59), date(2026, 12, 1)),  # 23:59 in Paris
        (utc(2026, 12, 1, 23, 0), date(2026, 12, 1)),  # midnight in Paris: still the 1st
        (utc(2026, 12, 2, 4, 59), date(2026, 12, 1)),  # 05:59
        (utc(2026, 12, 2, 5, 0), date(2026, 12, 2)),  # 06:00: the next journée
        # the clocks go forward on 29 March 2026 at 02:00 (to 03:00): UTC+1 then UTC+2
        (utc(2026, 3, 29, 0, 59), date(2026, 3, 28)),  # 01:59 CET
        (utc(2026, 3, 29, 1, 0), date(2026, 3, 28)),  # 03:00 CEST
        (utc(2026, 3, 29, 3, 59), date(2026, 3, 28)),  # 05:59 CEST
        (utc(2026, 3, 29, 4, 0), date(2026, 3, 29)),  # 06:00 CEST
        # the clocks go back on 25 October 2026 at 03:00 (to 02:00): 02:30 comes twice
        (utc(2026, 10, 25, 0, 30), date(2026, 10, 24)),  # 02:30 CEST
        (utc(2026, 10, 25, 1, 30), date(2026, 10, 24)),  # 02:30 CET
        (utc(2026, 10, 25, 4, 59), date(2026, 10, 24)),  # 05:59 CET
        (utc(2026, 10, 25, 5, 0), date(2026, 10, 25)),  # 06:00 CET
    ],
)
def test_a_moment_belongs_to_the_journee_that_began_before_it(
    moment: datetime, journee: date
) -> None:
    assert journee_of(moment, turns_at=SIX, time_zone=PARIS) == journee
    start, end = journee_bounds(journee, turns_at=SIX, time_zone=PARIS)
    assert start <= moment < end


def test_a_journee_lasts_23_or_25_hours_on_the_nights_the_clocks_change() -> None:
    def length(day: date) -> timedelta:
        start, end = journee_bounds(day, turns_at=SIX, time_zone=PARIS)
        return end - start

    assert length(date(2026, 12, 1)) == timedelta(hours=24)
    assert length(date(2026, 3, 28)) == timedelta(hours=23)
    assert length(date(2026, 10, 24)) == timedelta(hours=25)
    # consecutive journées leave no gap and never overlap
    days = [date(2026, 3, 27) + timedelta(days=n) for n in range(250)]
    for day, following in zip(days, days[1:], strict=False):
        assert (
            journee_bounds(day, turns_at=SIX, time_zone=PARIS)[1]
            == (journee_bounds(following, turns_at=SIX, time_zone=PARIS)[0])
        )


def test_an_hour_the_clocks_skip_or_repeat_turns_the_journee_once() -> None:
    half_past_two = time(2, 30)
    # Spring: 02:30 never comes; the journée turns when the clocks jump (01:00 UTC).
    start, _ = journee_bounds(date(2026, 3, 29), turns_at=half_past_two, time_zone=PARIS)
    assert start == utc(2026, 3, 29, 1, 0)
    assert journee_of(utc(2026, 3, 29, 0, 59), turns_at=half_past_two, time_zone=PARIS) == date(
        2026, 3, 28
    )
    # Autumn: 02:30 comes twice; the first time turns it, the second stays in the same journée.
    start, _ = journee_bounds(date(2026, 10, 25), turns_at=half_past_two, time_zone=PARIS)
    assert start == utc(2026, 10, 25, 0, 30)
    for moment in (utc(2026, 10, 25, 1, 0), utc(2026, 10, 25, 1, 45)):
        assert journee_of(moment, turns_at=half_past_two, time_zone=PARIS) == date(2026, 10, 25)


def test_another_zone_and_hour() -> None:
    # A London club whose day turns at noon (docs/registers.md): 11:59 BST is still yesterday.
    noon = time(12, 0)
    assert journee_of(utc(2026, 7, 1, 10, 59), turns_at=noon, time_zone="Europe/London") == date(
        2026, 6, 30
    )
    assert journee_of(utc(2026, 7, 1, 11, 0), turns_at=noon, time_zone="Europe/London") == date(
        2026, 7, 1
    )


@pytest.mark.django_db
def test_the_installation_starts_with_the_defaults() -> None:
    assert house_settings_current().pk is None  # not stored until a séance keeps them
    house = house_settings_in_force()
    assert house.pk is not None
    assert house_settings_current() == house
    assert (house.currency, house.cents_per_chip, house.journee_turns_at, house.time_zone) == (
        "EUR",
        1,
        SIX,
        PARIS,
    )
    assert (house.levy_tie_rule, house.levy_record) == ("up", "machine")
    assert house_journee_of(utc(2026, 12, 2, 3, 0)) == date(2026, 12, 1)


@pytest.mark.django_db
def test_a_change_is_a_new_version_with_who_and_why() -> None:
    manager = UserFactory.create(roles=[Role.MANAGER])
    first = house_settings_in_force()
    version = house_settings_change(
        changed_by=manager,
        reason="A chip is worth ten cents.",
        cents_per_chip="10",
        journee_turns_at="05:30",
        levy_tie_rule="even",
    )
    assert house_settings_current() == version
    assert (version.cents_per_chip, version.journee_turns_at, version.levy_tie_rule) == (
        10,
        time(5, 30),
        "even",
    )
    assert (version.currency, version.time_zone) == ("EUR", PARIS)  # what was not given stays
    assert HouseSettings.objects.filter(pk=first.pk).get().cents_per_chip == 1  # never edited
    row = AuditEntry.objects.get(action="house_settings_change")
    assert row.actor == manager
    assert row.data["settings"]["cents_per_chip"] == "10"
    assert row.data["settings"]["reason"] == "A chip is worth ten cents."


@pytest.mark.django_db
def test_bad_settings_are_refused_field_by_field_and_change_nothing() -> None:
    manager = UserFactory.create(roles=[Role.MANAGER])
    before = HouseSettings.objects.count()
    with pytest.raises(InvalidInputError) as refused:
        house_settings_change(
            changed_by=manager,
            reason="",
            currency="USD",
            cents_per_chip=0,
            journee_turns_at="25:00",
            time_zone="Paris",
            levy_record="paper",
            colour="green",
        )
    fields = refused.value.fields
    assert set(fields) == {
        "currency",
        "cents_per_chip",
        "journee_turns_at",
        "time_zone",
        "levy_record",
        "colour",
        "reason",
    }
    assert "EUR, GBP" in fields["currency"][0]
    assert "Europe/Paris" in fields["time_zone"][0]
    assert HouseSettings.objects.count() == before


@pytest.mark.django_db
def test_only_a_manager_changes_the_house() -> None:
    inspector = UserFactory.create(roles=[Role.INSPECTOR])
    with pytest.raises(PermissionDeniedError):
        house_settings_change(changed_by=inspector, reason="x", cents_per_chip=5)


@pytest.mark.django_db
def test_a_version_is_never_changed_nor_deleted_even_behind_the_model() -> None:
    house = house_settings_in_force()
    with pytest.raises(AppendOnlyError):
        house.save()
    with pytest.raises(AppendOnlyError):
        HouseSettings.objects.all().delete()
    with pytest.raises(history_refusal()), transaction.atomic():
        models.QuerySet.update(HouseSettings.objects.all(), cents_per_chip=2)
    with pytest.raises(history_refusal()), transaction.atomic():
        models.QuerySet.delete(HouseSettings.objects.all())


@pytest.mark.django_db
def test_a_seance_keeps_the_settings_and_the_journee_it_opened_with(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from django.utils import timezone

    from tests.concurrency.kit import cf_table, floor_open

    floor = floor_open()
    # 01:30 in Paris on 2 December: the séance belongs to the journée of 1 December.
    monkeypatch.setattr(timezone, "now", lambda: utc(2026, 12, 2, 0, 30))
    seance = cf_table(floor)
    first = house_settings_current()
    assert (seance.journee, seance.house_settings) == (date(2026, 12, 1), first)
    house_settings_change(changed_by=floor.manager, reason="tickets", levy_record="tickets")
    seance.refresh_from_db()
    assert seance.house_settings == first  # a change applies to séances opened after it


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("tie", "rounding"), [("up", "nearest"), ("down", "nearest_down"), ("even", "nearest_even")]
)
def test_a_seance_rounds_a_levy_halfway_as_the_house_says(tie: str, rounding: str) -> None:
    from tests.concurrency.kit import CF_SETTINGS, floor_open, table_open

    floor = floor_open()
    house_settings_change(changed_by=floor.manager, reason="art. 59", levy_tie_rule=tie)
    nearest = {**CF_SETTINGS, "cagnotte_rounding": "nearest", "cagnotte_step": 10}
    seats = {seat: f"T{tie}{seat}" for seat in range(1, 4)}
    seance = table_open(floor, "chemin_de_fer", nearest, seats)
    assert seance.settings["cagnotte_rounding"] == rounding
    assert seance.table.settings["cagnotte_rounding"] == "nearest"  # the table's own stays
    down = table_open(
        floor,
        "chemin_de_fer",
        CF_SETTINGS,
        {1: f"U{tie}1", 2: f"U{tie}2"},
        croupier=UserFactory.create(roles=[Role.CROUPIER]),
    )
    assert down.settings.get("cagnotte_rounding", "down") == "down"  # not rounded to nearest


@pytest.mark.django_db
def test_the_manager_changes_the_house_on_screen_and_bad_input_is_said_in_place() -> None:
    from django.test import Client
    from django.urls import reverse

    manager = Client()
    manager.force_login(UserFactory.create(roles=[Role.MANAGER]))
    page = manager.get(reverse("house:index"))
    assert page.status_code == 200
    assert 'data-testid="house-versions"' in page.content.decode()
    url = reverse("house:change")
    headers = {"HX-Request": "true"}
    refused = manager.post(url, {"time_zone": "Mars/Olympus", "reason": "x"}, headers=headers)
    assert refused.status_code == 422
    assert 'data-testid="problem"' in refused.content.decode()
    assert not HouseSettings.objects.exists()
    done = manager.post(
        url,
        {"cents_per_chip": "10", "journee_turns_at": "05:00", "reason": "new chips"},
        headers=headers,
    )
    assert done.status_code == 200
    assert house_settings_current().cents_per_chip == 10
    croupier = Client()
    croupier.force_login(UserFactory.create(roles=[Role.CROUPIER]))
    assert croupier.get(reverse("house:index")).status_code == 403
