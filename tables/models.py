"""Tables, their sessions, seats, staff assignments and sabots.

Below them, what happens at the table: its journal, coups, the register of bankers and the
corrections. `TableSession` is the row `tables.services.record` locks while it stores a coup.
"""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from establishment.chain import chain_hash_field, chain_hash_valid
from establishment.models import (
    AppendOnlyModel,
    GamingSession,
    HouseSettings,
    Player,
    at_least,
    created_at_field,
    ends_after_start,
    idempotency_key_field,
    not_blank,
    one_of,
    one_open,
    opened_and_closed,
    protected_fk,
    staff_member,
)
from tables.engine import money
from tables.engine.registry import GAME_CHOICES
from tables.stock_models import StockItem
from tables.ticket_models import TicketBook as TicketBook  # the ticket books are its models
from tables.validation import table_settings_validate

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

MAX_SEAT_COUNT = 30  # more seats than any physical table has; catches typos


# The five games (codes of SCENARIOS.md `game`), from the engine's one list of them
# (`tables.engine.registry.GAME_CHOICES`): a member per game, named by its code in capitals
# (`Game.CHEMIN_DE_FER`), labelled with the name the game is listed under, translated. Django's
# functional form of the choices (the stubs do not type it, hence `Any` and the ignore).
Game: Any = models.TextChoices(  # type: ignore[call-overload]
    "Game", [(code.upper(), (code, _(label))) for code, label in GAME_CHOICES]
)


class ImmutableFieldError(ValidationError):
    """A field that must never change was changed."""


def unique_in_table_session(model: str, field: str) -> models.UniqueConstraint:
    """`field` never repeats within a table session: `tables_<model>_<field>_unique`."""
    return models.UniqueConstraint(
        fields=["table_session", field], name=f"tables_{model}_{field}_unique"
    )


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
    created_at = created_at_field()

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
            at_least("number", 1, "tables_table_number_positive"),
            models.CheckConstraint(
                condition=Q(seat_count__gte=1, seat_count__lte=MAX_SEAT_COUNT),
                name="tables_table_seat_count_range",
            ),
            one_of("game", Game, "tables_table_game_valid"),
        ]

    def __str__(self) -> str:
        return f"Table {self.number} ({self.get_game_display()})"

    def save(self, *args: Any, **kwargs: Any) -> None:
        # The number is part of every paper record of the table, and a table that has been
        # played keeps its game (its sessions, journal and reports read it): refuse a change
        # even when clean() was skipped (the admin writes nothing; every change goes through
        # tables.services, issue 13).
        if not self._state.adding:
            changed = self._fixed_field_changed()
            if changed is not None:
                raise ImmutableFieldError(changed[1])
        super().save(*args, **kwargs)

    def clean(self) -> None:
        super().clean()
        changed = self._fixed_field_changed()
        if changed is not None:
            raise ValidationError({changed[0]: changed[1]})
        if self.game in Game.values and self.seat_count is not None:
            self.settings = table_settings_validate(
                game=self.game, settings=self.settings, seat_count=self.seat_count
            )

    def _fixed_field_changed(self) -> tuple[str, StrOrPromise] | None:
        """The field of a stored table that has changed and may not (its number; its game once
        it has been played), with the words that refuse it, else None: the one check `save`
        and `clean` both make."""
        if self.pk is not None:
            stored = Table.objects.filter(pk=self.pk).values_list("number", "game").first()
            if stored is not None:
                if stored[0] != self.number:
                    return "number", _("A table's number never changes; create a new table.")
                if stored[1] != self.game and self.sessions.exists():
                    return "game", _("This table has been played; its game cannot change.")
        return None


