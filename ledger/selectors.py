"""What the books hold: balances, and the transactions that do not balance."""

from __future__ import annotations

from django.db.models import Case, F, QuerySet, Sum, Value, When
from django.db.models.functions import Coalesce

from ledger.models import Account, AccountKind, Entry, Side, Transaction

# credit − debit: the signed amount of an entry under the convention of docs/ledger.md.
SIGNED_AMOUNT = Case(
    When(side=Side.CREDIT, then=F("amount")),
    default=-F("amount"),
)


def account_balance_get(*, account: Account) -> int:
    """Chips in `account`: the sum of its credits minus the sum of its debits."""
    result = Entry.objects.filter(account=account).aggregate(
        balance=Coalesce(Sum(SIGNED_AMOUNT), Value(0))
    )
    return int(result["balance"])


def place_balance_get(
    *, kind: AccountKind, place: str, gaming_session_id: int, other_than_place: str | None = None
) -> int:
    """The balance of the `kind` account of `place` in a gaming session, signed as every balance
    (`account_balance_get`). With `other_than_place`: only what was booked elsewhere (the
    transactions of other places)."""
    entries = Entry.objects.filter(
        account__kind=kind, account__place=place, account__gaming_session_id=gaming_session_id
    )
    if other_than_place is not None:
        entries = entries.exclude(transaction__place=other_than_place)
    result = entries.aggregate(balance=Coalesce(Sum(SIGNED_AMOUNT), Value(0)))
    return int(result["balance"])


def player_balances_at_place(*, kind: AccountKind, place: str) -> list[tuple[str, int]]:
    """Each player's balance in his `kind` account at `place` (his reliquat at a table session,
    say), by member number; signed as every balance (`account_balance_get`)."""
    rows = (
        Entry.objects.filter(account__kind=kind, account__place=place)
        .values_list("account__player__member_number")
        .annotate(balance=Coalesce(Sum(SIGNED_AMOUNT), Value(0)))
        .order_by("account__player__member_number")
    )
    return [(str(code), int(balance)) for code, balance in rows]


def unbalanced_transaction_list() -> QuerySet[Transaction]:
    """Transactions whose entries do not sum to zero: always empty unless the books were tampered
    with outside `ledger.services.post` on a database without the zero-sum trigger (the auditor's
    full-ledger scan, docs/conventions.md P6)."""
    return (
        Transaction.objects.annotate(total=Coalesce(Sum(delta_expression()), Value(0)))
        .exclude(total=0)
        .order_by("pk")
    )


def delta_expression() -> Case:
    return Case(
        When(entries__side=Side.CREDIT, then=F("entries__amount")),
        default=-F("entries__amount"),
    )
