from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, transaction
from hypothesis import given, strategies as st

from establishment.errors import ErrorCode
from ledger.models import Account, AccountKind, Entry, Side, Transaction
from ledger.selectors import account_balance_get, unbalanced_transaction_list
from ledger.services import (
    AlreadyReversedError,
    IdempotencyConflictError,
    LedgerError,
    Leg,
    UnbalancedTransactionError,
    account_get_or_create,
    legs_check,
    post,
    reverse,
)
from tests.factories import PlayerFactory
from tests.ledger.conftest import Books

pytestmark = pytest.mark.django_db


def _stake_lost(books: Books, key: str = "coup-1") -> Transaction:
    """Bob loses 100 to Alice (the banker), who pays a cagnotte of 5 (COM-6.4)."""
    return post(
        legs=[
            Leg.debit(books.bob, 100, "stake"),
            Leg.credit(books.alice, 100, "stake"),
            Leg.debit(books.alice, 5, "cagnotte"),
            Leg.credit(books.cagnotte, 5, "cagnotte"),
        ],
        idempotency_key=key,
        posted_by=books.poster,
        memo="coup 1",
        gaming_session=books.gaming_session,
    )


def test_post_books_a_balanced_transaction(books: Books) -> None:
    posted = _stake_lost(books)

    assert posted.entries.count() == 4
    assert posted.posted_by == books.poster
    assert account_balance_get(account=books.alice) == 95
    assert account_balance_get(account=books.bob) == -100
    assert account_balance_get(account=books.cagnotte) == 5
    assert not unbalanced_transaction_list().exists()


def test_python_check_refuses_an_unbalanced_transaction(books: Books) -> None:
    with pytest.raises(UnbalancedTransactionError) as caught:
        post(
            legs=[Leg.debit(books.bob, 100), Leg.credit(books.alice, 99)],
            idempotency_key="unbalanced",
            posted_by=books.poster,
        )

    assert caught.value.code == ErrorCode.LEDGER_UNBALANCED
    assert not Transaction.objects.exists()
    assert not Entry.objects.exists()


@pytest.mark.parametrize("amount", [0, -5, True, 2.5])
def test_python_check_refuses_amounts_that_are_not_positive_integers(
    books: Books, amount: object
) -> None:
    with pytest.raises(LedgerError) as caught:
        post(
            legs=[Leg.debit(books.bob, amount), Leg.credit(books.alice, amount)],  # type: ignore[arg-type]
            idempotency_key="bad-amount",
            posted_by=books.poster,
        )
    assert caught.value.code == ErrorCode.LEDGER_BAD_AMOUNT


def test_a_transaction_needs_entries(books: Books) -> None:
    with pytest.raises(LedgerError) as caught:
        post(legs=[], idempotency_key="empty", posted_by=books.poster)
    assert caught.value.code == ErrorCode.LEDGER_EMPTY


def test_posting_again_with_the_same_key_returns_the_first_transaction(books: Books) -> None:
    first = _stake_lost(books)
    again = _stake_lost(books)

    assert again.pk == first.pk
    assert Transaction.objects.count() == 1
    assert account_balance_get(account=books.bob) == -100


def test_the_same_key_for_different_entries_is_a_conflict(books: Books) -> None:
    _stake_lost(books)
    with pytest.raises(IdempotencyConflictError):
        post(
            legs=[Leg.debit(books.bob, 50), Leg.credit(books.alice, 50)],
            idempotency_key="coup-1",
            posted_by=books.poster,
        )


