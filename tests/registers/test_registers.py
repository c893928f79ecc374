"""The registers signed, frozen and chained (docs/registers.md): model 11 frozen by the count's
certification, model 12 signed by two different managers each proving who he is, model 13
closed once the month is over; a rectification names what it corrects; `registers_verify`
passes on what the product wrote and names the place when a journal line, a ledger entry or a
stored register is altered behind its back (by the owner, the database's protections switched
off: tests/db_owner.py)."""

from __future__ import annotations

import json
from datetime import date, timedelta
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import transaction
from django.db.models import QuerySet
from django.test import TestCase
from django.utils import timezone

from establishment.confirmation import ConfirmationError
from establishment.errors import DomainError, ErrorCode
from establishment.models import Player
from establishment.roles import Role
from ledger.models import Entry
from reports.counting import cagnotte_count_record
from reports.models import Register, RegisterSignature, SettlementReport
from reports.registers.store import (
    RegisterRefusedError,
    journee_sign,
    month_close,
    register_rectify,
)
from reports.registers.verify import registers_verify
from tables.models import Table, TableEvent, TableSession
from tests.db_owner import history_refusal, tamper
from tests.factories import UserFactory
from tests.ledger.test_settlement import Night

pytestmark = pytest.mark.django_db


def _count_all(night: Night, report: SettlementReport, surplus: int = 0) -> list[Register]:
    """Every table counted, each count's on-commit callbacks run as its commit would run them
    (the task that freezes its model 11, eager here)."""
    witness = UserFactory.create(roles=[Role.INSPECTOR])
    for row in json.loads(report.content)["tables"]:
        with TestCase.captureOnCommitCallbacks(execute=True):
            cagnotte_count_record(
                report=report,
                table=Table.objects.get(number=row["table"]),
                counted_chips=row["cagnotte_expected"] + surplus,
                counted_by=night.manager,
                password="password",
                witness=witness,
                witness_password="password",
            )
    return list(Register.objects.filter(kind="model_11").order_by("pk"))


def _frozen_first(night: Night, report: SettlementReport) -> tuple[dict[str, Any], TableSession]:
    """Every table counted, each model 11 frozen: the first one's content and its séance."""
    target = json.loads(_count_all(night, report)[0].content)
    return target, TableSession.objects.get(public_id=target["table_session"])


def _journee(report: SettlementReport) -> date:
    return TableSession.objects.filter(gaming_session=report.gaming_session).first().journee  # type: ignore[union-attr]


def test_a_count_freezes_model_11_with_every_column(
    settled: tuple[Night, SettlementReport],
) -> None:
    night, report = settled
    tables = json.loads(report.content)["tables"]
    banker = tables[0]["bankers"][0]["player"]
    Player.objects.filter(member_number=banker).update(
        surname="AUBERT", first_names="Anne", birth_date=date(1970, 5, 2), birth_place="Lyon"
    )
    registers = _count_all(night, report, surplus=20)
    assert len(registers) == len(tables)
    first = json.loads(registers[0].content)
    entry = tables[0]
    assert first["table"] == entry["table"]
    assert first["journee"] == _journee(report).isoformat()
    assert (first["currency"], first["cents_per_chip"], first["seance"]) == ("EUR", 1, 1)
    assert [c["levy"] for c in first["coups"]] == [c["levy"] for c in entry["coups"]]
    assert {"time", "pot", "levy", "gain"} <= set(first["coups"][0])
    assert first["bankers"] and "result" in first["bankers"][0]
    # the register of bankers (art. 71): the banker's identity from the door
    assert first["bankers"][0]["identity"]["surname"] == "AUBERT"
    assert first["bankers"][0]["identity"]["birth_date"] == "1970-05-02"
    assert first["staff"] == entry["staff"]
    assert first["expected"] == entry["cagnotte_expected"]
    assert (first["counted"], first["kind"], first["carried"]) == (
        entry["cagnotte_expected"] + 20,
        "surplus",
        entry["cagnotte_expected"] + 20,
    )
    assert first["count"]["certified_by"] == night.manager.username
    # chained: each stored register carries the hash of the one before it
    assert registers[0].previous_sha256 == ""
    assert registers[1].previous_sha256 == registers[0].sha256
    signature = RegisterSignature.objects.get(register=registers[0])
    assert (signature.signed_by, signature.signed_sha256) == (night.manager, registers[0].sha256)
    assert registers_verify() == []


