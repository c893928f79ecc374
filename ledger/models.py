"""The books. See docs/ledger.md for the sign convention and what each account means.

Invariants held by the database as well as by Python (docs/ledger.md, "Invariants"): every
transaction sums to zero (deferred constraint trigger on PostgreSQL, `ledger.services.post`
everywhere); entries and transactions are append-only (triggers on PostgreSQL and SQLite, and
`LedgerRow` below); every amount is positive (CHECK). Only `ledger.services.post` creates rows.
"""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from establishment.errors import AppendOnlyError, ErrorCode

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise
from establishment.chain import chain_hash_field, chain_hash_valid, chain_position_field
from establishment.models import (
    AppendOnlyModel,
    GamingSession,
    Player,
    created_at_field,
    idempotency_key_field,
    not_blank,
    one_of,
    protected_fk,
    staff_member,
)


class LedgerImmutableError(AppendOnlyError):
    """Ledger rows are never changed or deleted; a correction is a reversal."""

    code = ErrorCode.LEDGER_IMMUTABLE


class AccountKind(models.TextChoices):
    """What an account holds (COM-5.2) and what identifies it."""

    PLAYER_POSITION = "player_position", _("Player position")  # player + gaming session
    BANK_IN_PLAY = "bank_in_play", _("Bank in play")  # place
    COUP_STAKES = "coup_stakes", _("Coup stakes")  # place + number (the coup's)
    CAGNOTTE = "cagnotte", _("Cagnotte")  # place + gaming session (COM-6)
    RELIQUAT = "reliquat", _("Reliquat")  # player (the banker) + place (COM-7)
    RESERVE_FUND = "reserve_fund", _("Reserve fund")  # place + gaming session (COM-8)
    # The count of a cagnotte box against its books (art. 70, docs/registers.md model 11): a
    # surplus is added to the levy, a shortfall is borne by the casino's cash.
    COUNT_DIFFERENCE = "count_difference", _("Count difference")  # place (the count's)
    LEVY_SURPLUS = "levy_surplus", _("Levy from a count's surplus")  # place (the count's)
    HOUSE_CASH = "house_cash", _("The casino's cash")  # place (the house)


# Which identifying fields each kind of account has; every other one is empty.
ACCOUNT_KEY_FIELDS: dict[str, tuple[str, ...]] = {
    AccountKind.PLAYER_POSITION: ("player", "gaming_session"),
    AccountKind.BANK_IN_PLAY: ("place",),
    AccountKind.COUP_STAKES: ("place", "number"),
    AccountKind.CAGNOTTE: ("place", "gaming_session"),
    AccountKind.RELIQUAT: ("player", "place"),
    AccountKind.RESERVE_FUND: ("place", "gaming_session"),
    AccountKind.COUNT_DIFFERENCE: ("place",),
    AccountKind.LEVY_SURPLUS: ("place",),
    AccountKind.HOUSE_CASH: ("place",),
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


def _place(help_text: StrOrPromise, *, db_index: bool = False) -> models.CharField[str, str]:
    """A name given by the floor that posts (tables/postings.py), empty when there is none."""
    return models.CharField(
        _("place"),
        max_length=64,
        blank=True,
        default="",
        db_default="",
        db_index=db_index,
        help_text=help_text,
    )


class Account(models.Model):
    """A place chips can be: one row per (kind, identifying fields).

    The books know players and gaming sessions (the establishment) and nothing of games or
    tables: where the chips are is a `place`, a name given by the floor that posts (the table
    floor names a table or a table session, tables/postings.py). Accounts are created on first
    use by `ledger.services.account_get_or_create`.
    """

    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    kind = models.CharField(_("kind"), max_length=32, choices=AccountKind.choices)
    player = protected_fk(Player, "accounts", _("player"), optional=True)
    gaming_session = protected_fk(GamingSession, "accounts", _("gaming session"), optional=True)
    place = _place(_("Where the chips are, as the floor that posts names it (a table, …)."))
    number = models.PositiveIntegerField(
        _("number"), null=True, blank=True, help_text=_("The coup's number, for coup stakes.")
    )
    created_at = created_at_field()

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


class LedgerRow(AppendOnlyModel):
    """A row of the books: refused changes say how to correct the books."""

    class Meta:
        abstract = True

    @classmethod
    def refusal(cls, *, deleting: bool) -> LedgerImmutableError:
        return LedgerImmutableError(
            f"Ledger {cls._meta.verbose_name_plural} are append-only: post a reversal"
            " (ledger.services.reverse) instead."
        )


class Transaction(LedgerRow):
    """A balanced set of entries posted at once, by someone, for a reason."""

    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    idempotency_key = idempotency_key_field(
        unique=True, help_text=_("Posting again with the same key returns the first transaction.")
    )
    posted_at = models.DateTimeField(_("posted at"))
    posted_by = staff_member("ledger_transactions", _("posted by"))
    memo = models.CharField(_("memo"), max_length=255, blank=True)
    gaming_session = protected_fk(
        GamingSession, "ledger_transactions", _("gaming session"), optional=True
    )
    place = _place(
        _("Where it happened, as the floor that posts names it (a table session, …)."),
        db_index=True,
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
    # Its place and hash in the books' chain, over it and its entries (ledger/chain.py).
    chain_position = chain_position_field()
    chain_hash = chain_hash_field()

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
            not_blank("idempotency_key", "ledger_transaction_key_not_blank"),
            models.CheckConstraint(
                condition=Q(reverses__isnull=True) | ~Q(reverses=models.F("pk")),
                name="ledger_transaction_not_self_reversal",
            ),
            chain_hash_valid("ledger_transaction"),
        ]

    def __str__(self) -> str:
        return f"Transaction {self.public_id} ({self.memo or self.idempotency_key})"


class Side(models.TextChoices):
    """Debit: chips leave the account. Credit: chips arrive in it (docs/ledger.md)."""

    DEBIT = "debit", _("Debit")
    CREDIT = "credit", _("Credit")


class Entry(LedgerRow):
    """One leg of a transaction: `amount` chips (> 0) debited from or credited to an account."""

    transaction = protected_fk(Transaction, "entries", _("transaction"))
    account = protected_fk(Account, "entries", _("account"))
    side = models.CharField(_("side"), max_length=6, choices=Side.choices)
    amount = models.BigIntegerField(_("amount (chips)"))
    reason = models.CharField(
        _("reason"),
        max_length=64,
        blank=True,
        help_text=_("The settlement reason (stake, cagnotte, reliquat_in, …)."),
    )

    class Meta:
        ordering = ["transaction", "pk"]
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="ledger_entry_amount_positive"),
            one_of("side", Side, "ledger_entry_side_valid"),
        ]
        indexes = [
            models.Index(fields=["account", "side"], name="ledger_entry_account_side"),
        ]

    def __str__(self) -> str:
        return f"{self.get_side_display()} {self.amount} {self.account}"
