"""The zero-sum constraint trigger (PostgreSQL): checked at COMMIT, so these tests commit."""

from __future__ import annotations

import uuid

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from establishment.rows import chain_extend
from ledger.chain import LEDGER_CHAIN, transaction_content
from ledger.models import Account, Entry, Transaction
from tests.factories import GamingSessionFactory, PlayerFactory, TableFactory, UserFactory
from tests.ledger.accounts import cagnotte_account, player_position_account

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True, serialized_rollback=True),
]


def _raw_transaction(poster: User, legs: list[tuple[Account, str, int]]) -> None:
    """Insert a transaction and its entries with raw SQL, bypassing ledger.services.post (but
    in the books' chain, as it would be: ledger/chain.py)."""
    row = Transaction(
        public_id=uuid.uuid4(),
        idempotency_key=f"raw-{uuid.uuid4()}",
        posted_at=timezone.now(),
        posted_by=poster,
    )
    content = transaction_content(row, [(a.pk, side, amount, "") for a, side, amount in legs])
    ((position, hashed),) = chain_extend(LEDGER_CHAIN, [content])
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO ledger_transaction (public_id, idempotency_key, posted_at, posted_by_id,"
            " memo, chain_position, chain_hash) VALUES (%s, %s, %s, %s, '', %s, %s) RETURNING id",
            [row.public_id, row.idempotency_key, row.posted_at, poster.pk, position, hashed],
        )
        row = cursor.fetchone()
        assert row is not None
        for account, side, amount in legs:
            cursor.execute(
                "INSERT INTO ledger_entry (transaction_id, account_id, side, amount, reason)"
                " VALUES (%s, %s, %s, %s, '')",
                [row[0], account.pk, side, amount],
            )


@pytest.fixture
def accounts() -> tuple[User, Account, Account]:
    poster = UserFactory.create()
    gaming_session = GamingSessionFactory.create(opened_by=poster)
    return (
        poster,
        player_position_account(player=PlayerFactory.create(), gaming_session=gaming_session),
        cagnotte_account(table=TableFactory.create(), gaming_session=gaming_session),
    )


def test_an_unbalanced_transaction_is_refused_at_commit(
    accounts: tuple[User, Account, Account],
) -> None:
    poster, player, cagnotte = accounts
    seen_before_commit: list[int] = []

    def unbalanced_then_commit() -> None:
        with transaction.atomic():
            _raw_transaction(poster, [(player, "debit", 100), (cagnotte, "credit", 90)])
            # Inside the transaction the rows are there: the check is deferred to COMMIT.
            seen_before_commit.append(Entry.objects.count())

    with pytest.raises(IntegrityError, match="does not sum to zero"):
        unbalanced_then_commit()

    assert seen_before_commit == [2]

    assert not Transaction.objects.exists()
    assert not Entry.objects.exists()


def test_a_balanced_transaction_commits(accounts: tuple[User, Account, Account]) -> None:
    poster, player, cagnotte = accounts
    with transaction.atomic():
        _raw_transaction(poster, [(player, "debit", 100), (cagnotte, "credit", 100)])

    assert Entry.objects.count() == 2


def test_a_transaction_without_entries_is_refused_at_commit(
    accounts: tuple[User, Account, Account],
) -> None:
    poster, _player, _cagnotte = accounts
    with pytest.raises(IntegrityError, match="has no entries"), transaction.atomic():
        _raw_transaction(poster, [])

    assert not Transaction.objects.exists()