def test_model_12_takes_two_managers_and_model_13_the_month_over(
    settled: tuple[Night, SettlementReport], monkeypatch: pytest.MonkeyPatch
) -> None:
    night, report = settled
    journee = _journee(report)
    other = UserFactory.create(roles=[Role.MANAGER])
    with pytest.raises(RegisterRefusedError, match="count every table"):
        journee_sign(journee=journee, user=night.manager, password="password")
    registers = _count_all(night, report)
    with pytest.raises(ConfirmationError):
        journee_sign(journee=journee, user=night.manager, password="wrong")
    with pytest.raises(DomainError):  # an inspector does not sign it
        journee_sign(
            journee=journee, user=UserFactory.create(roles=[Role.INSPECTOR]), password="password"
        )
    model_12 = journee_sign(journee=journee, user=night.manager, password="password")
    with pytest.raises(RegisterRefusedError) as again:
        journee_sign(journee=journee, user=night.manager, password="password")
    assert again.value.code == ErrorCode.SECOND_PERSON_REQUIRED
    assert journee_sign(journee=journee, user=other, password="password") == model_12
    content = json.loads(model_12.content)
    total = sum(json.loads(r.content)["carried"] for r in registers)
    assert content["total"] == total
    assert content["seances"][0]["model_11"] in {r.sha256 for r in registers}
    assert content["total_in_words"]["fr"]
    with pytest.raises(RegisterRefusedError, match="signed by two already"):
        journee_sign(
            journee=journee, user=UserFactory.create(roles=[Role.MANAGER]), password="password"
        )

    month = journee.strftime("%Y-%m")
    with pytest.raises(RegisterRefusedError, match="not over"):
        month_close(month=month, user=night.manager, password="password")
    later = timezone.now() + timedelta(days=40)
    monkeypatch.setattr(timezone, "now", lambda: later)
    model_13 = month_close(month=month, user=night.manager, password="password")
    assert json.loads(model_13.content)["total"] == total
    assert json.loads(model_13.content)["journees"][0]["model_12"] == model_12.sha256
    with pytest.raises(RegisterRefusedError, match="closed already"):
        month_close(month=month, user=other, password="password")
    call_command("registers_verify")


@pytest.mark.history_owner
def test_registers_verify_names_a_journal_line_altered(
    settled: tuple[Night, SettlementReport],
) -> None:
    target, seance = _frozen_first(*settled)
    # a stake of the second coup changed in the journal, behind the product's back
    event = next(
        e
        for e in TableEvent.objects.filter(table_session=seance).order_by("seq")
        if e.action.get("type") == "stake"
    )
    tamper(
        "UPDATE tables_tableevent SET action = %s WHERE id = %s",
        [{**event.action, "amount": event.action["amount"] + 10}, event.pk],
    )
    problems = registers_verify()
    assert problems, "an altered journal must show"
    assert any(f"table {target['table']}, coup 2" == p.where for p in problems)
    with pytest.raises(CommandError):
        call_command("registers_verify")


@pytest.mark.history_owner
def test_registers_verify_names_a_ledger_entry_altered(
    settled: tuple[Night, SettlementReport],
) -> None:
    target, seance = _frozen_first(*settled)
    entry = Entry.objects.filter(transaction__place__endswith=str(seance.public_id)).first()
    assert entry is not None
    tamper("UPDATE ledger_entry SET amount = amount + 5 WHERE id = %s", [entry.pk])
    problems = registers_verify()
    table = f"table {target['table']}"
    assert any(table in p.register or p.where.startswith(table) for p in problems), problems


@pytest.mark.history_owner
def test_registers_verify_names_a_stored_register_altered_or_removed(
    settled: tuple[Night, SettlementReport],
) -> None:
    night, report = settled
    registers = _count_all(night, report)
    altered = json.loads(registers[0].content)
    altered["coups"][0]["levy"] += 100
    tamper(
        "UPDATE reports_register SET content = %s WHERE id = %s",
        [json.dumps(altered), registers[0].pk],
    )
    problems = registers_verify()
    assert problems[0].where == "sha256"
    assert "altered" in problems[0].what
    assert any("coups[0].levy" in p.where for p in problems)
    tamper("DELETE FROM reports_registersignature WHERE register_id = %s", [registers[0].pk])
    tamper("DELETE FROM reports_register WHERE id = %s", [registers[0].pk])
    problems = registers_verify()
    assert "chain breaks" in problems[0].what


def test_a_register_is_never_changed_and_a_rectification_names_the_old(
    settled: tuple[Night, SettlementReport],
) -> None:
    night, report = settled
    registers = _count_all(night, report)
    with pytest.raises(DomainError):
        registers[0].save()
    with pytest.raises(history_refusal()), transaction.atomic():  # the database refuses too
        QuerySet.update(Register.objects.all(), reason="x")
    with pytest.raises(RegisterRefusedError, match="nothing to rectify"):
        register_rectify(
            register=registers[0], reason="check", user=night.manager, password="password"
        )
