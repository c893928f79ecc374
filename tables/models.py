"""Tables, their sessions, seats, staff assignments and sabots.

Coups and their recorded events come in a later change; `TableSession` is the row that
`tables.services.record` will lock (ARCHITECTURE.md, "Storing a coup").
"""

from __future__ import annotations

import uuid
from typing import Any

from django.conf import settings as django_settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from casino.models import GamingSession, Player
from tables.validation import table_settings_validate

MAX_SEAT_COUNT = 30  # more seats than any physical table has; catches typos


class Game(models.TextChoices):
    """The five games (codes of SCENARIOS.md `game`)."""

    CHEMIN_DE_FER = "chemin_de_fer", _("Chemin de fer")
    LANSQUENET_MODERNE = "lansquenet_moderne", _("Lansquenet (modern)")
    LANSQUENET_CLASSIQUE = "lansquenet_classique", _("Lansquenet (classic)")
    LANDSKNECHT = "landsknecht", _("Landsknecht (Russian)")
    PONTOON = "pontoon", _("Pontoon")


class ImmutableFieldError(ValidationError):
    """A field that must never change was changed."""


class Table(models.Model):
    """A physical table. Its number never changes while it is in service (a season)."""

    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    number = models.PositiveIntegerField(
        _("number"),
        help_text=_("The number painted on the table; it never changes while in service."),
    )
    name = models.CharField(_("name"), max_length=100, blank=True)
    game = models.CharField(_("game"), max_length=32, choices=Game.choices)
    settings = models.JSONField(
        _("settings"),
        default=dict,
        blank=True,
        help_text=_(
            "The game's table settings (docs/rules/, §1 of each game); defaults filled in."
        ),
    )
    seat_count = models.PositiveSmallIntegerField(_("seat count"))
    is_active = models.BooleanField(
        _("in service"),
        default=True,
        help_text=_("A table taken out of service keeps its history; its number may be reused."),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["number"]
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        constraints = [
            models.UniqueConstraint(
                fields=["number"],
                condition=Q(is_active=True),
                name="tables_table_number_unique_in_service",
                violation_error_message=_("Another table in service has this number."),
            ),
            models.CheckConstraint(condition=Q(number__gte=1), name="tables_table_number_positive"),
            models.CheckConstraint(
                condition=Q(seat_count__gte=1, seat_count__lte=MAX_SEAT_COUNT),
                name="tables_table_seat_count_range",
            ),
            models.CheckConstraint(
                condition=Q(game__in=Game.values), name="tables_table_game_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"Table {self.number} ({self.get_game_display()})"

    def save(self, *args: Any, **kwargs: Any) -> None:
        # The number is part of every paper record of the table: refuse a change even when
        # clean() was skipped.
        if self.pk is not None and not self._state.adding:
            stored_number = (
                Table.objects.filter(pk=self.pk).values_list("number", flat=True).first()
            )
            if stored_number is not None and stored_number != self.number:
                raise ImmutableFieldError(_("A table's number never changes; create a new table."))
        super().save(*args, **kwargs)

    def clean(self) -> None:
        super().clean()
        if self.pk is not None:
            stored = Table.objects.filter(pk=self.pk).values("number", "game").first()
            if stored is not None:
                if stored["number"] != self.number:
                    raise ValidationError(
                        {"number": _("A table's number never changes; create a new table.")}
                    )
                if stored["game"] != self.game and self.sessions.exists():
                    raise ValidationError(
                        {"game": _("This table has been played; its game cannot change.")}
                    )
        if self.game in Game.values and self.seat_count is not None:
            self.settings = table_settings_validate(
                game=self.game, settings=self.settings, seat_count=self.seat_count
            )


class TableSession(models.Model):
    """A table opened within a gaming session, with the game and settings frozen at opening.

    This is the row every write at the table locks (`select_for_update`) so that actions at
    one table are serialised.
    """

    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    table = models.ForeignKey(
        Table, on_delete=models.PROTECT, related_name="sessions", verbose_name=_("table")
    )
    gaming_session = models.ForeignKey(
        GamingSession,
        on_delete=models.PROTECT,
        related_name="table_sessions",
        verbose_name=_("gaming session"),
    )
    game = models.CharField(_("game"), max_length=32, choices=Game.choices, editable=False)
    settings = models.JSONField(_("settings"), editable=False)
    seat_count = models.PositiveSmallIntegerField(_("seat count"), editable=False)
    opened_at = models.DateTimeField(_("opened at"))
    opened_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="table_sessions_opened",
        verbose_name=_("opened by"),
    )
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    closed_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="table_sessions_closed",
        null=True,
        blank=True,
        verbose_name=_("closed by"),
    )

    class Meta:
        ordering = ["-opened_at", "table__number"]
        verbose_name = _("table session")
        verbose_name_plural = _("table sessions")
        permissions = [
            ("operate_tablesession", "Can record play at an open table session"),
            ("supervise_tablesession", "Can supervise a table session and approve corrections"),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["table"],
                condition=Q(closed_at__isnull=True),
                name="tables_tablesession_one_open_per_table",
                violation_error_message=_("This table is already open."),
            ),
            models.CheckConstraint(
                condition=(
                    Q(closed_at__isnull=True, closed_by__isnull=True)
                    | Q(closed_at__isnull=False, closed_by__isnull=False)
                ),
                name="tables_tablesession_closed_at_and_by_together",
            ),
            models.CheckConstraint(
                condition=Q(closed_at__isnull=True) | Q(closed_at__gte=F("opened_at")),
                name="tables_tablesession_closes_after_opening",
            ),
        ]

    def __str__(self) -> str:
        return f"Table {self.table.number}, {self.gaming_session}"

    @property
    def is_open(self) -> bool:
        return self.closed_at is None


