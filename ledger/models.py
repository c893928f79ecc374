"""The books. See docs/ledger.md for the sign convention and what each account means.

Invariants held by the database as well as by Python (RELIABILITY-PERFORMANCE.md, invariants 1
and 3): every transaction sums to zero (deferred constraint trigger on PostgreSQL,
`ledger.services.post` everywhere); entries and transactions are append-only (triggers on
PostgreSQL and SQLite, and the model/queryset methods below); every amount is positive (CHECK).
Only `ledger.services.post` creates rows.
"""

from __future__ import annotations

import uuid
from typing import Any, NoReturn

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from casino.errors import DomainError, ErrorCode
from casino.models import GamingSession, Player
from tables.models import Table, TableSession


class LedgerImmutableError(DomainError):
    """Ledger rows are never changed or deleted; a correction is a reversal."""

    code = ErrorCode.LEDGER_IMMUTABLE
    http_status = 409


def _refuse_change(what: str) -> NoReturn:
    raise LedgerImmutableError(
        f"{what} are append-only: post a reversal (ledger.services.reverse) instead."
    )


class AccountKind(models.TextChoices):
    """What an account holds (COM-5.2) and what identifies it."""

    PLAYER_POSITION = "player_position", _("Player position")  # player + gaming session
    BANK_IN_PLAY = "bank_in_play", _("Bank in play")  # table session
    COUP_STAKES = "coup_stakes", _("Coup stakes")  # table session + coup number
    CAGNOTTE = "cagnotte", _("Cagnotte")  # table + gaming session (COM-6)
    RELIQUAT = "reliquat", _("Reliquat")  # banker (player) + table session (COM-7)
    RESERVE_FUND = "reserve_fund", _("Reserve fund")  # table + gaming session (COM-8)


# Which identifying fields each kind of account has; every other one is null.
ACCOUNT_KEY_FIELDS: dict[str, tuple[str, ...]] = {
    AccountKind.PLAYER_POSITION: ("player", "gaming_session"),
    AccountKind.BANK_IN_PLAY: ("table_session",),
    AccountKind.COUP_STAKES: ("table_session", "coup_number"),
    AccountKind.CAGNOTTE: ("table", "gaming_session"),
    AccountKind.RELIQUAT: ("player", "table_session"),
    AccountKind.RESERVE_FUND: ("table", "gaming_session"),
}
_ALL_KEY_FIELDS = ("player", "gaming_session", "table", "table_session", "coup_number")


def _kind_shape(kind: str) -> Q:
    """kind = `kind` and exactly its key fields are set."""
    keys = ACCOUNT_KEY_FIELDS[kind]
    lookups: dict[str, Any] = {"kind": kind}
    for field in _ALL_KEY_FIELDS:
        lookups[f"{field}__isnull"] = field not in keys
    return Q(**lookups)


def _account_shape() -> Q:
    shape = Q()
    for kind in AccountKind.values:
        shape |= _kind_shape(kind)
    return shape


