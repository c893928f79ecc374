"""The only writers of the books.

`post` books a balanced transaction; `reverse` cancels one by posting its mirror. Both are
`@transaction.atomic` without `durable=True` because the table's `record` service calls them
inside its own durable transaction (docs/architecture.md, "How a recorded action flows").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from establishment.errors import DomainError, ErrorCode
from establishment.models import GamingSession, Player
from establishment.rows import chained_insert
from ledger.chain import LEDGER_CHAIN, transaction_content
from ledger.models import ACCOUNT_KEY_FIELDS, Account, AccountKind, Entry, Side, Transaction

if TYPE_CHECKING:
    from django.contrib.auth.models import User


class LedgerError(DomainError):
    code = ErrorCode.LEDGER_UNBALANCED
    http_status = 422


class UnbalancedTransactionError(LedgerError):
    """The debits' total is not the credits' total (invariant 1): LedgerError's own code."""


class LedgerConflictError(LedgerError):
    """A request at odds with what the books already hold: a conflict (409), as a stale screen
    is, rather than a transaction the books refuse."""

    http_status = 409


class IdempotencyConflictError(LedgerConflictError):
    code = ErrorCode.LEDGER_IDEMPOTENCY_CONFLICT


class AlreadyReversedError(LedgerConflictError):
    code = ErrorCode.LEDGER_ALREADY_REVERSED


@dataclass(frozen=True, slots=True)
class Leg:
    """One line of a transaction to post: `amount_chips` > 0 on `side` of `account`."""

    account: Account
    side: Side
    amount_chips: int
    reason: str = ""

    @classmethod
    def debit(cls, account: Account, amount_chips: int, reason: str = "") -> Leg:
        """Chips leave `account`."""
        return cls(account, Side.DEBIT, amount_chips, reason)

    @classmethod
    def credit(cls, account: Account, amount_chips: int, reason: str = "") -> Leg:
        """Chips arrive in `account`."""
        return cls(account, Side.CREDIT, amount_chips, reason)


def legs_check(legs: Sequence[Leg]) -> None:
    """Refuse a set of legs that is not a valid transaction (the Python half of invariant 1).

    At least one debit and one credit, every amount a positive integer, and the debits' total
    equal to the credits' total (COM-5.5, INV-1).
    """
    if not legs:
        raise LedgerError("A transaction needs entries.", code=ErrorCode.LEDGER_EMPTY)
    for leg in legs:
        amount = leg.amount_chips
        if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
            raise LedgerError(
                f"Every amount must be a positive whole number of chips, not {amount!r}.",
                code=ErrorCode.LEDGER_BAD_AMOUNT,
                amount=repr(amount),
            )
        if leg.side not in Side.values:
            raise LedgerError(f"Unknown side {leg.side!r}.", code=ErrorCode.LEDGER_BAD_AMOUNT)
        if leg.account.pk is None:
            raise LedgerError(
                "Entries must be posted to saved accounts.", code=ErrorCode.LEDGER_BAD_ACCOUNT
            )
    debits = sum(leg.amount_chips for leg in legs if leg.side == Side.DEBIT)
    credits = sum(leg.amount_chips for leg in legs if leg.side == Side.CREDIT)
    if debits != credits or debits == 0:
        raise UnbalancedTransactionError(
            f"Debits ({debits}) and credits ({credits}) must be equal and not zero.",
            debits=debits,
            credits=credits,
        )


def _legs_signature(legs: Sequence[tuple[int, str, int]]) -> Counter[tuple[int, str, int]]:
    return Counter(legs)


def _same_posting(existing: Transaction, legs: Sequence[Leg], reverses: Transaction | None) -> bool:
    stored = [(entry.account_id, entry.side, entry.amount) for entry in existing.entries.all()]
    wanted = [(leg.account.pk, str(leg.side), leg.amount_chips) for leg in legs]
    reverses_pk = reverses.pk if reverses is not None else None
    return (
        _legs_signature(stored) == _legs_signature(wanted) and existing.reverses_id == reverses_pk
    )


def post(
    *,
    legs: Sequence[Leg],
    idempotency_key: str,
    posted_by: User,
    memo: str = "",
    gaming_session: GamingSession | None = None,
    place: str = "",
    reverses: Transaction | None = None,
    key_unique_by_caller: bool = False,
) -> Transaction:
    """Book a balanced transaction and return it.

    Posting again with an `idempotency_key` already used returns the first transaction when it
    holds the same entries (a retried request, a redelivered task) and raises
    `IdempotencyConflictError` otherwise. The database re-checks the zero sum at COMMIT on
    PostgreSQL (trigger `ledger_entry_zero_sum`).

    `key_unique_by_caller`: the caller already holds what makes its key unique (the recording
    service: the table's lock and the journal line's number are in the key), so no second
    posting can race this one; the two savepoints that recover from such a race (four round
    trips per settled coup) are left out, and a repeated key is an error that undoes the
    caller's whole transaction.
    """
    with transaction.atomic(savepoint=not key_unique_by_caller):
        return _post(
            legs=legs,
            idempotency_key=idempotency_key,
            posted_by=posted_by,
            memo=memo,
            gaming_session=gaming_session,
            place=place,
            reverses=reverses,
            contended=not key_unique_by_caller,
        )


