"""factory_boy factories. Ledger rows are never made by factories: use ledger.services.post."""

from __future__ import annotations

from typing import Any

import factory
from django.contrib.auth.models import Group, User
from django.utils import timezone

from establishment.house import house_journee_of, house_settings_in_force
from establishment.models import GamingSession, Player
from establishment.roles import Role
from tables.models import Game, SeatOccupancy, Table, TableSession


class UserFactory(factory.django.DjangoModelFactory[User]):
    class Meta:
        model = User
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"staff{n}")
    password = factory.django.Password("password")

    @factory.post_generation
    def roles(self: User, create: bool, extracted: list[Role] | None, **kwargs: Any) -> None:
        if create and extracted:
            for role in extracted:
                self.groups.add(Group.objects.get(name=role))


class PlayerFactory(factory.django.DjangoModelFactory[Player]):
    class Meta:
        model = Player

    name = factory.Faker("name")
    member_number = factory.Sequence(lambda n: f"M{n:06d}")


class GamingSessionFactory(factory.django.DjangoModelFactory[GamingSession]):
    class Meta:
        model = GamingSession

    opened_at = factory.LazyFunction(timezone.now)
    opened_by = factory.SubFactory(UserFactory, roles=[Role.MANAGER])


class TableFactory(factory.django.DjangoModelFactory[Table]):
    """A table saved without engine validation (use tables.services.table_create to validate)."""

    class Meta:
        model = Table

    number = factory.Sequence(lambda n: n + 100)
    game = Game.CHEMIN_DE_FER
    settings = factory.LazyFunction(lambda: {"decks": 6})
    seat_count = 12


class TableSessionFactory(factory.django.DjangoModelFactory[TableSession]):
    class Meta:
        model = TableSession

    table = factory.SubFactory(TableFactory)
    gaming_session = factory.SubFactory(GamingSessionFactory)
    game = factory.SelfAttribute("table.game")
    settings = factory.SelfAttribute("table.settings")
    seat_count = factory.SelfAttribute("table.seat_count")
    opened_at = factory.LazyFunction(timezone.now)
    opened_by = factory.SelfAttribute("gaming_session.opened_by")
    house_settings = factory.LazyFunction(house_settings_in_force)
    journee = factory.LazyAttribute(lambda ts: house_journee_of(ts.opened_at, ts.house_settings))


class SeatOccupancyFactory(factory.django.DjangoModelFactory[SeatOccupancy]):
    class Meta:
        model = SeatOccupancy

    table_session = factory.SubFactory(TableSessionFactory)
    player = factory.SubFactory(PlayerFactory)
    seat_number = factory.Sequence(lambda n: n % 12 + 1)
    sat_at = factory.LazyFunction(timezone.now)