class Account(models.Model):
    """A place chips can be: one row per (kind, identifying fields).

    Accounts are created on first use by `ledger.services.account_get_or_create`.
    """

    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    kind = models.CharField(_("kind"), max_length=32, choices=AccountKind.choices)
    player = models.ForeignKey(
        Player,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="accounts",
        verbose_name=_("player"),
    )
    gaming_session = models.ForeignKey(
        GamingSession,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="accounts",
        verbose_name=_("gaming session"),
    )
    table = models.ForeignKey(
        Table,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="accounts",
        verbose_name=_("table"),
    )
    table_session = models.ForeignKey(
        TableSession,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="accounts",
        verbose_name=_("table session"),
    )
    coup_number = models.PositiveIntegerField(_("coup number"), null=True, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["kind", "pk"]
        verbose_name = _("account")
        verbose_name_plural = _("accounts")
        constraints = [
            models.CheckConstraint(condition=_account_shape(), name="ledger_account_kind_shape"),
            models.CheckConstraint(
                condition=Q(coup_number__isnull=True) | Q(coup_number__gte=1),
                name="ledger_account_coup_number_positive",
            ),
            *[
                models.UniqueConstraint(
                    fields=list(keys),
                    condition=Q(kind=kind),
                    name=f"ledger_account_unique_{kind}",
                )
                for kind, keys in ACCOUNT_KEY_FIELDS.items()
            ],
        ]

    def __str__(self) -> str:
        parts = [self.get_kind_display()]
        if self.player_id is not None:
            parts.append(str(self.player))
        if self.table_id is not None:
            parts.append(f"table {self.table}")
        if self.table_session_id is not None:
            parts.append(f"table session {self.table_session_id}")
        if self.coup_number is not None:
            parts.append(f"coup {self.coup_number}")
        if self.gaming_session_id is not None:
            parts.append(f"gaming session {self.gaming_session_id}")
        return ", ".join(parts)


class AppendOnlyQuerySet(models.QuerySet[Any]):
    """Bulk UPDATE and DELETE are refused in Python; the database triggers refuse them too."""

    def update(self, **kwargs: Any) -> NoReturn:
        _refuse_change(f"{self.model._meta.verbose_name_plural}".capitalize())

    def delete(self) -> NoReturn:
        _refuse_change(f"{self.model._meta.verbose_name_plural}".capitalize())


class Transaction(models.Model):
    """A balanced set of entries posted at once, by someone, for a reason."""

    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    idempotency_key = models.CharField(
        _("idempotency key"),
        max_length=200,
        unique=True,
        help_text=_("Posting again with the same key returns the first transaction."),
    )
    posted_at = models.DateTimeField(_("posted at"))
    posted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="ledger_transactions",
        verbose_name=_("posted by"),
    )
    memo = models.CharField(_("memo"), max_length=255, blank=True)
    gaming_session = models.ForeignKey(
        GamingSession,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="ledger_transactions",
        verbose_name=_("gaming session"),
    )
    table_session = models.ForeignKey(
        TableSession,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="ledger_transactions",
        verbose_name=_("table session"),
    )
    reverses = models.OneToOneField(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="reversed_by",
        verbose_name=_("reverses"),
        help_text=_("The transaction this one cancels; a transaction is reversed at most once."),
    )

    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        ordering = ["posted_at", "pk"]
        get_latest_by = "posted_at"
        verbose_name = _("transaction")
        verbose_name_plural = _("transactions")
        permissions = [
            ("post_transaction", "Can post ledger transactions"),
            ("approve_reversal", "Can approve a reversal (second person)"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=~Q(idempotency_key=""), name="ledger_transaction_key_not_blank"
            ),
            models.CheckConstraint(
                condition=Q(reverses__isnull=True) | ~Q(reverses=models.F("pk")),
                name="ledger_transaction_not_self_reversal",
            ),
        ]

    def __str__(self) -> str:
        return f"Transaction {self.public_id} ({self.memo or self.idempotency_key})"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            _refuse_change("Ledger transactions")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> NoReturn:
        _refuse_change("Ledger transactions")


class Side(models.TextChoices):
    """Debit: chips leave the account. Credit: chips arrive in it (docs/ledger.md)."""

    DEBIT = "debit", _("Debit")
    CREDIT = "credit", _("Credit")


class Entry(models.Model):
    """One leg of a transaction: `amount` chips (> 0) debited from or credited to an account."""

    transaction = models.ForeignKey(
        Transaction,
        on_delete=models.PROTECT,
        related_name="entries",
        verbose_name=_("transaction"),
    )
    account = models.ForeignKey(
        Account, on_delete=models.PROTECT, related_name="entries", verbose_name=_("account")
    )
    side = models.CharField(_("side"), max_length=6, choices=Side.choices)
    amount = models.BigIntegerField(_("amount (chips)"))
    reason = models.CharField(
        _("reason"),
        max_length=64,
        blank=True,
        help_text=_("The settlement reason (stake, cagnotte, reliquat_in, …)."),
    )

    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        ordering = ["transaction", "pk"]
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="ledger_entry_amount_positive"),
            models.CheckConstraint(
                condition=Q(side__in=Side.values), name="ledger_entry_side_valid"
            ),
        ]
        indexes = [
            models.Index(fields=["account", "side"], name="ledger_entry_account_side"),
        ]

    def __str__(self) -> str:
        return f"{self.get_side_display()} {self.amount} {self.account}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            _refuse_change("Ledger entries")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> NoReturn:
        _refuse_change("Ledger entries")