class TableSession(models.Model):
    """A table opened within a gaming session, with the game and settings frozen at opening.

    This is the row every write at the table locks (`select_for_update`) so that actions at
    one table are serialised.
    """

    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    table = protected_fk(Table, "sessions", _("table"))
    gaming_session = protected_fk(GamingSession, "table_sessions", _("gaming session"))
    game = models.CharField(_("game"), max_length=32, choices=Game.choices, editable=False)
    settings = models.JSONField(_("settings"), editable=False)
    seat_count = models.PositiveSmallIntegerField(_("seat count"), editable=False)
    opened_at = models.DateTimeField(_("opened at"))
    opened_by = staff_member("table_sessions_opened", _("opened by"))
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    closed_by = staff_member("table_sessions_closed", _("closed by"), optional=True)
    # An inspector's forced close (`tables.services.table_session_close(force=True)`): why, and
    # what was left when he closed (the open coup set aside, the voids left undecided); the
    # report marks the séance with both.
    close_forced = models.BooleanField(_("closed by force"), default=False)
    close_reason = models.TextField(_("reason for the forced close"), blank=True, default="")
    close_left = models.JSONField(_("left at the forced close"), default=list, blank=True)
    # The house's settings in force when it opened (currency, value of a chip, the journée's
    # hour and zone, the levy's tie rule) and the journée it belongs to, even when it ends after
    # midnight (docs/registers.md, "Common to every register").
    house_settings = protected_fk(HouseSettings, "table_sessions", _("house settings"))
    journee = models.DateField(_("journée"), editable=False)

    class Meta:
        ordering = ["-opened_at", "table__number"]
        verbose_name = _("table session")
        verbose_name_plural = _("table sessions")
        permissions = [
            ("operate_tablesession", "Can record play at an open table session"),
            ("supervise_tablesession", "Can supervise a table session and approve corrections"),
        ]
        constraints = [
            one_open(
                ["table"],
                "tables_tablesession_one_open_per_table",
                _("This table is already open."),
            ),
            *opened_and_closed("tables_tablesession"),
        ]

    def __str__(self) -> str:
        return f"Table {self.table.number}, {self.gaming_session}"

    @property
    def is_open(self) -> bool:
        return self.closed_at is None


