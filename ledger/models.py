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

from establishment.errors import DomainError, ErrorCode
from establishment.models import GamingSession, Player


class LedgerImmutableError(DomainError):
    """Ledger rows are never changed or deleted; a correction is a reversal."""

    code = ErrorCode.LEDGER_IMMUTABLE
    http_status = 409


def refuse_change(what: str) -> NoReturn:
    raise LedgerImmutableError(
        f"{what} are append-only: post a reversal (ledger.services.reverse) instead."
    )


class AccountKind(models.TextChoices):
    """What an account holds (COM-5.2) and what identifies it."""

    PLAYER_POSITION = "player_position", _("Player position")  # player + gaming session
    BANK_IN_PLAY = "bank_in_play", _("Bank in play")  # place
    COUP_STAKES = "coup_stakes", _("Coup stakes")  # place + number (the coup's)
    CAGNOTTE = "cagnotte", _("Cagnotte")  # place + gaming session (COM-6)
    RELIQUAT = "reliquat", _("Reliquat")  # player (the banker) + place (COM-7)
    RESERVE_FUND = "reserve_fund", _("Reserve fund")  # place + gaming session (COM-8)


# Which identifying fields each kind of account has; every other one is empty.
ACCOUNT_KEY_FIELDS: dict[str, tuple[str, ...]] = {
    AccountKind.PLAYER_POSITION: ("player", "gaming_session"),
    AccountKind.BANK_IN_PLAY: ("place",),
    AccountKind.COUP_STAKES: ("place", "number"),
    AccountKind.CAGNOTTE: ("place", "gaming_session"),
    AccountKind.RELIQUAT: ("player", "place"),
    AccountKind.RESERVE_FUND: ("place", "gaming_session"),
}
_ALL_KEY_FIELDS = ("player", "gaming_session", "place", "number")


def _field_given(field: str, given: bool) -> Q:
    """`field` is set (or empty): a text field is empty as "", the others as null."""
    if field == "place":
        return ~Q(place="") if given else Q(place="")
    return Q(**{f"{field}__isnull": not given})


def _kind_shape(kind: str) -> Q:
    """kind = `kind` and exactly its key fields are set."""
    keys = ACCOUNT_KEY_FIELDS[kind]
    shape = Q(kind=kind)
    for field in _ALL_KEY_FIELDS:
        shape &= _field_given(field, field in keys)
    return shape


def _account_shape() -> Q:
    shape = Q()
    for kind in AccountKind.values:
        shape |= _kind_shape(kind)
    return shape


class Account(models.Model):
    """A place chips can be: one row per (kind, identifying fields).

    The books know players and gaming sessions (the establishment) and nothing of games or
    tables: where the chips are is a `place`, a name given by the floor that posts (the table
    floor names a table or a table session, tables/postings.py). Accounts are created on first
    use by `ledger.services.account_get_or_create`.
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
    place = models.CharField(
        _("place"),
        max_length=64,
        blank=True,
        default="",
        help_text=_("Where the chips are, as the floor that posts names it (a table, …)."),
    )
    number = models.PositiveIntegerField(
        _("number"), null=True, blank=True, help_text=_("The coup's number, for coup stakes.")
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["kind", "pk"]
        verbose_name = _("account")
        verbose_name_plural = _("accounts")
        constraints = [
            models.CheckConstraint(condition=_account_shape(), name="ledger_account_kind_shape"),
            models.CheckConstraint(
                condition=Q(number__isnull=True) | Q(number__gte=1),
                name="ledger_account_number_positive",
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
        if self.place:
            parts.append(self.place)
        if self.number is not None:
            parts.append(f"coup {self.number}")
        if self.gaming_session_id is not None:
            parts.append(f"gaming session {self.gaming_session_id}")
        return ", ".join(parts)


class AppendOnlyQuerySet(models.QuerySet[Any]):
    """Bulk UPDATE and DELETE are refused in Python; the database triggers refuse them too."""

    def update(self, **kwargs: Any) -> NoReturn:
        refuse_change(f"{self.model._meta.verbose_name_plural}".capitalize())

    def delete(self) -> NoReturn:
        refuse_change(f"{self.model._meta.verbose_name_plural}".capitalize())


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
    place = models.CharField(
        _("place"),
        max_length=64,
        blank=True,
        default="",
        db_index=True,
        help_text=_("Where it happened, as the floor that posts names it (a table session, …)."),
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
            refuse_change("Ledger transactions")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> NoReturn:
        refuse_change("Ledger transactions")


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
            refuse_change("Ledger entries")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> NoReturn:
        refuse_change("Ledger entries")