def test_a_key_the_caller_keeps_unique_posts_without_savepoints_and_a_repeat_undoes_all(
    books: Books,
) -> None:
    """The recording service's postings (`key_unique_by_caller`): no savepoint statements; a
    repeated key (a bug, under the table's lock) raises and leaves the transaction to undo."""
    from django.test.utils import CaptureQueriesContext

    legs = [Leg.debit(books.bob, 100, "stake"), Leg.credit(books.alice, 100, "stake")]
    with CaptureQueriesContext(connection) as captured:
        post(legs=legs, idempotency_key="k", posted_by=books.poster, key_unique_by_caller=True)
    sent = [q["sql"].split()[0].upper() for q in captured.captured_queries]
    assert "SAVEPOINT" not in sent and "RELEASE" not in sent
    # The transaction (appended to the books' chain: a `WITH` on PostgreSQL) and its entries.
    assert len(sent) == 2 and sent[-1] == "INSERT"
    with pytest.raises(IntegrityError), transaction.atomic():
        post(legs=legs, idempotency_key="k", posted_by=books.poster, key_unique_by_caller=True)
    assert Transaction.objects.filter(idempotency_key="k").count() == 1


def test_reverse_posts_the_mirror_and_links_it(books: Books) -> None:
    original = _stake_lost(books)

    reversal = reverse(original=original, posted_by=books.poster)

    assert reversal.reverses == original
    assert original.entries.count() == 4  # untouched
    for account in (books.alice, books.bob, books.cagnotte):
        assert account_balance_get(account=account) == 0
    assert reverse(original=original, posted_by=books.poster).pk == reversal.pk  # idempotent


def test_a_transaction_is_reversed_once_and_a_reversal_is_not_reversed(books: Books) -> None:
    original = _stake_lost(books)
    reversal = reverse(original=original, posted_by=books.poster)

    with pytest.raises(AlreadyReversedError):
        reverse(original=original, posted_by=books.poster, idempotency_key="second-reversal")
    with pytest.raises(AlreadyReversedError):
        reverse(original=reversal, posted_by=books.poster)


def test_accounts_are_created_once_per_identity(books: Books) -> None:
    again = account_get_or_create(
        kind=AccountKind.PLAYER_POSITION,
        player=books.alice.player,
        gaming_session=books.gaming_session,
    )
    assert again.pk == books.alice.pk


def test_an_account_needs_exactly_its_identifying_fields(books: Books) -> None:
    with pytest.raises(LedgerError) as caught:
        account_get_or_create(kind=AccountKind.PLAYER_POSITION, player=PlayerFactory.create())
    assert caught.value.code == ErrorCode.LEDGER_BAD_ACCOUNT


def test_the_database_refuses_a_malformed_account(books: Books) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        Account.objects.create(kind=AccountKind.CAGNOTTE, player=PlayerFactory.create())


def test_the_database_refuses_a_non_positive_amount(books: Books) -> None:
    posted = _stake_lost(books)
    with pytest.raises(IntegrityError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO ledger_entry (transaction_id, account_id, side, amount, reason)"
            " VALUES (%s, %s, 'debit', 0, '')",
            [posted.pk, books.bob.pk],
        )


_side = st.sampled_from([Side.DEBIT, Side.CREDIT])
_amounts = st.lists(st.integers(min_value=1, max_value=10**12), min_size=1, max_size=8)


@given(debits=_amounts, credits=_amounts)
def test_legs_check_accepts_exactly_the_balanced_sets(
    debits: list[int], credits: list[int]
) -> None:
    account = Account(pk=1, kind=AccountKind.BANK_IN_PLAY)
    legs = [Leg.debit(account, amount) for amount in debits] + [
        Leg.credit(account, amount) for amount in credits
    ]
    if sum(debits) == sum(credits):
        legs_check(legs)
    else:
        with pytest.raises(UnbalancedTransactionError):
            legs_check(legs)


@given(amounts=_amounts)
def test_a_mirror_of_balanced_legs_is_balanced(amounts: list[int]) -> None:
    account = Account(pk=1, kind=AccountKind.BANK_IN_PLAY)
    legs = [Leg.debit(account, amount) for amount in amounts] + [Leg.credit(account, sum(amounts))]
    mirror = [
        Leg(leg.account, Side.CREDIT if leg.side == Side.DEBIT else Side.DEBIT, leg.amount_chips)
        for leg in legs
    ]
    legs_check(legs)
    legs_check(mirror)