class SeatOccupancy(models.Model):
    """A player seated at seat `seat_number` of a table session, from `sat_at` to `left_at`."""

    table_session = protected_fk(TableSession, "seat_occupancies", _("table session"))
    seat_number = models.PositiveSmallIntegerField(_("seat"))
    player = protected_fk(Player, "seat_occupancies", _("player"))
    sat_at = models.DateTimeField(_("sat at"))
    left_at = models.DateTimeField(_("left at"), null=True, blank=True)

    class Meta:
        ordering = ["table_session", "seat_number", "sat_at"]
        verbose_name = _("seat occupancy")
        verbose_name_plural = _("seat occupancies")
        constraints = [
            one_open(
                ["table_session", "seat_number"],
                "tables_seatoccupancy_one_player_per_seat",
                _("This seat is taken."),
                end="left_at",
            ),
            one_open(
                ["table_session", "player"],
                "tables_seatoccupancy_one_seat_per_player",
                _("This player is already seated at this table."),
                end="left_at",
            ),
            at_least("seat_number", 1, "tables_seatoccupancy_seat_positive"),
            ends_after_start("left_at", "sat_at", "tables_seatoccupancy_leaves_after_sitting"),
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
    """A duty period: a croupier or changeur working a table session from `assigned_at` to
    `released_at` (model 11, column 3 bis: docs/registers.md). A relief ends one period and
    starts the next in the same transaction (`tables.services.staff_assign`); the end, once
    set, is never changed."""

    table_session = protected_fk(TableSession, "assignments", _("table session"))
    staff = staff_member("table_assignments", _("staff member"))
    role = models.CharField(_("role"), max_length=16, choices=AssignmentRole.choices)
    assigned_at = models.DateTimeField(_("from"))
    released_at = models.DateTimeField(_("to"), null=True, blank=True)
    assigned_by = staff_member("table_assignments_made", _("assigned by"))
    released_by = staff_member("table_assignments_ended", _("relieved by"), optional=True)

    class Meta:
        ordering = ["table_session", "assigned_at"]
        verbose_name = _("duty period")
        verbose_name_plural = _("duty periods")
        constraints = [
            # Art. 58: one croupier and one changeur per table at a time.
            one_open(
                ["table_session"],
                "tables_croupierassignment_one_croupier_at_a_time",
                _("This table already has a croupier on duty."),
                end="released_at",
                role="croupier",
            ),
            one_open(
                ["table_session"],
                "tables_croupierassignment_one_changeur_at_a_time",
                _("This table already has a changeur on duty."),
                end="released_at",
                role="changeur",
            ),
            # A person is on duty at one table at a time, in one role.
            one_open(
                ["staff"],
                "tables_croupierassignment_one_duty_per_person",
                _("This person is already on duty at a table."),
                end="released_at",
            ),
            one_of("role", AssignmentRole, "tables_croupierassignment_role_valid"),
            ends_after_start(
                "released_at", "assigned_at", "tables_croupierassignment_released_after_assigned"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_role_display()} {self.staff} at {self.table_session}"


class Sabot(models.Model):
    """A shoe used at a table session, numbered 1, 2, … in the order it was brought in."""

    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    table_session = protected_fk(TableSession, "sabots", _("table session"))
    number = models.PositiveIntegerField(_("number"))
    decks = models.PositiveSmallIntegerField(_("decks"))
    opened_at = models.DateTimeField(_("opened at"))
    opened_by = staff_member("sabots_opened", _("opened by"))
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    opened_seq = models.PositiveIntegerField(
        _("opened by action"),
        null=True,
        blank=True,
        help_text=_("The journal's action that formed this shoe or pack (CF-3, LM-3)."),
    )
    cut_by = protected_fk(Player, "sabots_cut", _("cut by"), optional=True)
    # The house's numbered sabot or pack this shoe was formed from (model 19), each used once.
    stock_item = protected_fk(StockItem, "sabots", _("numbered sabot or pack"), optional=True)

    class Meta:
        ordering = ["table_session", "number"]
        verbose_name = _("sabot")
        verbose_name_plural = _("sabots")
        constraints = [
            unique_in_table_session("sabot", "number"),
            one_open(
                ["table_session"],
                "tables_sabot_one_open_per_table_session",
                _("A sabot is already in play at this table."),
            ),
            models.UniqueConstraint(
                fields=["stock_item"],
                condition=Q(stock_item__isnull=False),
                name="tables_sabot_stock_item_used_once",
                violation_error_message=_("This numbered sabot or pack has been used already."),
            ),
            at_least("number", 1, "tables_sabot_number_positive"),
            at_least("decks", 1, "tables_sabot_decks_positive"),
            ends_after_start("closed_at", "opened_at", "tables_sabot_closes_after_opening"),
        ]

    def __str__(self) -> str:
        return f"Sabot {self.number} at {self.table_session}"


# -- What happens at the table: recorded events, coups, the bank register, corrections -------


class EventKind(models.TextChoices):
    """What a row of the table's journal is."""

    OPEN = "open", _("Opening")  # the seating when the table opened (first event only)
    ACTION = "action", _("Action")  # an engine action (a card, a bet, a decision, sit, …)
    UNDO = "undo", _("Undo")  # sets the last action of an unsettled coup aside
    VOID = "void", _("Void")  # sets a settled coup (and what followed it) aside
    INTERRUPT = "interrupt", _("Interruption")
    RESUME = "resume", _("Restart")


class HistoryRow(AppendOnlyModel):
    """A row of the table's history: written once, never changed or deleted."""

    class Meta:
        abstract = True

    @classmethod
    def refusal(cls, *, deleting: bool) -> ImmutableFieldError:
        if deleting:
            return ImmutableFieldError(_("The table's history is never deleted."))
        return ImmutableFieldError(_("The table's history is never changed; record anew."))


class TableEvent(HistoryRow):
    """One line of a table session's journal, numbered 1, 2, … (`seq`), never changed.

    `ACTION` rows hold what the croupier recorded, as the engine defines it (`type`, `actor`,
    parameters). Corrections are rows of their own: an `UNDO` names the action it sets aside,
    a `VOID` the actions of a settled coup. Replaying the actions that are not set aside gives
    the table's state.
    """

    table_session = protected_fk(TableSession, "events")
    seq = models.PositiveIntegerField(_("number"))
    kind = models.CharField(_("kind"), max_length=16, choices=EventKind.choices)
    action = models.JSONField(_("action"), default=dict, blank=True)
    sets_aside = models.JSONField(
        _("sets aside"),
        default=list,
        blank=True,
        help_text=_("For an undo or a void: the numbers of the actions it sets aside."),
    )
    idempotency_key = idempotency_key_field()
    recorded_by = staff_member("table_events")
    recorded_at = models.DateTimeField(_("recorded at"))
    client = models.CharField(_("client"), max_length=200, blank=True)
    reason = models.TextField(_("reason"), blank=True)
    outcome = models.JSONField(
        _("outcome"),
        default=dict,
        blank=True,
        help_text=_("What the engine answered: state, banker, coups settled, ledger postings."),
    )
    # Its hash in its table session's chain, after the line before it (tables/chain.py).
    chain_hash = chain_hash_field()

    class Meta:
        ordering = ["table_session", "seq"]
        verbose_name = _("table event")
        verbose_name_plural = _("table events")
        constraints = [
            unique_in_table_session("tableevent", "seq"),
            unique_in_table_session("tableevent", "idempotency_key"),
            at_least("seq", 1, "tables_tableevent_seq_positive"),
            one_of("kind", EventKind, "tables_tableevent_kind_valid"),
            not_blank("idempotency_key", "tables_tableevent_key_not_blank"),
            chain_hash_valid("tables_tableevent"),
        ]

    def __str__(self) -> str:
        label = self.action.get("type", "") if self.kind == EventKind.ACTION else self.kind
        return f"#{self.seq} {label}"


class Coup(HistoryRow):
    """A settled coup as the engine resolved it: outcome, transfers, results and faults.

    `number` is the engine's coup number in the table session; a voided coup keeps its row
    (its `void` says so) and the coup recorded again in its place takes the same number.
    """

    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    table_session = protected_fk(TableSession, "coups")
    number = models.PositiveIntegerField(_("coup"))
    outcome = models.CharField(_("outcome"), max_length=64)
    banker = models.CharField(_("banker"), max_length=64, blank=True)
    transfers = models.JSONField(_("transfers"), default=list)
    results = models.JSONField(_("results"), default=dict)
    faults = models.JSONField(_("faults"), default=list)
    cagnotte_chips = models.BigIntegerField(_("cagnotte levied"), default=0)
    first_seq = models.PositiveIntegerField(_("first action"))
    settled_seq = models.PositiveIntegerField(_("settled by action"))
    settled_at = models.DateTimeField(_("settled at"))

    class Meta:
        ordering = ["table_session", "settled_seq"]
        verbose_name = _("coup")
        verbose_name_plural = _("coups")
        constraints = [
            unique_in_table_session("coup", "settled_seq"),
            at_least("cagnotte_chips", 0, "tables_coup_cagnotte_not_negative"),
        ]

    def __str__(self) -> str:
        return f"Coup {self.number} ({self.outcome})"


class BankTenure(HistoryRow):
    """The register of bankers (arrêté du 14 mai 2007, art. 71): who took the bank, when, how.

    A tenure lasts until the next row of the same table session; `player` is empty while the
    bank is vacant. `how` is the action that gave the bank (`set_first_banker`, `accept_bank`,
    `buy_bank`, `take_suite`, …, or `rotation` when the engine passed it by rule).
    """

    table_session = protected_fk(TableSession, "bank_tenures")
    seq = models.PositiveIntegerField(_("from action"))
    player = protected_fk(Player, "bank_tenures", optional=True)
    how = models.CharField(_("how"), max_length=64)
    first_coup_number = models.PositiveIntegerField(_("from coup"))
    started_at = models.DateTimeField(_("from"))

    class Meta:
        ordering = ["table_session", "seq"]
        verbose_name = _("bank tenure")
        verbose_name_plural = _("bank tenures")
        constraints = [unique_in_table_session("banktenure", "seq")]

    def __str__(self) -> str:
        return f"{self.player or _('vacant')} from coup {self.first_coup_number}"


class VoidRequest(HistoryRow):
    """A croupier or inspector asks that a settled coup be voided, with a reason."""

    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    coup = protected_fk(Coup, "void_requests")
    requested_by = staff_member("void_requests")
    requested_at = models.DateTimeField(_("requested at"))
    reason = models.TextField(_("reason"))

    class Meta:
        ordering = ["requested_at", "pk"]
        verbose_name = _("void request")
        verbose_name_plural = _("void requests")
        constraints = [not_blank("reason", "tables_voidrequest_reason")]

    def __str__(self) -> str:
        return f"Void of {self.coup} requested by {self.requested_by}"


class VoidDecision(HistoryRow):
    """A second person, an inspector, approves or refuses a void request."""

    request = models.OneToOneField(VoidRequest, on_delete=models.PROTECT, related_name="decision")
    decided_by = staff_member("void_decisions")
    decided_at = models.DateTimeField(_("decided at"))
    approved = models.BooleanField(_("approved"))
    note = models.TextField(_("note"), blank=True)
    event = models.OneToOneField(
        TableEvent,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="void_decision",
        help_text=_("The void event an approval recorded."),
    )

    class Meta:
        verbose_name = _("void decision")
        verbose_name_plural = _("void decisions")
        constraints = [
            models.CheckConstraint(
                condition=Q(approved=False, event__isnull=True)
                | Q(approved=True, event__isnull=False),
                name="tables_voiddecision_approval_has_event",
            ),
        ]

    def __str__(self) -> str:
        return f"{'Approved' if self.approved else 'Refused'} by {self.decided_by}"


# -- The house's levy outside the coups: time and participation fees (docs/rules/levy.md) ----


class FeeModel(models.TextChoices):
    """The levy models charged outside the coups (LV-3), by the reason of their transfers."""

    TIME_FEE = money.TIME_FEE, _("Time fee")
    PARTICIPATION_FEE = money.PARTICIPATION_FEE, _("Participation fee")


class LevyCharge(HistoryRow):
    """A time fee or a participation fee charged to a player from the seating record (LV-3):
    `amount` chips from his position to the cagnotte of the table where it fell due, for the
    period [`period_start`, `period_end`), booked by `transaction` (reason `time_fee` or
    `participation_fee`, LV-5).

    Once per player and period: a time fee once per séance, player and period (periods of the
    table's `fee_period_minutes` from the séance's opening); a participation fee once per player
    and day across the house (the day from the table's `fee_day_start_hour`). The database
    holds it (the unique constraints below), whoever charges at the same moment."""

    table_session = protected_fk(TableSession, "levy_charges")
    player = protected_fk(Player, "levy_charges", _("player"))
    levy_model = models.CharField(_("levy model"), max_length=32, choices=FeeModel.choices)
    period_start = models.DateTimeField(_("period from"))
    period_end = models.DateTimeField(_("period to"))
    amount = models.BigIntegerField(_("amount (chips)"))
    transaction = models.OneToOneField(
        "ledger.Transaction",
        on_delete=models.PROTECT,
        related_name="levy_charge",
        verbose_name=_("ledger transaction"),
    )
    charged_by = staff_member("levy_charges", _("charged by"))
    charged_at = models.DateTimeField(_("charged at"))

    class Meta:
        ordering = ["charged_at", "pk"]
        verbose_name = _("levy charge")
        verbose_name_plural = _("levy charges")
        constraints = [
            models.UniqueConstraint(
                fields=["player", "period_start"],
                condition=Q(levy_model=FeeModel.PARTICIPATION_FEE),
                name="tables_levycharge_participation_once_a_day",
                violation_error_message=_("This player has paid the day's participation fee."),
            ),
            models.UniqueConstraint(
                fields=["table_session", "player", "period_start"],
                condition=Q(levy_model=FeeModel.TIME_FEE),
                name="tables_levycharge_time_fee_once_a_period",
                violation_error_message=_("This player has paid the time fee for this period."),
            ),
            at_least("amount", 1, "tables_levycharge_amount_positive"),
            ends_after_start("period_end", "period_start", "tables_levycharge_period"),
            one_of("levy_model", FeeModel, "tables_levycharge_model_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.get_levy_model_display()} {self.amount} from {self.player}"