# -- Settlement (issue 7): the night's report, the counted cagnotte, the sign-off --------------


class ReportStatus(models.TextChoices):
    """Where a settlement report stands: a worker claims it, builds it, stores it."""

    PENDING = "pending", _("Queued")
    BUILDING = "building", _("Being prepared")
    READY = "ready", _("Ready")
    FAILED = "failed", _("Failed")


class SettlementReport(models.Model):
    """The settlement of one closed gaming session (one per session: the unique key that makes
    `ledger.tasks.settle_session` idempotent).

    `content` is the report as canonical JSON (sorted keys, no generation time inside), and
    `sha256` its digest: the same books give the same bytes. `generated_at` is when a worker
    stored it, kept outside the hashed content.
    """

    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    gaming_session = models.OneToOneField(
        GamingSession,
        on_delete=models.PROTECT,
        related_name="settlement_report",
        verbose_name=_("gaming session"),
    )
    status = models.CharField(
        _("status"), max_length=16, choices=ReportStatus.choices, default=ReportStatus.PENDING
    )
    attempts = models.PositiveIntegerField(_("attempts"), default=0)
    requested_at = models.DateTimeField(_("requested at"))
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    generated_at = models.DateTimeField(_("generated at"), null=True, blank=True)
    content = models.TextField(_("content"), blank=True)
    sha256 = models.CharField(_("SHA-256"), max_length=64, blank=True)
    reconciled = models.BooleanField(
        _("books agree"),
        null=True,
        blank=True,
        help_text=_("True when the reconciliation found no difference."),
    )
    error = models.TextField(_("error"), blank=True)

    class Meta:
        ordering = ["-requested_at", "pk"]
        verbose_name = _("settlement report")
        verbose_name_plural = _("settlement reports")
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=ReportStatus.values), name="ledger_report_status_valid"
            ),
            models.CheckConstraint(
                condition=~Q(status=ReportStatus.READY)
                | (
                    ~Q(content="")
                    & ~Q(sha256="")
                    & Q(generated_at__isnull=False)
                    & Q(reconciled__isnull=False)
                ),
                name="ledger_report_ready_is_complete",
            ),
        ]

    def __str__(self) -> str:
        return f"Settlement of {self.gaming_session} ({self.get_status_display()})"


class ReportFile(models.Model):
    """A rendering of a settlement report made by the worker (the PDF, the CSV files)."""

    report = models.ForeignKey(
        SettlementReport,
        on_delete=models.PROTECT,
        related_name="files",
        verbose_name=_("report"),
    )
    name = models.CharField(_("name"), max_length=64)
    media_type = models.CharField(_("media type"), max_length=64)
    data = models.BinaryField(_("data"))
    sha256 = models.CharField(_("SHA-256"), max_length=64)

    class Meta:
        ordering = ["report", "name"]
        verbose_name = _("report file")
        verbose_name_plural = _("report files")
        constraints = [
            models.UniqueConstraint(fields=["report", "name"], name="ledger_reportfile_unique"),
        ]

    def __str__(self) -> str:
        return self.name


class CountedCagnotte(models.Model):
    """The cagnotte box of one table counted at the end of the séance (arrêté du 14 mai 2007,
    art. 56-2 and art. 70, column 9): entered once, by a manager, before a second person.

    Never offset between tables (art. 70): each row stands alone.
    """

    report = models.ForeignKey(
        SettlementReport,
        on_delete=models.PROTECT,
        related_name="counts",
        verbose_name=_("report"),
    )
    table = models.ForeignKey(
        Table, on_delete=models.PROTECT, related_name="cagnotte_counts", verbose_name=_("table")
    )
    counted_chips = models.BigIntegerField(_("counted (chips)"))
    counted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="cagnotte_counts",
        verbose_name=_("counted by"),
    )
    witness = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="cagnotte_counts_witnessed",
        verbose_name=_("witness"),
    )
    counted_at = models.DateTimeField(_("counted at"))
    note = models.TextField(_("note"), blank=True)

    class Meta:
        ordering = ["report", "table__number"]
        verbose_name = _("counted cagnotte")
        verbose_name_plural = _("counted cagnottes")
        constraints = [
            models.UniqueConstraint(
                fields=["report", "table"],
                name="ledger_countedcagnotte_once_per_table",
                violation_error_message=_("This table's cagnotte has already been counted."),
            ),
            models.CheckConstraint(
                condition=Q(counted_chips__gte=0), name="ledger_countedcagnotte_not_negative"
            ),
            models.CheckConstraint(
                condition=~Q(witness=models.F("counted_by")),
                name="ledger_countedcagnotte_witness_is_another_person",
            ),
        ]

    def __str__(self) -> str:
        return f"Cagnotte of table {self.table.number}: {self.counted_chips}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            _refuse_change("Cagnotte counts")
        super().save(*args, **kwargs)


