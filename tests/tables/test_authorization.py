"""Who may do what at which table, exhaustively (docs/conventions.md, invariant 8).

Roles × (own table, other table) × (record, undo, request a void, approve a void, close the
table, close the gaming session) → allowed or refused (`PermissionDeniedError`, a 403), with
requests that name the other table's coup. "Own table" is table A, where the croupier is on
duty; table B has a croupier of its own. Both are in the same gaming session.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from functools import partial
from typing import Any

import pytest
from django.contrib.auth.models import User

from establishment.errors import NotFoundError, PermissionDeniedError
from establishment.roles import Role
from tables.models import AssignmentRole, Coup, CroupierAssignment, TableSession, VoidRequest
from tables.services import (
    gaming_session_close,
    record,
    staff_assign,
    table_session_close,
    undo,
    void_decide,
    void_request,
    void_request_get,
)
from tables.services.journal import last_seq_get
from tests.concurrency.kit import Croupier, Floor, cf_banker_wins, cf_table, floor_open
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

ROLES = (
    "croupier_here",
    "croupier_elsewhere",
    "inspector",
    "auditor",
    "manager",
    "changeur_here",
    "inactive",
)
ACTIONS = ("record", "undo", "void_request", "void_approve", "table_close", "session_close")
TARGETS = ("own", "other")


def expected(role: str, target: str, action: str) -> bool:
    """The rules: record, undo and asking for a void — the croupier on duty at that table or
    an inspector; deciding a void — an inspector (never the requester); closing a table or
    the night — an inspector or a manager. An inactive account may do nothing."""
    on_duty = (role, target) in {("croupier_here", "own"), ("croupier_elsewhere", "other")}
    if action in ("record", "undo", "void_request"):
        return on_duty or role == "inspector"
    if action == "void_approve":
        return role == "inspector"
    return role in ("inspector", "manager")


@dataclass
class Room:
    floor: Floor
    tables: dict[str, TableSession]
    requests: dict[str, VoidRequest]
    users: dict[str, User]


def _room(around: Callable[[], AbstractContextManager[Any]]) -> Room:
    floor = floor_open()
    elsewhere = UserFactory.create(roles=[Role.CROUPIER])
    tables = {
        "own": cf_table(floor, prefix="A"),
        "other": cf_table(floor, prefix="B", croupier=elsewhere),
    }
    requests = {}
    for target, table in tables.items():
        croupier = floor.croupier if target == "own" else elsewhere
        at = Croupier(table, croupier, around)
        at.do("new_shoe", cut_by=1)
        at.play(cf_banker_wins(1000))
        at.do("continue_bank", 1, reliquat=0)
        coup = Coup.objects.get(table_session=table, number=1)
        requests[target] = void_request(coup=coup, user=floor.inspector2, reason="checked")
    changeur = UserFactory.create(roles=[Role.CHANGEUR])
    staff_assign(
        table_session=tables["own"],
        staff=changeur,
        role=AssignmentRole.CHANGEUR,
        assigned_by=floor.manager,
    )
    # Every role and on duty at table A: only the deactivation stands in the way.
    inactive = UserFactory.create(roles=[Role.CROUPIER, Role.INSPECTOR, Role.MANAGER])
    users = {
        "croupier_here": floor.croupier,
        "croupier_elsewhere": elsewhere,
        "inspector": floor.inspector,
        "auditor": UserFactory.create(roles=[Role.AUDITOR]),
        "manager": floor.manager,
        "changeur_here": changeur,
        "inactive": inactive,
    }
    return Room(floor, tables, requests, users)


def _inactive_on_duty(room: Room) -> None:
    """The inactive account was the croupier of table A: the shift changed, it stays assigned."""
    user = room.users["inactive"]
    table = room.tables["own"]
    CroupierAssignment.objects.filter(table_session=table, role=AssignmentRole.CROUPIER).update(
        staff=user
    )
    user.is_active = False
    user.save(update_fields=["is_active"])


def _attempt(room: Room, user: User, target: str, action: str) -> None:
    table = room.tables[target]
    key = str(uuid.uuid4())
    if action == "record":
        record(
            table_session=table,
            action={"type": "announce_bank", "actor": 1, "amount": 1950},
            expected_seq=last_seq_get(table) + 1,
            user=user,
            idempotency_key=key,
        )
    elif action == "undo":
        undo(
            table_session=table,
            expected_seq=last_seq_get(table) + 1,
            user=user,
            idempotency_key=key,
            reason="slip",
        )
    elif action == "void_request":
        pending = room.requests[target]
        void_decide(password="password", request=pending, user=room.floor.inspector, approve=False)
        void_request(coup=pending.coup, user=user, reason="the player disputes")
    elif action == "void_approve":
        void_decide(
            password="password", request=room.requests[target], user=user, approve=True, note="ok"
        )
    elif action == "table_close":
        # A table does not close over a void waiting for a decision: it is decided first.
        void_decide(
            password="password",
            request=room.requests[target],
            user=room.floor.inspector,
            approve=False,
        )
        table_session_close(table_session=table, user=user)
    else:
        # The night does not close over an open table: the inspector closes both first.
        for name, open_table in room.tables.items():
            void_decide(
                password="password",
                request=room.requests[name],
                user=room.floor.inspector,
                approve=False,
            )
            table_session_close(table_session=open_table, user=room.floor.inspector)
        gaming_session_close(gaming_session=room.floor.gaming_session, user=user)


CASES = [
    pytest.param(role, target, action, id=f"{role}-{target}-{action}")
    for role in ROLES
    for target in TARGETS
    for action in ACTIONS
    if not (action == "session_close" and target == "other")  # one session for both tables
]


@pytest.mark.parametrize(("role", "target", "action"), CASES)
def test_authorization_matrix(
    role: str,
    target: str,
    action: str,
    django_capture_on_commit_callbacks: Callable[..., AbstractContextManager[Any]],
) -> None:
    room = _room(partial(django_capture_on_commit_callbacks, execute=True))
    if role == "inactive":
        _inactive_on_duty(room)
    user = room.users[role]
    if expected(role, target, action):
        _attempt(room, user, target, action)
    else:
        with pytest.raises(PermissionDeniedError):
            _attempt(room, user, target, action)


def test_a_request_naming_another_tables_coup_is_refused_or_not_found(
    django_capture_on_commit_callbacks: Callable[..., AbstractContextManager[Any]],
) -> None:
    room = _room(partial(django_capture_on_commit_callbacks, execute=True))
    other_coup = Coup.objects.get(table_session=room.tables["other"], number=1)
    with pytest.raises(PermissionDeniedError):  # the croupier of A asks to void B's coup
        void_request(coup=other_coup, user=room.floor.croupier, reason="not mine")
    # An adapter scoped to table A does not find B's request by its public id.
    with pytest.raises(NotFoundError):
        void_request_get(
            public_id=room.requests["other"].public_id, table_session=room.tables["own"]
        )
    assert (
        void_request_get(public_id=room.requests["own"].public_id, table_session=room.tables["own"])
        == room.requests["own"]
    )
