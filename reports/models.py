"""The night read back: settlement reports, their files, the counted cagnotte, the sign-off,
and the reconciliation of each table session (docs/ledger.md).

Reports are built by Celery once a gaming session closes (reports/tasks.py); a report is never
edited once signed.
"""

from __future__ import annotations

import uuid

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from establishment.models import (
    AppendOnlyModel,
    GamingSession,
    at_least,
    one_of,
    protected_fk,
    staff_member,
)
from tables.models import Table, TableSession


class ReportStatus(models.TextChoices):
    """Where a settlement report stands: a worker claims it, builds it, stores it."""

    PENDING = "pending", _("Queued")
    BUILDING = "building", _("Being prepared")
    READY = "ready", _("Ready")
    FAILED = "failed", _("Failed")


class WorkerJob(models.Model):
    """What a worker builds when asked: queued, claimed by a conditional update that counts the
    attempt and stamps its start (a claim older than the task's time limit is stale: that
    worker died), then ready or failed with the error. The settlement report and the archive of
    a season's registers (`reports.services`, `reports.registers.archive`)."""

    status = models.CharField(
        _("status"), max_length=16, choices=ReportStatus.choices, default=ReportStatus.PENDING
    )
    attempts = models.PositiveIntegerField(_("attempts"), default=0)
    requested_at = models.DateTimeField(_("requested at"))
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    error = models.TextField(_("error"), blank=True)

    class Meta:
        abstract = True


def worker_job_constraints(prefix: str, complete: Q) -> list[models.BaseConstraint]:
    """A job's status is one of `ReportStatus` (`<prefix>_status_valid`), and it is ready only
    once what it built is all there, `complete` (`<prefix>_ready_is_complete`)."""
    return [
        one_of("status", ReportStatus, f"{prefix}_status_valid"),
        models.CheckConstraint(
            condition=~Q(status=ReportStatus.READY) | complete, name=f"{prefix}_ready_is_complete"
        ),
    ]


