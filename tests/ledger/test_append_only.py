"""Ledger rows are append-only (docs/conventions.md, invariant 3): refused by the models,
by their querysets, and by the database triggers, on SQLite and PostgreSQL alike."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, models, transaction

from ledger.models import Entry, LedgerImmutableError, Transaction
from ledger.services import Leg, post
from tests.ledger.conftest import Books

pytestmark = pytest.mark.django_db


@pytest.fixture
def posted(books: Books) -> Transaction:
    return post(
        legs=[Leg.debit(books.bob, 100), Leg.credit(books.alice, 100)],
        idempotency_key="coup-1",
        posted_by=books.poster,
    )


def test_orm_save_of_an_entry_is_refused(posted: Transaction) -> None:
    entry = posted.entries.first()
    assert entry is not None
    entry.amount = 1
    with pytest.raises(LedgerImmutableError):
        entry.save()


def test_orm_delete_of_an_entry_is_refused(posted: Transaction) -> None:
    entry = posted.entries.first()
    assert entry is not None
    with pytest.raises(LedgerImmutableError):
        entry.delete()


def test_orm_save_and_delete_of_a_transaction_are_refused(posted: Transaction) -> None:
    posted.memo = "changed"
    with pytest.raises(LedgerImmutableError):
        posted.save()
    with pytest.raises(LedgerImmutableError):
        posted.delete()


@pytest.mark.parametrize("model", [Entry, Transaction])
def test_queryset_update_and_delete_are_refused(
    posted: Transaction, model: type[models.Model]
) -> None:
    with pytest.raises(LedgerImmutableError):
        model._default_manager.all().update(pk=0)
    with pytest.raises(LedgerImmutableError):
        model._default_manager.all().delete()


def test_the_trigger_refuses_an_orm_update_that_bypasses_the_model(posted: Transaction) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        models.QuerySet.update(Entry.objects.filter(transaction=posted), amount=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        models.QuerySet.update(Transaction.objects.filter(pk=posted.pk), memo="changed")


def test_the_trigger_refuses_an_orm_delete_that_bypasses_the_model(posted: Transaction) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        models.QuerySet.delete(Entry.objects.filter(transaction=posted))


@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE ledger_entry SET amount = amount + 1",
        "DELETE FROM ledger_entry",
        "UPDATE ledger_transaction SET memo = 'changed'",
        "DELETE FROM ledger_transaction",
    ],
)
def test_raw_sql_update_and_delete_are_refused(posted: Transaction, sql: str) -> None:
    with pytest.raises(IntegrityError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql)

    assert Entry.objects.filter(transaction=posted).count() == 2
    assert Transaction.objects.get(pk=posted.pk).memo == ""
