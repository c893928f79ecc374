"""The count of a séance's box (model 11, art. 70; docs/registers.md): certified by the
director's own password before a witness who gives hers, and its difference booked — a surplus
added to the levy, a shortfall borne by the casino's cash — without touching the night's
accounts, so that the report read back from the books is still the one signed."""

from __future__ import annotations

import json

import pytest

from establishment.roles import Role
from ledger.models import Account, AccountKind, Entry, Transaction
from reports.counting import cagnotte_count_record
from reports.models import SettlementReport
from reports.services import reconciliation_rerun
from tables.models import Table, TableSession
from tables.postings import count_place
from tests.factories import UserFactory
from tests.ledger.test_settlement import Night

pytestmark = pytest.mark.django_db


def _balance(kind: str, place: str) -> int:
    account = Account.objects.filter(kind=kind, place=place).first()
    if account is None:
        return 0
    total = 0
    for entry in Entry.objects.filter(account=account):
        total += entry.amount if entry.side == "credit" else -entry.amount
    return total


def test_a_surplus_and_a_shortfall_are_booked_and_the_report_still_agrees(
    settled: tuple[Night, SettlementReport],
) -> None:
    night, report = settled
    tables = json.loads(report.content)["tables"]
    witness = UserFactory.create(roles=[Role.INSPECTOR])
    assert len(tables) >= 2
    first, second = tables[0], tables[1]
    before = Transaction.objects.count()
    for row, counted in ((first, first["cagnotte_expected"] + 30), (second, 0)):
        count = cagnotte_count_record(
            report=report,
            table=Table.objects.get(number=row["table"]),
            counted_chips=counted,
            counted_by=night.manager,
            password="password",
            witness=witness,
            witness_password="password",
        )
        assert count.table_session == TableSession.objects.get(public_id=row["table_session"])
        assert count.posting == f"{count_place(row['table_session'])}:difference"
    assert Transaction.objects.count() == before + (2 if second["cagnotte_expected"] else 1)
    place = count_place(first["table_session"])
    assert _balance(AccountKind.LEVY_SURPLUS, place) == 30  # added to the levy
    assert _balance(AccountKind.COUNT_DIFFERENCE, place) == -30
    if second["cagnotte_expected"]:
        shortfall = second["cagnotte_expected"]
        assert _balance(AccountKind.HOUSE_CASH, "house") == -shortfall  # borne by the cash
        assert _balance(AccountKind.COUNT_DIFFERENCE, count_place(second["table_session"])) == (
            shortfall
        )
    # The night's accounts are untouched: the report read back from the books is the same.
    run = reconciliation_rerun(report=report, user=UserFactory.create(roles=[Role.AUDITOR]))
    assert (run.agrees, run.same_content) == (True, True)


def test_an_exact_count_books_nothing(settled: tuple[Night, SettlementReport]) -> None:
    night, report = settled
    row = json.loads(report.content)["tables"][0]
    before = Transaction.objects.count()
    count = cagnotte_count_record(
        report=report,
        table=Table.objects.get(number=row["table"]),
        counted_chips=row["cagnotte_expected"],
        counted_by=night.manager,
        password="password",
        witness=UserFactory.create(roles=[Role.AUDITOR]),
        witness_password="password",
    )
    assert count.posting == ""
    assert Transaction.objects.count() == before