def _post(
    *,
    legs: Sequence[Leg],
    idempotency_key: str,
    posted_by: User,
    memo: str,
    gaming_session: GamingSession | None,
    place: str,
    reverses: Transaction | None,
    contended: bool,
) -> Transaction:
    if not idempotency_key:
        raise LedgerError("An idempotency key is required.", code=ErrorCode.LEDGER_EMPTY)
    legs_check(legs)

    if reverses is not None:
        # A reversal repeated must be recognised before `_reversible_check` refuses it.
        existing = Transaction.objects.filter(idempotency_key=idempotency_key).first()
        if existing is not None:
            return _replayed(existing, legs, reverses, idempotency_key)
        _reversible_check(reverses)
    # Otherwise insert first: a repeated key is caught by its unique constraint below, which
    # saves a look-up on every posting (one statement per coup booked).

    try:
        # A savepoint, so that losing a race on the idempotency key leaves the outer
        # transaction usable and the winner's row can be read.
        with transaction.atomic(savepoint=contended):
            posted = Transaction(
                idempotency_key=idempotency_key,
                posted_at=timezone.now(),
                posted_by=posted_by,
                memo=memo,
                gaming_session=gaming_session,
                place=place,
                reverses=reverses,
            )
            # Appended to the books' chain in the statement that inserts it, hashed with its
            # entries (ledger/chain.py); the chain's head stays locked until the commit.
            content = transaction_content(
                posted,
                ((leg.account.pk, str(leg.side), leg.amount_chips, leg.reason) for leg in legs),
            )
            chained_insert(posted, chain=LEDGER_CHAIN, content=content)
            Entry.objects.bulk_create(
                Entry(
                    transaction=posted,
                    account=leg.account,
                    side=leg.side,
                    amount=leg.amount_chips,
                    reason=leg.reason,
                )
                for leg in legs
            )
    except IntegrityError:
        if not contended:
            raise  # no savepoint to read the winner from: the caller's transaction is undone
        existing = Transaction.objects.filter(idempotency_key=idempotency_key).first()
        if existing is None:
            raise
        return _replayed(existing, legs, reverses, idempotency_key)
    return posted


def _replayed(
    existing: Transaction,
    legs: Sequence[Leg],
    reverses: Transaction | None,
    idempotency_key: str,
) -> Transaction:
    if not _same_posting(existing, legs, reverses):
        raise IdempotencyConflictError(
            f"The idempotency key {idempotency_key!r} was used for different entries.",
            idempotency_key=idempotency_key,
        )
    return existing


def _reversible_check(original: Transaction) -> None:
    if original.reverses_id is not None:
        raise AlreadyReversedError(
            "A reversal cannot itself be reversed; post a new transaction instead.",
            code=ErrorCode.LEDGER_ALREADY_REVERSED,
        )
    if Transaction.objects.filter(reverses=original).exists():
        raise AlreadyReversedError("This transaction has already been reversed.")


@transaction.atomic
def reverse(
    *,
    original: Transaction,
    posted_by: User,
    memo: str = "",
    idempotency_key: str | None = None,
) -> Transaction:
    """Cancel `original` by posting its mirror (every debit becomes a credit), linked to it.

    The original rows stay untouched (append-only); both are visible to the auditor.
    """
    legs = [
        Leg(
            account=entry.account,
            side=Side.CREDIT if entry.side == Side.DEBIT else Side.DEBIT,
            amount_chips=entry.amount,
            reason=entry.reason,
        )
        for entry in Entry.objects.filter(transaction=original).select_related("account")
    ]
    return post(
        legs=legs,
        idempotency_key=idempotency_key or f"reversal:{original.public_id}",
        posted_by=posted_by,
        memo=memo or f"Reversal of {original.memo or original.idempotency_key}",
        gaming_session=original.gaming_session,
        place=original.place,
        reverses=original,
    )


def account_get_or_create(
    *,
    kind: AccountKind,
    player: Player | None = None,
    gaming_session: GamingSession | None = None,
    place: str = "",
    number: int | None = None,
) -> Account:
    """The account of `kind` identified by the given fields, created on first use.

    Exactly the fields listed for the kind in `ACCOUNT_KEY_FIELDS` must be given.
    """
    given: dict[str, Any] = {
        "player": player,
        "gaming_session": gaming_session,
        "place": place or None,
        "number": number,
    }
    keys = ACCOUNT_KEY_FIELDS[kind]
    missing = [name for name in keys if given[name] is None]
    extra = [name for name, value in given.items() if value is not None and name not in keys]
    if missing or extra:
        raise LedgerError(
            f"A {kind} account is identified by {', '.join(keys)}"
            f" (missing: {', '.join(missing) or 'none'};"
            f" unexpected: {', '.join(extra) or 'none'}).",
            code=ErrorCode.LEDGER_BAD_ACCOUNT,
        )
    lookup: dict[str, Any] = {name: given[name] for name in keys}
    try:
        with transaction.atomic():
            account, _created = Account.objects.get_or_create(kind=kind, **lookup)
    except IntegrityError:
        # Another writer created it between our SELECT and INSERT.
        account = Account.objects.get(kind=kind, **lookup)
    return account
