"""The establishment: players (the house's customers) and gaming sessions (séances).

Staff are `django.contrib.auth` users; their role is a group (establishment.roles.Role).
"""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING, Any, Literal, NoReturn, TypeVar, overload

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from establishment.errors import AppendOnlyError

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django_stubs_ext import StrOrPromise


_Target = TypeVar("_Target", bound=models.Model)

# The foreign keys of the records: what a record points to is never deleted while the record
# stands (PROTECT). `optional` when the row may point to nothing (yet).


def _protected(
    to: type[models.Model] | str,
    related_name: str,
    verbose_name: StrOrPromise | None,
    optional: bool,
) -> models.ForeignKey[Any, Any]:
    extra: dict[str, Any] = {"null": True, "blank": True} if optional else {}
    if verbose_name is not None:
        extra["verbose_name"] = verbose_name
    return models.ForeignKey(to, on_delete=models.PROTECT, related_name=related_name, **extra)


@overload
def protected_fk(
    to: type[_Target],
    related_name: str,
    verbose_name: StrOrPromise | None = None,
    *,
    optional: Literal[False] = ...,
) -> models.ForeignKey[_Target, _Target]: ...


@overload
def protected_fk(
    to: type[_Target],
    related_name: str,
    verbose_name: StrOrPromise | None = None,
    *,
    optional: Literal[True],
) -> models.ForeignKey[_Target | None, _Target | None]: ...


def protected_fk(
    to: type[_Target],
    related_name: str,
    verbose_name: StrOrPromise | None = None,
    *,
    optional: bool = False,
) -> models.ForeignKey[Any, Any]:
    """A foreign key to `to` that keeps it (PROTECT)."""
    return _protected(to, related_name, verbose_name, optional)


@overload
def staff_member(
    related_name: str, verbose_name: StrOrPromise | None = None, *, optional: Literal[False] = ...
) -> models.ForeignKey[User, User]: ...


@overload
def staff_member(
    related_name: str, verbose_name: StrOrPromise | None = None, *, optional: Literal[True]
) -> models.ForeignKey[User | None, User | None]: ...


def staff_member(
    related_name: str, verbose_name: StrOrPromise | None = None, *, optional: bool = False
) -> models.ForeignKey[Any, Any]:
    """The member of staff who did something to a row (opened it, posted it, counted it, …)."""
    return _protected(settings.AUTH_USER_MODEL, related_name, verbose_name, optional)


def ends_after_start(end: str, start: str, name: str) -> models.CheckConstraint:
    """The time `end`, once set, is not before the time `start`."""
    return models.CheckConstraint(
        condition=Q(**{f"{end}__isnull": True}) | Q(**{f"{end}__gte": models.F(start)}),
        name=name,
    )


def opened_and_closed(prefix: str) -> list[models.BaseConstraint]:
    """The constraints of a row opened and closed by someone (`opened_at`, `closed_at` and
    `closed_by`): closed at and by together, and never before it was opened."""
    return [
        models.CheckConstraint(
            condition=(
                Q(closed_at__isnull=True, closed_by__isnull=True)
                | Q(closed_at__isnull=False, closed_by__isnull=False)
            ),
            name=f"{prefix}_closed_at_and_by_together",
        ),
        ends_after_start("closed_at", "opened_at", f"{prefix}_closes_after_opening"),
    ]


_Row = TypeVar("_Row", bound="AppendOnlyModel")


class AppendOnlyQuerySet(models.QuerySet[_Row]):
    """Bulk UPDATE and DELETE of append-only rows are refused in Python, as the database's
    triggers refuse them."""

    def update(self, **kwargs: Any) -> NoReturn:
        raise self.model.refusal(deleting=False)

    def delete(self) -> NoReturn:
        raise self.model.refusal(deleting=True)


class AppendOnlyModel(models.Model):
    """A row written once and never changed or deleted, one by one or in bulk: a correction is
    a row of its own. The floors' append-only rows (the audit log, the books, the table's
    history, the counts and sign-offs of a report) all refuse the same way; each floor may say
    how in `refusal`."""

    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        abstract = True

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise self.refusal(deleting=False)
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise self.refusal(deleting=True)

    @classmethod
    def refusal(cls, *, deleting: bool) -> Exception:
        """The error raised when a row of this model would be changed (or deleted)."""
        what = str(cls._meta.verbose_name_plural).capitalize()
        return AppendOnlyError(f"{what} are never {'deleted' if deleting else 'changed'}.")


class Player(models.Model):
    """A customer of the house who may sit at a table."""

    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    name = models.CharField(_("name"), max_length=200)
    member_number = models.CharField(
        _("member number"),
        max_length=32,
        unique=True,
        help_text=_("The number on the member's card; unique in the establishment."),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["name", "member_number"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            models.CheckConstraint(
                condition=~Q(member_number=""), name="casino_player_member_number_not_blank"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.member_number})"


class GamingSession(models.Model):
    """A séance: a night of play, opened and closed by a staff member."""

    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    opened_at = models.DateTimeField(_("opened at"))
    opened_by = staff_member("gaming_sessions_opened", _("opened by"))
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    closed_by = staff_member("gaming_sessions_closed", _("closed by"), optional=True)

    class Meta:
        ordering = ["-opened_at"]
        get_latest_by = "opened_at"
        verbose_name = _("gaming session")
        verbose_name_plural = _("gaming sessions")
        constraints = opened_and_closed("casino_gamingsession")

    def __str__(self) -> str:
        return f"Session of {self.opened_at:%Y-%m-%d %H:%M}"

    @property
    def is_open(self) -> bool:
        return self.closed_at is None


class AuditEntry(AppendOnlyModel):
    """Who did what, when, from where, with the data: one row per change made by a service.

    Written by the services in the same database transaction as the change itself, so a change
    without its audit row (or the reverse) cannot exist. Never updated or deleted.
    """

    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    at = models.DateTimeField(_("at"))
    actor = staff_member("audit_entries", _("by"))
    action = models.CharField(_("action"), max_length=64)
    client = models.CharField(
        _("client"),
        max_length=200,
        blank=True,
        help_text=_("The screen or API client the change came from."),
    )
    gaming_session = protected_fk(
        GamingSession, "audit_entries", _("gaming session"), optional=True
    )
    table_session_id = models.BigIntegerField(_("table session"), null=True, blank=True)
    data = models.JSONField(_("data"), default=dict, blank=True)

    class Meta:
        ordering = ["at", "pk"]
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit entries")
        indexes = [models.Index(fields=["table_session_id", "at"], name="casino_audit_table_at")]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M:%S} {self.actor} {self.action}"


class StaffPreference(models.Model):
    """A member of staff's own settings: the language the console speaks to him (en or fr)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="preference",
        verbose_name=_("user"),
    )
    language = models.CharField(
        _("language"), max_length=8, choices=settings.LANGUAGES, default="en"
    )

    class Meta:
        verbose_name = _("staff preference")
        verbose_name_plural = _("staff preferences")

    def __str__(self) -> str:
        return f"{self.user} ({self.language})"
