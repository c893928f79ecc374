"""The establishment: players (the house's customers) and gaming sessions (séances).

Staff are `django.contrib.auth` users; their role is a group (establishment.roles.Role).
"""

from __future__ import annotations

import uuid
from datetime import date, datetime, time
from typing import TYPE_CHECKING, Any, Literal, NoReturn, TypeVar, overload

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from establishment.chain import (
    AUDIT_CHAIN,
    ChainHead as ChainHead,  # the chains' heads are models of ours
    audit_content,
    chain_hash_field,
    chain_hash_valid,
    chain_position_field,
)
from establishment.errors import AppendOnlyError
from establishment.rows import chained_insert

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


def created_at_field() -> models.DateTimeField[datetime, datetime]:
    """When the row was created, set once as it is first saved (`auto_now_add`)."""
    return models.DateTimeField(_("created at"), auto_now_add=True)


def idempotency_key_field(**options: Any) -> models.CharField[str, str]:
    """The key a client sends with a write so that the same request writes once (the books'
    transactions, the table's journal: docs/conventions.md, invariant 4); kept non-blank by a
    `not_blank` constraint."""
    return models.CharField(_("idempotency key"), max_length=200, **options)


def ends_after_start(end: str, start: str, name: str) -> models.CheckConstraint:
    """The time `end`, once set, is not before the time `start`."""
    return models.CheckConstraint(
        condition=Q(**{f"{end}__isnull": True}) | Q(**{f"{end}__gte": models.F(start)}),
        name=name,
    )


def at_least(field: str, low: int, name: str) -> models.CheckConstraint:
    """The number `field` is `low` or more."""
    return models.CheckConstraint(condition=Q(**{f"{field}__gte": low}), name=name)


def one_of(field: str, choices: type[models.TextChoices], name: str) -> models.CheckConstraint:
    """`field` holds one of the values of `choices`, whoever writes the row."""
    return models.CheckConstraint(condition=Q(**{f"{field}__in": choices.values}), name=name)


def not_blank(field: str, name: str) -> models.CheckConstraint:
    """The text `field` is never empty."""
    return models.CheckConstraint(condition=~Q(**{field: ""}), name=name)


def one_open(
    fields: list[str], name: str, message: StrOrPromise, *, end: str = "closed_at", **also: Any
) -> models.UniqueConstraint:
    """At most one row of the same `fields` still open (its `end` not set), among the rows that
    also match `also`: a partial unique index, refused in the words of `message`."""
    return models.UniqueConstraint(
        fields=fields,
        condition=Q(**{f"{end}__isnull": True}, **also),
        name=name,
        violation_error_message=message,
    )


def at_and_by_together(at: str, by: str, name: str) -> models.CheckConstraint:
    """The moment `at` something was done and who did it `by` are set together, or neither."""
    return models.CheckConstraint(
        condition=Q(**{f"{at}__isnull": True, f"{by}__isnull": True})
        | Q(**{f"{at}__isnull": False, f"{by}__isnull": False}),
        name=name,
    )


