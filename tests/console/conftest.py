"""Fixtures of the console's view tests: a chemin de fer table with six players and two
standing, its croupier on duty, another croupier, an inspector and an auditor."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client

from establishment.models import Player
from establishment.roles import Role
from establishment.services import gaming_session_open
from tables.management.commands.demo_data import DEMO_TABLES
from tables.models import AssignmentRole, TableSession
from tables.services import staff_assign, table_create, table_session_open

# The demo's chemin de fer table's settings (the worked examples' table).
CF_SETTINGS = dict(DEMO_TABLES[0].settings)


@dataclass
class Floor:
    table_session: TableSession
    other_session: TableSession
    croupier: User
    other_croupier: User
    inspector: User
    auditor: User
    changeur: User


def staff_user(username: str, role: Role) -> User:
    user = User.objects.create_user(username=username, password="password")
    user.groups.add(Group.objects.get(name=role))
    return user


@pytest.fixture
def floor(db: Any) -> Floor:
    manager = staff_user("manager", Role.MANAGER)
    croupier = staff_user("croupier", Role.CROUPIER)
    other = staff_user("other", Role.CROUPIER)
    inspector = staff_user("inspector", Role.INSPECTOR)
    auditor = staff_user("auditor", Role.AUDITOR)
    changeur = staff_user("changeur", Role.CHANGEUR)
    for code in ("S1", "S2", "S3", "S4", "S5", "S6", "X", "Y", "Z"):
        Player.objects.create(member_number=code, name=f"Player {code}")
    session = gaming_session_open(opened_by=manager)
    table = table_create(
        number=1, game="chemin_de_fer", settings=CF_SETTINGS, seat_count=12, created_by=manager
    )
    table_session = table_session_open(
        table=table,
        gaming_session=session,
        opened_by=manager,
        seats={n: f"S{n}" for n in range(1, 7)},
        standing=["X", "Y"],
    )
    staff_assign(
        table_session=table_session,
        staff=croupier,
        role=AssignmentRole.CROUPIER,
        assigned_by=manager,
    )
    other_table = table_create(
        number=2, game="pontoon", settings={"min_stake": 5}, created_by=manager
    )
    other_session = table_session_open(table=other_table, gaming_session=session, opened_by=manager)
    staff_assign(
        table_session=other_session,
        staff=other,
        role=AssignmentRole.CROUPIER,
        assigned_by=manager,
    )
    return Floor(table_session, other_session, croupier, other, inspector, auditor, changeur)


@pytest.fixture
def croupier_client(floor: Floor) -> Client:
    client = Client()
    client.force_login(floor.croupier)
    return client
