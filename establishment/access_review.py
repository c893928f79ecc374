"""The access review (issue 17, item 7; docs/security.md): every account, the roles it holds,
whether it may log in, when it last did, whether it is locked out, and the active accounts
nobody has used for `ACCESS_REVIEW_UNUSED_DAYS` (90) days — the ones a manager should
deactivate. Read by the manager's screen, its CSV and the API alike."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.utils import timezone
from django.utils.translation import gettext as _

from establishment.lockout import locked_until_of
from establishment.roles import Role


@dataclass(frozen=True)
class AccessRow:
    username: str
    name: str
    roles: tuple[str, ...]  # Role values, in the order of Role
    is_active: bool
    last_login: datetime | None
    date_joined: datetime
    locked_until: datetime | None
    unused: bool  # active, and no login for the review's number of days (or never, so long)

    @property
    def role_labels(self) -> tuple[str, ...]:
        labels = dict(Role.choices)
        return tuple(str(labels[role]) for role in self.roles)


def unused_days() -> int:
    return int(getattr(settings, "ACCESS_REVIEW_UNUSED_DAYS", 90))


def access_review(*, now: datetime | None = None) -> list[AccessRow]:
    """Every account, the active and unused first, then the active, then the inactive; by
    username within each (two queries and one for the lockouts, whatever the count)."""
    now = now or timezone.now()
    since = now - timedelta(days=unused_days())
    users = list(User.objects.prefetch_related("groups").order_by("username"))
    locks = locked_until_of(u.get_username() for u in users)
    rows = []
    for user in users:
        held = {group.name for group in user.groups.all()}
        seen = user.last_login or user.date_joined
        rows.append(
            AccessRow(
                username=user.get_username(),
                name=user.get_full_name(),
                roles=tuple(role for role in Role.values if role in held),
                is_active=user.is_active,
                last_login=user.last_login,
                date_joined=user.date_joined,
                locked_until=locks.get(user.get_username()),
                unused=user.is_active and seen < since,
            )
        )
    rows.sort(key=lambda r: (not r.unused, not r.is_active))
    return rows


def access_review_csv(rows: list[AccessRow]) -> str:
    """The review as CSV, headed in the reader's language; times in ISO 8601."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(
        [
            _("Username"),
            _("Name"),
            _("Roles"),
            _("Active"),
            _("Last login"),
            _("Account created"),
            _("Locked out until"),
            _("Unused for %(days)s days") % {"days": unused_days()},
        ]
    )
    for row in rows:
        writer.writerow(
            [
                row.username,
                row.name,
                " ".join(row.roles),
                "yes" if row.is_active else "no",
                row.last_login.isoformat() if row.last_login else "",
                row.date_joined.isoformat(),
                row.locked_until.isoformat() if row.locked_until else "",
                "yes" if row.unused else "no",
            ]
        )
    return out.getvalue()
