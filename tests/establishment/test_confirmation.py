"""A signer proves who he is by re-entering his own password (docs/registers.md, "Signatures")."""

from __future__ import annotations

from typing import Any

import pytest

from establishment.confirmation import ConfirmationError, identity_confirm
from establishment.errors import ErrorCode
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_his_own_password_confirms_him_and_nothing_else_does() -> None:
    director = UserFactory.create()  # password "password"
    identity_confirm(director, "password", what="certify the count")
    for wrong in ("Password", "", None, 1234):
        with pytest.raises(ConfirmationError) as refused:
            identity_confirm(director, wrong, what="certify the count")
        assert refused.value.code == ErrorCode.CONFIRMATION_FAILED
        assert "your own password to certify the count" in refused.value.message
    other = UserFactory.create()
    other.set_password("other's")
    other.save()
    with pytest.raises(ConfirmationError):
        identity_confirm(director, "other's", what="sign")


def test_an_inactive_member_of_staff_cannot_sign() -> None:
    gone = UserFactory.create(is_active=False)
    with pytest.raises(ConfirmationError, match="Only an active member of staff may sign"):
        identity_confirm(gone, "password", what="sign")


def test_a_signature_writes_nothing_to_the_signers_account(settings: Any) -> None:
    """A hash of older hashers is hashed again at the login, not at a signature (the demo's
    accounts are kept so, establishment/demo.py)."""
    from django.contrib.auth import authenticate
    from django.contrib.auth.models import User
    from django.test import RequestFactory

    from establishment.demo import DEMO_HASH_ITERATIONS, demo_password, demo_password_set

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.PBKDF2PasswordHasher"]
    manager = UserFactory.create(username="manager")
    demo_password_set(manager)
    manager.save()
    cheap = User.objects.get(pk=manager.pk).password
    assert cheap.startswith(f"pbkdf2_sha256${DEMO_HASH_ITERATIONS}$")

    identity_confirm(manager, demo_password("manager"), what="sign")
    assert User.objects.get(pk=manager.pk).password == cheap
    login = RequestFactory().post("/login/")
    assert authenticate(login, username="manager", password=demo_password("manager"))
    assert User.objects.get(pk=manager.pk).password != cheap  # the login hashed it again
