"""Alerts that someone must acknowledge (docs/audit.md, "Alerts"): raised once per finding by
the nightly re-audit and its checks, shown to the roles concerned until one of them
acknowledges it with a reason; who and when are kept, beside the audit row."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from establishment.errors import InvalidInputError, InvalidStateError, PermissionDeniedError
from establishment.models import GamingSession
from establishment.roles import Role
from establishment.services import audit
from establishment.staff import roles_of
from reports.audit.models import Acknowledgement, Alert, AlertKind

# Who is shown each kind of alert, and may acknowledge it.
CONCERNED: dict[str, frozenset[str]] = {
    AlertKind.BOOKS_DISAGREE: frozenset({Role.MANAGER, Role.AUDITOR}),
    AlertKind.HASH_BROKEN: frozenset({Role.MANAGER, Role.AUDITOR}),
    AlertKind.STATISTICAL_FLAG: frozenset({Role.MANAGER, Role.AUDITOR}),
    AlertKind.ABNORMAL_PACE: frozenset({Role.INSPECTOR, Role.MANAGER, Role.AUDITOR}),
    AlertKind.CORRECTIONS: frozenset({Role.INSPECTOR, Role.MANAGER, Role.AUDITOR}),
    AlertKind.CAGNOTTE_SHORTFALL: frozenset({Role.MANAGER, Role.AUDITOR}),
}
REASON_MAX = 2_000


def alert_raise(
    kind: AlertKind,
    key: str,
    *,
    gaming_session: GamingSession | None = None,
    table_number: int | None = None,
    **detail: Any,
) -> Alert:
    """The alert for this finding, raised now unless it was already (`key` names the finding:
    the same night, table or person found again raises nothing new)."""
    found = Alert.objects.filter(kind=kind, key=key[:200]).first()
    if found is not None:
        return found
    try:
        with transaction.atomic():
            return Alert.objects.create(
                kind=kind,
                key=key[:200],
                raised_at=timezone.now(),
                gaming_session=gaming_session,
                table_number=table_number,
                detail=detail,
            )
    except IntegrityError:  # raised at the same moment by another run
        return Alert.objects.get(kind=kind, key=key[:200])


def _kinds_for(user: Any) -> list[str]:
    held = roles_of(user)
    return [kind for kind, roles in CONCERNED.items() if roles & held]


def alerts_for(user: Any, *, state: str = "open") -> QuerySet[Alert]:
    """The alerts of the kinds `user` is concerned with: "open" (not yet acknowledged, the
    default), "acknowledged" or "all"; newest first."""
    alerts = Alert.objects.filter(kind__in=_kinds_for(user)).select_related(
        "acknowledgement__by", "gaming_session"
    )
    if state == "open":
        return alerts.filter(acknowledgement__isnull=True)
    if state == "acknowledged":
        return alerts.filter(acknowledgement__isnull=False)
    return alerts


def alerts_of_night(gaming_session: GamingSession) -> QuerySet[Alert]:
    """Every alert about one night, acknowledged or not (the settlement report lists them)."""
    return Alert.objects.filter(gaming_session=gaming_session).select_related("acknowledgement__by")


def alert_acknowledge(
    *, alert: Alert, user: User, reason: str, client: str = ""
) -> Acknowledgement:
    """`user`, one of the roles the alert concerns, acknowledges it, saying why: once."""
    if not CONCERNED[alert.kind] & roles_of(user):
        raise PermissionDeniedError(_("This alert is not one your roles are shown."))
    reason = reason.strip()
    if not reason or len(reason) > REASON_MAX:
        message = _("Say why the alert can be set aside (1 to %(most)d characters).") % {
            "most": REASON_MAX
        }
        raise InvalidInputError(message, fields={"reason": [message]})
    try:
        # One acknowledgement per alert: the second of two at once is refused by the unique
        # alert of `Acknowledgement` (the application may not lock history rows for update).
        with transaction.atomic():
            done = Acknowledgement.objects.create(
                alert=alert, by=user, at=timezone.now(), reason=reason
            )
            audit(
                user=user,
                action="alert_acknowledged",
                gaming_session=alert.gaming_session,
                client=client,
                alert=str(alert.public_id),
                kind=alert.kind,
                reason=reason,
            )
    except IntegrityError:
        raise InvalidStateError(_("This alert has already been acknowledged.")) from None
    return done


def alert_text(alert: Alert) -> str:
    """What the alert says, in the reader's language."""
    detail = alert.detail
    table = alert.table_number
    if alert.kind == AlertKind.BOOKS_DISAGREE:
        return _("%(count)d difference(s) between the tables replayed and the books.") % {
            "count": len(detail.get("differences", []))
        }
    if alert.kind == AlertKind.HASH_BROKEN:
        return _("%(what)s: %(problem)s") % {
            "what": detail.get("what", ""),
            "problem": detail.get("problem", ""),
        }
    if alert.kind == AlertKind.ABNORMAL_PACE:
        return _("Table %(table)s: %(pace)s coups per hour, against a usual %(usual)s.") % {
            "table": table,
            "pace": detail.get("pace"),
            "usual": detail.get("usual"),
        }
    if alert.kind == AlertKind.CORRECTIONS:
        return _("%(person)s: %(undos)d undo(s) and %(voids)d void request(s) in the night.") % {
            "person": detail.get("person", ""),
            "undos": detail.get("undos", 0),
            "voids": detail.get("voids", 0),
        }
    if alert.kind == AlertKind.CAGNOTTE_SHORTFALL:
        return _("Table %(table)s: %(counted)s counted against %(expected)s expected.") % {
            "table": table,
            "counted": detail.get("counted"),
            "expected": detail.get("expected"),
        }
    return _("%(measure)s at %(where)s: z = %(z)s over %(coups)s coups.") % {
        "measure": detail.get("measure", ""),
        "where": detail.get("where", ""),
        "z": detail.get("z"),
        "coups": detail.get("coups"),
    }


class _OpenAlerts:
    """How many alerts the user's roles still have to acknowledge, counted only when a page
    asks (`base.html`'s banner; the table screen's partials never do)."""

    def __init__(self, user: Any) -> None:
        self._user = user
        self._count: int | None = None

    @property
    def count(self) -> int:
        if self._count is None:
            kinds = _kinds_for(self._user)
            self._count = alerts_for(self._user).count() if kinds else 0
        return self._count


def open_alerts(request: Any) -> dict[str, Any]:
    """A template context processor (casino/settings.py): `open_alerts.count`."""
    return {"open_alerts": _OpenAlerts(request.user)}
