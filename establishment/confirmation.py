"""A person proves who he is at the moment he signs (docs/registers.md, "Signatures"): he
re-enters his own password, never a name picked from a list. Used where a second person
certifies, signs or approves (a count, a register).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.hashers import check_password
from django.utils.translation import gettext as _

from establishment.errors import DomainError, ErrorCode


class ConfirmationError(DomainError):
    """The person signing did not prove who he is (wrong or missing password, or inactive)."""

    code = ErrorCode.CONFIRMATION_FAILED
    http_status = 403


def identity_confirm(user: Any, password: Any, *, what: str) -> None:
    """Refuse unless `user` is active and `password` is his own; `what` says what he signs
    ("certify the count"). The password is checked by Django's hashers, never stored; nor is
    it hashed again here (the login does that when the hashers change): a signature writes
    nothing to the signer's account."""
    if user is None or not getattr(user, "is_active", False):
        raise ConfirmationError(_("Only an active member of staff may %(what)s.") % {"what": what})
    if not isinstance(password, str) or not password or not check_password(password, user.password):
        raise ConfirmationError(
            _("%(who)s: enter your own password to %(what)s.")
            % {"who": user.get_username(), "what": what},
            staff=user.get_username(),
        )
