"""The registers on screen, as PDF and CSV (docs/registers.md, "Outputs"): for any journée,
séance or month, from the manager's and the auditor's navigation; signing on screen asks for
the signer's own password."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from establishment.roles import Role
from reports.models import Register, SettlementReport
from tests.factories import UserFactory
from tests.ledger.test_settlement import Night
from tests.registers.test_registers import _count_all, _journee

pytestmark = pytest.mark.django_db


def read_sha(page: str) -> str:
    """The SHA-256 the journée's signing form posts: the register its signer was shown."""
    found = re.search(r'name="expected_sha256" value="([0-9a-f]*)"', page)
    assert found, "the signing form says what it showed"
    return found.group(1)


def test_the_manager_signs_the_journee_on_screen_and_prints_it(
    settled: tuple[Night, SettlementReport],
) -> None:
    night, report = settled
    registers = _count_all(night, report)
    day = _journee(report).isoformat()
    manager = Client()
    manager.force_login(night.manager)
    index = manager.get(reverse("registers:index")).content.decode()
    assert reverse("registers:journee", args=[day]) in index
    assert f"{len(registers)} / {len(registers)}" in index  # every model 11 frozen
    page = manager.get(reverse("registers:journee", args=[day])).content.decode()
    assert "Sign the registre de contrôle" in page
    draft = read_sha(page)
    assert f'data-testid="draft-sha256">{draft}<' in page  # shown to the signer
    sign = reverse("registers:journee-sign", args=[day])
    refused = manager.post(sign, {"password": "not mine", "expected_sha256": draft})
    assert refused.status_code == 403
    assert 'data-testid="problem"' in refused.content.decode()
    assert not Register.objects.filter(kind="model_12").exists()
    assert manager.post(sign, {"password": "password", "expected_sha256": draft}).status_code == 302
    assert Register.objects.get(kind="model_12").sha256 == draft  # he signed what he read
    second = Client()
    second.force_login(UserFactory.create(roles=[Role.MANAGER]))
    shown = read_sha(second.get(reverse("registers:journee", args=[day])).content.decode())
    assert shown == draft
    assert second.post(sign, {"password": "password", "expected_sha256": shown}).status_code == 302
    signed = manager.get(reverse("registers:journee", args=[day])).content.decode()
    assert signed.count('data-testid="signature"') == 2
    assert 'data-testid="total-in-words"' in signed
    model_12 = Register.objects.get(kind="model_12")
    pdf = manager.get(reverse("registers:file", args=[model_12.public_id, "pdf"]))
    assert pdf["Content-Type"] == "application/pdf"
    assert pdf.content.startswith(b"%PDF")
    csv_file = manager.get(reverse("registers:file", args=[model_12.public_id, "csv"]))
    first_line = csv_file.content.decode().splitlines()[0]
    assert model_12.sha256 in first_line
    assert (
        manager.get(reverse("registers:file", args=[model_12.public_id, "txt"])).status_code == 404
    )


def test_the_auditor_reads_every_register_and_signs_none(
    settled: tuple[Night, SettlementReport],
) -> None:
    night, report = settled
    registers = _count_all(night, report)
    auditor = Client()
    auditor.force_login(UserFactory.create(roles=[Role.AUDITOR]))
    seance = json.loads(registers[0].content)["table_session"]
    page = auditor.get(reverse("registers:seance", args=[seance])).content.decode()
    assert 'data-testid="coups"' in page and "Rectify" not in page
    pdf = auditor.get(reverse("registers:file", args=[registers[0].public_id, "pdf"]))
    assert pdf.content.startswith(b"%PDF")
    month = _journee(report).strftime("%Y-%m")
    assert auditor.get(reverse("registers:month", args=[month])).status_code == 200
    day = _journee(report).isoformat()
    refused = auditor.post(reverse("registers:journee-sign", args=[day]), {"password": "password"})
    assert refused.status_code == 403
    croupier = Client()
    croupier.force_login(UserFactory.create(roles=[Role.CROUPIER]))
    assert croupier.get(reverse("registers:index")).status_code == 403
