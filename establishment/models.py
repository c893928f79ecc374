"""The establishment: players (the house's customers) and gaming sessions (séances).

Staff are `django.contrib.auth` users; their role is a group (establishment.roles.Role).
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


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
    opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="gaming_sessions_opened",
        verbose_name=_("opened by"),
    )
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="gaming_sessions_closed",
        null=True,
        blank=True,
        verbose_name=_("closed by"),
    )

    class Meta:
        ordering = ["-opened_at"]
        get_latest_by = "opened_at"
        verbose_name = _("gaming session")
        verbose_name_plural = _("gaming sessions")
        constraints = [
            models.CheckConstraint(
                condition=(
                    Q(closed_at__isnull=True, closed_by__isnull=True)
                    | Q(closed_at__isnull=False, closed_by__isnull=False)
                ),
                name="casino_gamingsession_closed_at_and_by_together",
            ),
            models.CheckConstraint(
                condition=Q(closed_at__isnull=True) | Q(closed_at__gte=models.F("opened_at")),
                name="casino_gamingsession_closes_after_opening",
            ),
        ]

    def __str__(self) -> str:
        return f"Session of {self.opened_at:%Y-%m-%d %H:%M}"

    @property
    def is_open(self) -> bool:
        return self.closed_at is None


class AuditEntry(models.Model):
    """Who did what, when, from where, with the data: one row per change (STYLE.md rule 7).

    Written by the services in the same database transaction as the change itself, so a change
    without its audit row (or the reverse) cannot exist. Never updated or deleted.
    """

    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    at = models.DateTimeField(_("at"))
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="audit_entries",
        verbose_name=_("by"),
    )
    action = models.CharField(_("action"), max_length=64)
    client = models.CharField(
        _("client"),
        max_length=200,
        blank=True,
        help_text=_("The screen or API client the change came from."),
    )
    gaming_session = models.ForeignKey(
        GamingSession,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="audit_entries",
        verbose_name=_("gaming session"),
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

    def save(self, *args: object, **kwargs: object) -> None:
        if not self._state.adding:
            raise ValueError("Audit entries are never changed.")
        super().save(*args, **kwargs)  # type: ignore[arg-type]


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