class ReportSignOff(models.Model):
    """The manager signs the report off: the digest of what was signed (the report's SHA-256
    and the counts) is kept, so any later change would show."""

    report = models.OneToOneField(
        SettlementReport,
        on_delete=models.PROTECT,
        related_name="sign_off",
        verbose_name=_("report"),
    )
    signed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="report_sign_offs",
        verbose_name=_("signed by"),
    )
    signed_at = models.DateTimeField(_("signed at"))
    report_sha256 = models.CharField(_("report SHA-256"), max_length=64)
    signed_sha256 = models.CharField(
        _("signed SHA-256"),
        max_length=64,
        help_text=_("SHA-256 of the report's digest together with the counted cagnottes."),
    )

    class Meta:
        verbose_name = _("report sign-off")
        verbose_name_plural = _("report sign-offs")

    def __str__(self) -> str:
        return f"Signed by {self.signed_by} at {self.signed_at:%Y-%m-%d %H:%M}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            _refuse_change("Sign-offs")
        super().save(*args, **kwargs)


class ReconciliationRun(models.Model):
    """An auditor re-ran a report's reconciliation against the books as they are now."""

    report = models.ForeignKey(
        SettlementReport,
        on_delete=models.PROTECT,
        related_name="reconciliation_runs",
        verbose_name=_("report"),
    )
    run_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="reconciliation_runs",
        verbose_name=_("run by"),
    )
    run_at = models.DateTimeField(_("run at"))
    agrees = models.BooleanField(_("books agree"))
    same_content = models.BooleanField(
        _("same report"), help_text=_("The report rebuilt now has the stored SHA-256.")
    )
    sha256 = models.CharField(_("SHA-256 now"), max_length=64)
    differences = models.JSONField(_("differences"), default=list, blank=True)

    class Meta:
        ordering = ["report", "-run_at"]
        verbose_name = _("reconciliation run")
        verbose_name_plural = _("reconciliation runs")

    def __str__(self) -> str:
        return f"Reconciliation by {self.run_by} at {self.run_at:%Y-%m-%d %H:%M}"


class TableReconciliation(models.Model):
    """One table session replayed through the engine and compared with its books, stored when
    the table closes (`ledger.tasks.reconcile_table_session`), so the night's report need not
    replay every table at the session's close.

    It covers the journal up to `last_seq` and the ledger entries described by `ledger_mark`
    (their count, sum and last id: entries are append-only, so the same mark is the same
    entries). The report uses it only while both still describe the table; otherwise it
    replays the table again. `summary` is canonical JSON (the replayed coups' pots, levies and
    bank results, the balances the replay expects, the differences found), `sha256` its digest.
    """

    table_session = models.ForeignKey(
        TableSession,
        on_delete=models.PROTECT,
        related_name="reconciliations",
        verbose_name=_("table session"),
    )
    last_seq = models.PositiveIntegerField(_("last journal number covered"))
    ledger_mark = models.CharField(_("ledger entries covered"), max_length=100)
    summary = models.TextField(_("summary"))
    sha256 = models.CharField(_("SHA-256"), max_length=64)
    agrees = models.BooleanField(_("books agree"))
    created_at = models.DateTimeField(_("created at"))

    class Meta:
        ordering = ["table_session", "last_seq"]
        verbose_name = _("table reconciliation")
        verbose_name_plural = _("table reconciliations")
        constraints = [
            models.UniqueConstraint(
                fields=["table_session", "last_seq"],
                name="ledger_tablereconciliation_once_per_seq",
            ),
        ]

    def __str__(self) -> str:
        return f"Reconciliation of {self.table_session} up to #{self.last_seq}"