class SettlementReport(WorkerJob):
    """The settlement of one closed gaming session (one per session: the unique key that makes
    `reports.tasks.settle_session` idempotent).

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
    generated_at = models.DateTimeField(_("generated at"), null=True, blank=True)
    content = models.TextField(_("content"), blank=True)
    sha256 = models.CharField(_("SHA-256"), max_length=64, blank=True)
    reconciled = models.BooleanField(
        _("books agree"),
        null=True,
        blank=True,
        help_text=_("True when the reconciliation found no difference."),
    )

    class Meta:
        ordering = ["-requested_at", "pk"]
        verbose_name = _("settlement report")
        verbose_name_plural = _("settlement reports")
        constraints = worker_job_constraints(
            "reports_report",
            ~Q(content="")
            & ~Q(sha256="")
            & Q(generated_at__isnull=False)
            & Q(reconciled__isnull=False),
        )

    def __str__(self) -> str:
        return f"Settlement of {self.gaming_session} ({self.get_status_display()})"


class ReportFile(models.Model):
    """A rendering of a settlement report made by the worker (the PDF, the CSV files)."""

    report = protected_fk(SettlementReport, "files", _("report"))
    name = models.CharField(_("name"), max_length=64)
    media_type = models.CharField(_("media type"), max_length=64)
    data = models.BinaryField(_("data"))
    sha256 = models.CharField(_("SHA-256"), max_length=64)

    class Meta:
        ordering = ["report", "name"]
        verbose_name = _("report file")
        verbose_name_plural = _("report files")
        constraints = [
            models.UniqueConstraint(fields=["report", "name"], name="reports_reportfile_unique"),
        ]

    def __str__(self) -> str:
        return self.name


class CountedCagnotte(AppendOnlyModel):
    """The cagnotte box of one table counted at the end of the séance (arrêté du 14 mai 2007,
    art. 56-2 and art. 70, column 9): entered once by a director, who certifies it with his own
    password, before a second person who gives hers. The difference with the books is booked
    (`posting`): a surplus added to the levy, a shortfall borne by the casino's cash.

    Never offset between tables (art. 70): each row stands alone.
    """

    report = protected_fk(SettlementReport, "counts", _("report"))
    table = protected_fk(Table, "cagnotte_counts", _("table"))
    table_session = protected_fk(TableSession, "cagnotte_counts", _("séance"))
    posting = models.CharField(
        _("posting of the difference"),
        max_length=200,
        blank=True,
        help_text=_("The ledger transaction of a surplus or a shortfall (none when exact)."),
    )
    counted_chips = models.BigIntegerField(_("counted (chips)"))
    counted_by = staff_member("cagnotte_counts", _("counted by"))
    witness = staff_member("cagnotte_counts_witnessed", _("witness"))
    counted_at = models.DateTimeField(_("counted at"))
    note = models.TextField(_("note"), blank=True)

    class Meta:
        ordering = ["report", "table__number", "table_session_id"]
        verbose_name = _("counted cagnotte")
        verbose_name_plural = _("counted cagnottes")
        constraints = [
            models.UniqueConstraint(
                fields=["table_session"],
                name="reports_countedcagnotte_once_per_seance",
                violation_error_message=_("This table's cagnotte has already been counted."),
            ),
            at_least("counted_chips", 0, "reports_countedcagnotte_not_negative"),
            models.CheckConstraint(
                condition=~Q(witness=models.F("counted_by")),
                name="reports_countedcagnotte_witness_is_another_person",
            ),
        ]

    def __str__(self) -> str:
        return f"Cagnotte of table {self.table.number}: {self.counted_chips}"


class ReportSignOff(AppendOnlyModel):
    """The manager signs the report off: the digest of what was signed (the report's SHA-256
    and the counts) is kept, so any later change would show."""

    report = models.OneToOneField(
        SettlementReport,
        on_delete=models.PROTECT,
        related_name="sign_off",
        verbose_name=_("report"),
    )
    signed_by = staff_member("report_sign_offs", _("signed by"))
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


class ReconciliationRun(models.Model):
    """An auditor re-ran a report's reconciliation against the books as they are now."""

    report = protected_fk(SettlementReport, "reconciliation_runs", _("report"))
    run_by = staff_member("reconciliation_runs", _("run by"))
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
    the table closes (`reports.tasks.reconcile_table_session`), so the night's report need not
    replay every table at the session's close.

    It covers the journal up to `last_seq` and the ledger entries described by `ledger_mark`
    (their count, sum and last id: entries are append-only, so the same mark is the same
    entries). The report uses it only while both still describe the table; otherwise it
    replays the table again. `summary` is canonical JSON (the replayed coups' pots, levies and
    bank results, the balances the replay expects, the differences found), `sha256` its digest.
    """

    table_session = protected_fk(TableSession, "reconciliations", _("table session"))
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
                name="reports_tablereconciliation_once_per_seq",
            ),
        ]

    def __str__(self) -> str:
        return f"Reconciliation of {self.table_session} up to #{self.last_seq}"


# -- the registers of the arrêté du 14 mai 2007, signed, frozen, chained (docs/registers.md) ---


class RegisterKind(models.TextChoices):
    MODEL_11 = "model_11", _("Carnet d'enregistrement des cagnottes (model 11)")
    MODEL_12 = "model_12", _("Registre de contrôle (model 12)")
    MODEL_13 = "model_13", _("Carnet des prélèvements (model 13)")


class Register(AppendOnlyModel):
    """A register as it was signed: its content as canonical JSON with its SHA-256, chained to
    the register of its kind stored before it (`previous_sha256`), so that one removed or
    altered afterwards breaks the chain. A correction after signing is a rectification: a new
    version that names the one it corrects, why, and who approved it (art. 68); the old one is
    never edited and both are shown.

    `key` says which: the séance (model 11), the journée YYYY-MM-DD (model 12), the month
    YYYY-MM (model 13).
    """

    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    kind = models.CharField(_("register"), max_length=16, choices=RegisterKind.choices)
    key = models.CharField(_("which"), max_length=64)
    version = models.PositiveIntegerField(_("version"), default=1)
    content = models.TextField(_("content"))
    sha256 = models.CharField(_("SHA-256"), max_length=64)
    previous_sha256 = models.CharField(_("SHA-256 of the previous register"), max_length=64)
    stored_at = models.DateTimeField(_("stored at"))
    rectifies = models.OneToOneField(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="rectified_by",
        verbose_name=_("rectifies"),
    )
    reason = models.TextField(_("reason for the rectification"), blank=True)
    approved_by = staff_member("registers_approved", _("rectification approved by"), optional=True)
    table_session = protected_fk(TableSession, "registers", _("séance"), optional=True)

    class Meta:
        ordering = ["kind", "pk"]
        verbose_name = _("register")
        verbose_name_plural = _("registers")
        constraints = [
            models.UniqueConstraint(
                fields=["kind", "key", "version"], name="reports_register_version_unique"
            ),
            # The chain is one line per kind: two registers never follow the same one.
            models.UniqueConstraint(
                fields=["kind", "previous_sha256"], name="reports_register_chain_unique"
            ),
            one_of("kind", RegisterKind, "reports_register_kind_valid"),
            models.CheckConstraint(
                condition=Q(version=1, rectifies__isnull=True)
                | Q(version__gt=1, rectifies__isnull=False, approved_by__isnull=False),
                name="reports_register_rectification_names_the_old",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.key} v{self.version}"


class RegisterSignature(AppendOnlyModel):
    """A person signed a register: who, when, as what, and the SHA-256 of exactly what he
    signed; he proved who he was at that moment (his own password)."""

    register = protected_fk(Register, "signatures", _("register"))
    signed_by = staff_member("register_signatures", _("signed by"))
    signed_at = models.DateTimeField(_("signed at"))
    signed_as = models.CharField(_("signed as"), max_length=32)
    signed_sha256 = models.CharField(_("signed SHA-256"), max_length=64)

    class Meta:
        ordering = ["register", "signed_at", "pk"]
        verbose_name = _("signature of a register")
        verbose_name_plural = _("signatures of registers")
        constraints = [
            models.UniqueConstraint(
                fields=["register", "signed_by"], name="reports_registersignature_once_each"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.register} signed by {self.signed_by}"


class RegisterArchive(WorkerJob):
    """A season's registers exported as one self-checking ZIP (docs/registers.md, "Retention",
    art. 80): every version of every register of the season as its canonical JSON, their
    signatures, a manifest of every file's SHA-256 and of each kind's chain, and `verify.py`.

    A manager or an auditor asks for it; a worker builds it (`reports.tasks.
    build_register_archive`, claimed by a conditional update like the settlement report) and
    stores the ZIP here, as the settlement report's files are (`ReportFile.data`), so it can be
    downloaded again. `sha256` is the ZIP's digest, `manifest_sha256` the manifest's.
    """

    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    season = models.PositiveIntegerField(_("season"))
    requested_by = staff_member("register_archives", _("requested by"))
    built_at = models.DateTimeField(_("built at"), null=True, blank=True)
    data = models.BinaryField(_("data"), blank=True, default=b"")
    sha256 = models.CharField(_("SHA-256"), max_length=64, blank=True)
    manifest_sha256 = models.CharField(_("SHA-256 of the manifest"), max_length=64, blank=True)
    registers = models.PositiveIntegerField(_("registers"), default=0)

    class Meta:
        ordering = ["-requested_at", "-pk"]
        verbose_name = _("archive of a season's registers")
        verbose_name_plural = _("archives of a season's registers")
        constraints = worker_job_constraints(
            "reports_registerarchive",
            ~Q(sha256="") & ~Q(manifest_sha256="") & Q(built_at__isnull=False),
        )

    def __str__(self) -> str:
        return f"Registers of {self.season} ({self.get_status_display()})"
