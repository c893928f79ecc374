"""Fixtures for the API tests: staff of every role, each with an API client logged in by token."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from establishment.roles import Role
from tests.factories import UserFactory

ClientFor = Callable[[User], APIClient]
StaffMaker = Callable[..., User]


@pytest.fixture
def staff() -> StaffMaker:
    """`staff(Role.CROUPIER, ...)`: a user with these roles (password "password")."""

    def make(*roles: Role) -> User:
        return UserFactory.create(roles=list(roles))

    return make


@pytest.fixture
def client_for() -> ClientFor:
    """An APIClient that sends `user`'s token, as a machine would."""

    def make(user: User) -> APIClient:
        token, _created = Token.objects.get_or_create(user=user)
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
        return client

    return make


@pytest.fixture
def anonymous() -> APIClient:
    return APIClient()