def opened_and_closed(prefix: str) -> list[models.BaseConstraint]:
    """The constraints of a row opened and closed by someone (`opened_at`, `closed_at` and
    `closed_by`): closed at and by together, and never before it was opened."""
    return [
        at_and_by_together("closed_at", "closed_by", f"{prefix}_closed_at_and_by_together"),
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


class DocumentType(models.TextChoices):
    """The identity documents the door accepts (arrêté du 14 mai 2007, art. 22: the house checks
    the identity of whoever enters the gaming rooms)."""

    IDENTITY_CARD = "identity_card", _("Identity card")
    PASSPORT = "passport", _("Passport")
    RESIDENCE_PERMIT = "residence_permit", _("Residence permit")
    DRIVING_LICENCE = "driving_licence", _("Driving licence")


class Player(models.Model):
    """A customer of the house who may sit at a table.

    `name` is the display name ("DUPONT Jean"), set by `player_register` from the identity.
    The identity (surname … document expiry) is what the door checks against the exclusion list
    (art. 22) and what the register of bankers shows (art. 71); it is blank for players made
    before it was asked for (`player_create`), so the database allows blanks and the service
    `player_register` requires every field.
    """

    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    name = models.CharField(_("name"), max_length=200)
    member_number = models.CharField(
        _("member number"),
        max_length=32,
        unique=True,
        help_text=_("The number on the member's card; unique in the establishment."),
    )
    surname = models.CharField(_("surname"), max_length=100, blank=True)
    first_names = models.CharField(_("first names"), max_length=150, blank=True)
    birth_date = models.DateField(_("date of birth"), null=True, blank=True)
    birth_place = models.CharField(_("place of birth"), max_length=150, blank=True)
    address = models.TextField(_("address"), max_length=500, blank=True)
    document_type = models.CharField(
        _("identity document"), max_length=32, choices=DocumentType.choices, blank=True
    )
    document_number = models.CharField(_("document number"), max_length=64, blank=True)
    document_expiry = models.DateField(_("document expiry date"), null=True, blank=True)
    registered_by = staff_member("players_registered", _("registered by"), optional=True)
    created_at = created_at_field()

    class Meta:
        ordering = ["name", "member_number"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [not_blank("member_number", "casino_player_member_number_not_blank")]
        # The search's plain indexes (SQLite, and exact or prefix lookups on PostgreSQL); the
        # trigram indexes of the typo-tolerant search are PostgreSQL's own, made by
        # establishment/migrations/0005_search_trigrams.postgresql.sql.
        indexes = [
            models.Index(fields=["name"], name="casino_player_name"),
            models.Index(fields=["document_number"], name="casino_player_document"),
            models.Index(fields=["surname", "birth_date"], name="casino_player_identity"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.member_number})"

    @property
    def has_identity(self) -> bool:
        """Whether the door has recorded who this player is (surname, first names, birth)."""
        return bool(self.surname and self.first_names and self.birth_date)


class ExclusionSource(models.TextChoices):
    """Why a person is on the exclusion list (arrêté du 14 mai 2007, art. 22)."""

    MINISTRY = "ministry", _("Ministry of the Interior list")
    SELF_EXCLUSION = "self_exclusion", _("Self-exclusion")
    HOUSE = "house", _("House decision")


class ExclusionImport(models.Model):
    """One upload of the exclusion list (a CSV file, docs/exclusions.md) and its progress.

    The file's text is kept with the row, so the worker that imports it (the Celery task
    `establishment.exclusions_import`) needs no shared file storage; `lines_done` grows batch by
    batch while it runs, and the reception screen polls it.
    """

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting")
        RUNNING = "running", _("Importing")
        DONE = "done", _("Imported")
        REFUSED = "refused", _("Refused: the file has errors")

    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    file_name = models.CharField(_("file name"), max_length=255)
    content = models.TextField(_("content"), blank=True)
    created_by = staff_member("exclusion_imports", _("by"))
    created_at = models.DateTimeField(_("at"), auto_now_add=True)
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.PENDING
    )
    lines_total = models.PositiveIntegerField(_("lines"), default=0)
    lines_done = models.PositiveIntegerField(_("lines imported"), default=0)
    errors = models.JSONField(_("errors"), default=list, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("exclusion list import")
        verbose_name_plural = _("exclusion list imports")
        constraints = [
            models.CheckConstraint(
                condition=Q(lines_done__lte=models.F("lines_total")),
                name="casino_exclusionimport_done_within_total",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.file_name} ({self.status})"

    @property
    def is_finished(self) -> bool:
        return self.status in (self.Status.DONE, self.Status.REFUSED)

    @property
    def percent(self) -> int:
        """How far the import is, 0 to 100 (a whole number, for the progress bar)."""
        if self.status == self.Status.DONE:
            return 100
        return self.lines_done * 100 // self.lines_total if self.lines_total else 0


class ExclusionEntry(models.Model):
    """A person barred from the gaming rooms (interdit de jeu; arrêté du 14 mai 2007, art. 22).

    Matched at the door on the normalised surname and first names (`surname_key`,
    `first_names_key`: accents, case and punctuation ignored, establishment.identity.name_key)
    and the date of birth. An entry is never deleted (PROTECT everywhere, no service deletes):
    lifting it sets `lifted_at`, `lifted_by` and `lift_reason` once, through
    `exclusion_lift`, with its audit row; a lifted entry is never lifted again nor changed, so
    the list's history stays whole. A new bar after a lift is a new entry.
    """

    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    surname = models.CharField(_("surname"), max_length=100)
    first_names = models.CharField(_("first names"), max_length=150)
    birth_date = models.DateField(_("date of birth"))
    birth_place = models.CharField(_("place of birth"), max_length=150, blank=True)
    surname_key = models.CharField(max_length=100, editable=False)
    first_names_key = models.CharField(max_length=150, editable=False)
    source = models.CharField(_("source"), max_length=32, choices=ExclusionSource.choices)
    reference = models.CharField(
        _("reference"),
        max_length=64,
        blank=True,
        help_text=_("The list's own reference for this person, if it gives one."),
    )
    effective_from = models.DateField(_("effective from"))
    until = models.DateField(_("until"), null=True, blank=True)
    added_by = staff_member("exclusions_added", _("added by"))
    added_at = models.DateTimeField(_("added at"))
    source_import = protected_fk(ExclusionImport, "entries", _("imported from"), optional=True)
    lifted_at = models.DateTimeField(_("lifted at"), null=True, blank=True)
    lifted_by = staff_member("exclusions_lifted", _("lifted by"), optional=True)
    lift_reason = models.CharField(_("reason for lifting"), max_length=500, blank=True)

    class Meta:
        ordering = ["surname_key", "first_names_key", "birth_date", "pk"]
        verbose_name = _("exclusion list entry")
        verbose_name_plural = _("exclusion list entries")
        constraints = [
            models.CheckConstraint(
                condition=(
                    Q(lifted_at__isnull=True, lifted_by__isnull=True, lift_reason="")
                    | (Q(lifted_at__isnull=False, lifted_by__isnull=False) & ~Q(lift_reason=""))
                ),
                name="casino_exclusion_lifted_at_by_reason_together",
            ),
            models.CheckConstraint(
                condition=Q(until__isnull=True) | Q(until__gte=models.F("effective_from")),
                name="casino_exclusion_until_after_start",
            ),
            ends_after_start("lifted_at", "added_at", "casino_exclusion_lifted_after_added"),
        ]
        indexes = [
            # The door's lookup: surname and date of birth, then first names.
            models.Index(fields=["surname_key", "birth_date"], name="casino_exclusion_match"),
        ]

    def __str__(self) -> str:
        return f"{self.surname} {self.first_names} ({self.birth_date})"

    @property
    def is_lifted(self) -> bool:
        return self.lifted_at is not None

    def is_in_force(self, on: date) -> bool:
        """Whether the entry bars the person on the day `on`."""
        return (
            self.lifted_at is None
            and self.effective_from <= on
            and (self.until is None or on <= self.until)
        )


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
        constraints = [
            *opened_and_closed("casino_gamingsession"),
            # One gaming session open at a time (issue 13): a partial unique index on a
            # constant, so a second open row cannot exist whoever writes it. PostgreSQL and
            # SQLite both build it (CREATE UNIQUE INDEX … ((1)) WHERE closed_at IS NULL);
            # `gaming_session_open` refuses first, in words.
            models.UniqueConstraint(
                models.Value(1),
                condition=Q(closed_at__isnull=True),
                name="casino_gamingsession_one_open",
            ),
        ]

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
    # Its place and hash in the audit log's chain (establishment/chain.py).
    chain_position = chain_position_field()
    chain_hash = chain_hash_field()

    class Meta:
        ordering = ["at", "pk"]
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit entries")
        # The audit log's filters, each walked newest first from a keyset cursor
        # (reports/audit/log.py; measured in bench/audit_log.py).
        indexes = [
            models.Index(fields=["at", "id"], name="casino_audit_at"),
            models.Index(fields=["actor", "at", "id"], name="casino_audit_actor_at"),
            models.Index(fields=["action", "at", "id"], name="casino_audit_action_at"),
            models.Index(fields=["table_session_id", "at", "id"], name="casino_audit_table_at_id"),
        ]
        constraints = [chain_hash_valid("establishment_auditentry")]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M:%S} {self.actor} {self.action}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        """A new row is appended to the audit log's chain (`establishment.rows`), whoever saves
        it; a saved one is refused as any append-only row."""
        if not self._state.adding:
            raise self.refusal(deleting=False)
        chained_insert(self, chain=AUDIT_CHAIN, content=audit_content(self))


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


# -- the house: its settings, one version after another --------------------------------------------


class Currency(models.TextChoices):
    """The currencies the registers speak (docs/registers.md, "Money")."""

    EUR = "EUR", _("Euro (EUR)")
    GBP = "GBP", _("Pound sterling (GBP)")


class LevyTieRule(models.TextChoices):
    """How a levy exactly halfway between two steps is rounded (art. 59 rounds "à la dizaine de
    centimes d'euro la plus voisine" and says nothing of the half; docs/rules/README.md COM-6.3)."""

    HALF_UP = "up", _("Halfway: up")
    HALF_DOWN = "down", _("Halfway: down")
    HALF_EVEN = "even", _("Halfway: to the even step")


class LevyRecord(models.TextChoices):
    """How the house keeps each levy at the table (arts. 56-1 and 59, docs/registers.md)."""

    MACHINE = "machine", _("The machine's historique (art. 56-1)")
    TICKETS = "tickets", _("Tickets detached at each winning coup (art. 59)")
    OFF = "off", _("Neither (a house outside the arrêté)")


def journee_turns_default() -> time:
    return time(6, 0)


class HouseSettings(AppendOnlyModel):
    """The house's settings, one row per version: a change is a new row naming who made it and
    why, never an edit. Each séance keeps the version in force when it opened
    (docs/registers.md, "Common to every register")."""

    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    currency = models.CharField(
        _("currency"), max_length=3, choices=Currency.choices, default=Currency.EUR
    )
    cents_per_chip = models.PositiveIntegerField(
        _("value of one chip"),
        default=1,
        help_text=_("In the currency's smallest unit (cents, pence): 1 when a chip is a cent."),
    )
    journee_turns_at = models.TimeField(
        _("the journée turns at"),
        default=journee_turns_default,
        help_text=_("The hour at which one gaming day (journée) ends and the next begins."),
    )
    time_zone = models.CharField(_("time zone"), max_length=64, default="Europe/Paris")
    levy_tie_rule = models.CharField(
        _("rounding of a levy halfway"),
        max_length=8,
        choices=LevyTieRule.choices,
        default=LevyTieRule.HALF_UP,
    )
    levy_record = models.CharField(
        _("how each levy is kept"),
        max_length=8,
        choices=LevyRecord.choices,
        default=LevyRecord.MACHINE,
    )
    changed_at = models.DateTimeField(_("in force from"))
    # Empty for the installation's defaults (migration establishment 0006).
    changed_by = staff_member("house_settings_changes", _("changed by"), optional=True)
    reason = models.TextField(_("reason"), blank=True)

    class Meta:
        ordering = ["pk"]
        verbose_name = _("house settings")
        verbose_name_plural = _("house settings")
        constraints = [
            models.CheckConstraint(
                condition=Q(cents_per_chip__gte=1), name="establishment_house_chip_has_a_value"
            )
        ]

    def __str__(self) -> str:
        turns = f"{self.journee_turns_at:%H:%M}"
        return f"{self.currency} {self.time_zone} {turns} ({self.changed_at:%Y-%m-%d})"