class SeatOccupancy(models.Model):
    """A player seated at seat `seat_number` of a table session, from `sat_at` to `left_at`."""

    table_session = models.ForeignKey(
        TableSession,
        on_delete=models.PROTECT,
        related_name="seat_occupancies",
        verbose_name=_("table session"),
    )
    seat_number = models.PositiveSmallIntegerField(_("seat"))
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="seat_occupancies", verbose_name=_("player")
    )
    sat_at = models.DateTimeField(_("sat at"))
    left_at = models.DateTimeField(_("left at"), null=True, blank=True)

    class Meta:
        ordering = ["table_session", "seat_number", "sat_at"]
        verbose_name = _("seat occupancy")
        verbose_name_plural = _("seat occupancies")
        constraints = [
            models.UniqueConstraint(
                fields=["table_session", "seat_number"],
                condition=Q(left_at__isnull=True),
                name="tables_seatoccupancy_one_player_per_seat",
                violation_error_message=_("This seat is taken."),
            ),
            models.UniqueConstraint(
                fields=["table_session", "player"],
                condition=Q(left_at__isnull=True),
                name="tables_seatoccupancy_one_seat_per_player",
                violation_error_message=_("This player is already seated at this table."),
            ),
            models.CheckConstraint(
                condition=Q(seat_number__gte=1), name="tables_seatoccupancy_seat_positive"
            ),
            models.CheckConstraint(
                condition=Q(left_at__isnull=True) | Q(left_at__gte=F("sat_at")),
                name="tables_seatoccupancy_leaves_after_sitting",
            ),
        ]

    def __str__(self) -> str:
        return f"Seat {self.seat_number}: {self.player}"

    def clean(self) -> None:
        super().clean()
        if self.table_session_id is not None and self.seat_number is not None:
            seat_count = self.table_session.seat_count
            if not 1 <= self.seat_number <= seat_count:
                raise ValidationError(
                    {
                        "seat_number": _("There is no seat %(seat)d at this table (1–%(count)d).")
                        % {"seat": self.seat_number, "count": seat_count}
                    }
                )


class AssignmentRole(models.TextChoices):
    CROUPIER = "croupier", _("Croupier")
    CHANGEUR = "changeur", _("Changeur")


class CroupierAssignment(models.Model):
    """A croupier or changeur working a table session from `assigned_at` to `released_at`."""

    table_session = models.ForeignKey(
        TableSession,
        on_delete=models.PROTECT,
        related_name="assignments",
        verbose_name=_("table session"),
    )
    staff = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="table_assignments",
        verbose_name=_("staff member"),
    )
    role = models.CharField(_("role"), max_length=16, choices=AssignmentRole.choices)
    assigned_at = models.DateTimeField(_("from"))
    released_at = models.DateTimeField(_("to"), null=True, blank=True)
    assigned_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="table_assignments_made",
        verbose_name=_("assigned by"),
    )

    class Meta:
        ordering = ["table_session", "assigned_at"]
        verbose_name = _("croupier assignment")
        verbose_name_plural = _("croupier assignments")
        constraints = [
            models.UniqueConstraint(
                fields=["table_session"],
                condition=Q(role="croupier", released_at__isnull=True),
                name="tables_croupierassignment_one_croupier_at_a_time",
                violation_error_message=_("This table already has a croupier on duty."),
            ),
            models.UniqueConstraint(
                fields=["table_session", "staff", "role"],
                condition=Q(released_at__isnull=True),
                name="tables_croupierassignment_no_duplicate_open",
            ),
            models.CheckConstraint(
                condition=Q(role__in=AssignmentRole.values),
                name="tables_croupierassignment_role_valid",
            ),
            models.CheckConstraint(
                condition=Q(released_at__isnull=True) | Q(released_at__gte=F("assigned_at")),
                name="tables_croupierassignment_released_after_assigned",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_role_display()} {self.staff} at {self.table_session}"


class Sabot(models.Model):
    """A shoe used at a table session, numbered 1, 2, … in the order it was brought in."""

    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    table_session = models.ForeignKey(
        TableSession,
        on_delete=models.PROTECT,
        related_name="sabots",
        verbose_name=_("table session"),
    )
    number = models.PositiveIntegerField(_("number"))
    decks = models.PositiveSmallIntegerField(_("decks"))
    opened_at = models.DateTimeField(_("opened at"))
    opened_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="sabots_opened",
        verbose_name=_("opened by"),
    )
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)

    class Meta:
        ordering = ["table_session", "number"]
        verbose_name = _("sabot")
        verbose_name_plural = _("sabots")
        constraints = [
            models.UniqueConstraint(
                fields=["table_session", "number"], name="tables_sabot_number_unique"
            ),
            models.UniqueConstraint(
                fields=["table_session"],
                condition=Q(closed_at__isnull=True),
                name="tables_sabot_one_open_per_table_session",
                violation_error_message=_("A sabot is already in play at this table."),
            ),
            models.CheckConstraint(condition=Q(number__gte=1), name="tables_sabot_number_positive"),
            models.CheckConstraint(condition=Q(decks__gte=1), name="tables_sabot_decks_positive"),
            models.CheckConstraint(
                condition=Q(closed_at__isnull=True) | Q(closed_at__gte=F("opened_at")),
                name="tables_sabot_closes_after_opening",
            ),
        ]

    def __str__(self) -> str:
        return f"Sabot {self.number} at {self.table_session}"
