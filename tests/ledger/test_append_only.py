"""Ledger rows are append-only (docs/conventions.md, invariant 3): refused by the models,
by their querysets, by the database triggers (even to the owner), and on PostgreSQL run as the
application's role by its privileges too (docs/security.md)."""

from __future__ import annotations

import pytest
from django.db import models, transaction

from ledger.models import Entry, LedgerImmutableError, Transaction
from ledger.services import Leg, post
from tests.db_owner import history_refusal, refused_by_triggers
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


def test_the_database_refuses_an_orm_update_that_bypasses_the_model(posted: Transaction) -> None:
    with pytest.raises(history_refusal()), transaction.atomic():
        models.QuerySet.update(Entry.objects.filter(transaction=posted), amount=1)
    with pytest.raises(history_refusal()), transaction.atomic():
        models.QuerySet.update(Transaction.objects.filter(pk=posted.pk), memo="changed")


def test_the_database_refuses_an_orm_delete_that_bypasses_the_model(posted: Transaction) -> None:
    with pytest.raises(history_refusal()), transaction.atomic():
        models.QuerySet.delete(Entry.objects.filter(transaction=posted))


@pytest.mark.history_owner
@pytest.mark.parametrize(
    ("sql", "refused"),
    [
        ("UPDATE ledger_entry SET amount = amount + 1", "UPDATE on ledger_entry refused"),
        ("DELETE FROM ledger_entry", "DELETE on ledger_entry refused"),
        ("UPDATE ledger_transaction SET memo = 'changed'", "UPDATE on ledger_transaction refused"),
        ("DELETE FROM ledger_transaction", "DELETE on ledger_transaction refused"),
    ],
)
def test_the_triggers_refuse_raw_sql_update_and_delete_even_to_the_owner(
    posted: Transaction, sql: str, refused: str
) -> None:
    message = refused_by_triggers(sql)

    assert f"{refused}: the ledger is append-only; post a reversal instead" in message
    assert Entry.objects.filter(transaction=posted).count() == 2
    assert Transaction.objects.get(pk=posted.pk).memo == ""
