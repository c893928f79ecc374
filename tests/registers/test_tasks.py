"""Model 11 built by a Celery task (docs/registers.md, "Common to every register"; issue 14): the
count stores the count and books its difference, and only once it has committed is
`reports.freeze_model11` sent; the task stores and signs model 11 once however often it runs
(the count's row locked on PostgreSQL, checked from threads with a control); the sweep sends it
again for a count left without it; the screens say « Modèle 11 en préparation… » and poll until
it is there; model 12 is refused while a model 11 is being prepared, and signs what its signer
read (`expected_sha256`)."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import timedelta
from functools import partial
from typing import Any

import pytest
from celery import current_app
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from establishment.models import AuditEntry, Player
from establishment.roles import Role
from reports.counting import cagnotte_count_record
from reports.models import CountedCagnotte, Register, RegisterSignature, SettlementReport
from reports.registers import store
from reports.registers.store import (
    RegisterRefusedError,
    counts_without_model11,
    journee_sign,
    journee_standing,
    model11_freeze,
    model12_draft,
    register_rectify,
)
from reports.registers.verify import registers_verify
from reports.tasks import freeze_model11, registers_sweep
from tables.models import Table, TableSession
from tests.concurrency.threads import slowed, together
from tests.factories import UserFactory
from tests.ledger.test_settlement import Night
from tests.registers.test_registers import _count_all, _journee

pytestmark = pytest.mark.django_db

Capture = Callable[..., Any]


def _count(night: Night, report: SettlementReport, row: dict[str, Any]) -> CountedCagnotte:
    return cagnotte_count_record(
        report=report,
        table=Table.objects.get(number=row["table"]),
        counted_chips=row["cagnotte_expected"],
        counted_by=night.manager,
        password="password",
        witness=UserFactory.create(roles=[Role.INSPECTOR]),
        witness_password="password",
    )


def _counted_not_frozen(
    night: Night, report: SettlementReport, capture: Capture
) -> tuple[list[CountedCagnotte], list[Callable[[], Any]]]:
    """Every table counted, the tasks their commits send held back (a worker not there yet)."""
    counts, sent = [], []
    for row in json.loads(report.content)["tables"]:
        with capture(execute=False) as callbacks:
            counts.append(_count(night, report, row))
        sent.extend(callbacks)
    return counts, sent


def test_the_count_sends_model_11_to_a_task_after_its_commit(
    settled: tuple[Night, SettlementReport],
    django_capture_on_commit_callbacks: Capture,
) -> None:
    night, report = settled
    row = json.loads(report.content)["tables"][0]
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        count = _count(night, report, row)
        # The count and its audit row are written; model 11 is not, in the count's transaction.
        assert CountedCagnotte.objects.filter(pk=count.pk).exists()
        assert not Register.objects.exists()
    assert not Register.objects.exists()  # nothing until the commit's callbacks run
    assert [c.func.__self__.name for c in callbacks] == ["reports.freeze_model11"]
    assert [c.args for c in callbacks] == [(count.pk,)]
    callbacks[0]()
    register = Register.objects.get(kind="model_11")
    assert register.key == row["table_session"]
    assert register.table_session_id == count.table_session_id
    signature = RegisterSignature.objects.get(register=register)
    # Signed by the director who certified the count, at the moment he certified it.
    assert signature.signed_by == night.manager
    assert (signature.signed_as, signature.signed_sha256) == ("certified", register.sha256)
    assert signature.signed_at == count.counted_at
    assert registers_verify() == []


def test_the_task_stores_and_signs_model_11_once(
    settled: tuple[Night, SettlementReport],
    django_capture_on_commit_callbacks: Capture,
) -> None:
    night, report = settled
    (count, *_others), _sent = _counted_not_frozen(
        night, report, django_capture_on_commit_callbacks
    )
    first = model11_freeze(count_id=count.pk)
    assert first is not None
    freeze_model11.apply(args=(count.pk,))  # a message delivered twice
    second = model11_freeze(count_id=count.pk)  # a no-op returning the stored register
    assert second is not None and second.pk == first.pk
    assert Register.objects.filter(kind="model_11").count() == 1
    assert RegisterSignature.objects.filter(register=first).count() == 1
    assert AuditEntry.objects.filter(action="register_signed").count() == 1
    assert model11_freeze(count_id=0) is None  # no such count: nothing


def test_the_sweep_sends_model_11_again_for_a_count_left_without_it(
    settled: tuple[Night, SettlementReport],
    django_capture_on_commit_callbacks: Capture,
    settings: Any,
) -> None:
    night, report = settled
    counts, _lost = _counted_not_frozen(night, report, django_capture_on_commit_callbacks)
    settings.SETTLEMENT_SWEEP_GRACE_SECONDS = 3600
    assert registers_sweep.apply().get() == 0  # within the grace period: its message may come
    later = timezone.now() + timedelta(hours=2)
    assert [c.pk for c in counts_without_model11(counted_before=later)] == [c.pk for c in counts]
    settings.SETTLEMENT_SWEEP_GRACE_SECONDS = 0
    assert registers_sweep.apply().get() == len(counts)  # sent again (run eagerly here)
    assert Register.objects.filter(kind="model_11").count() == len(counts)
    assert list(counts_without_model11(counted_before=later)) == []
    assert registers_sweep.apply().get() == 0
    assert registers_verify() == []


def test_the_screens_show_model_11_being_prepared_then_show_it(
    settled: tuple[Night, SettlementReport],
    django_capture_on_commit_callbacks: Capture,
) -> None:
    night, report = settled
    counts, sent = _counted_not_frozen(night, report, django_capture_on_commit_callbacks)
    day = _journee(report).isoformat()
    seance = str(counts[0].table_session.public_id)
    manager = Client()
    manager.force_login(night.manager)
    htmx = {"HX-Request": "true"}

    journee_progress = reverse("registers:journee-progress", args=[day])
    seance_progress = reverse("registers:seance-progress", args=[seance])
    page = manager.get(reverse("registers:journee", args=[day])).content.decode()
    assert "Model 11 being prepared…" in page
    assert f'hx-get="{journee_progress}"' in page and 'hx-trigger="every 1s"' in page
    assert 'data-testid="draft-sha256"' not in page  # nothing to sign yet
    index = manager.get(reverse("registers:index")).content.decode()
    assert f'hx-get="{journee_progress}?on=index"' in index
    assert f"0 / {len(counts)}" in index
    page = manager.get(reverse("registers:seance", args=[seance])).content.decode()
    assert f'hx-get="{seance_progress}"' in page and 'data-testid="model-11-preparing"' in page
    polled = manager.get(seance_progress, headers=htmx)
    assert polled.status_code == 200 and "HX-Redirect" not in polled
    assert 'hx-trigger="every 1s"' in polled.content.decode()
    assert 'hx-trigger="every 1s"' in manager.get(journee_progress, headers=htmx).content.decode()

    # The registre de contrôle is refused while a model 11 is being prepared, and says so.
    sign = reverse("registers:journee-sign", args=[day])
    refused = manager.post(sign, {"password": "password", "expected_sha256": ""})
    assert refused.status_code == 409
    assert "still being prepared" in refused.content.decode()
    with pytest.raises(RegisterRefusedError, match="still being prepared") as preparing:
        journee_sign(journee=_journee(report), user=night.manager, password="password")
    assert preparing.value.extra["preparing"] == sorted(c.table.number for c in counts)

    for callback in sent:  # the worker stores them
        callback()
    done = manager.get(seance_progress, headers=htmx)
    assert done["HX-Redirect"] == reverse("registers:seance", args=[seance])
    done = manager.get(journee_progress, headers=htmx)
    assert done["HX-Redirect"] == reverse("registers:journee", args=[day])
    done = manager.get(f"{journee_progress}?on=index", headers=htmx)
    assert done["HX-Redirect"] == reverse("registers:index")
    page = manager.get(reverse("registers:seance", args=[seance])).content.decode()
    assert 'data-testid="coups"' in page and "Model 11 being prepared" not in page
    page = manager.get(reverse("registers:journee", args=[day])).content.decode()
    assert "Model 11 being prepared" not in page and 'data-testid="draft-sha256"' in page
    with translation.override("fr"):
        assert translation.gettext("Model 11 being prepared…") == "Modèle 11 en préparation…"


def test_a_table_not_counted_is_told_apart_from_one_being_prepared(
    settled: tuple[Night, SettlementReport],
    django_capture_on_commit_callbacks: Capture,
) -> None:
    night, report = settled
    first = json.loads(report.content)["tables"][0]
    with django_capture_on_commit_callbacks(execute=False):
        _count(night, report, first)
    with pytest.raises(RegisterRefusedError, match="count every table") as refused:
        journee_sign(journee=_journee(report), user=night.manager, password="password")
    assert first["table"] not in refused.value.extra["tables"]
    states = {s.seance.table.number: s.state for s in journee_standing(journee=_journee(report))}
    assert states[first["table"]] == "preparing"
    assert set(states.values()) == {"preparing", "to_count"}


def test_model_12_signs_what_its_signer_read(
    settled: tuple[Night, SettlementReport],
) -> None:
    night, report = settled
    registers = _count_all(night, report)
    journee = _journee(report)
    draft = model12_draft(journee=journee, standing=journee_standing(journee=journee))
    assert draft is not None
    # A model 11 rectified between the reading and the signature: what would be stored differs.
    banker = json.loads(registers[0].content)["bankers"][0]["player"]
    Player.objects.filter(member_number=banker).update(surname="AUBERT", first_names="Anne")
    register_rectify(
        register=registers[0], reason="identity", user=night.manager, password="password"
    )
    audits = AuditEntry.objects.count()
    with pytest.raises(RegisterRefusedError, match="read it again") as stale:
        journee_sign(
            journee=journee,
            user=night.manager,
            password="password",
            expected_sha256=draft["sha256"],
        )
    assert stale.value.code == "conflict"
    assert not Register.objects.filter(kind="model_12").exists()  # nothing changed
    assert AuditEntry.objects.count() == audits
    again = model12_draft(journee=journee, standing=journee_standing(journee=journee))
    assert again is not None and again["sha256"] != draft["sha256"]
    model_12 = journee_sign(
        journee=journee, user=night.manager, password="password", expected_sha256=again["sha256"]
    )
    assert model_12.sha256 == again["sha256"]
    # The second signer signs the stored register: its SHA-256 must be the one he saw.
    other = UserFactory.create(roles=[Role.MANAGER])
    with pytest.raises(RegisterRefusedError, match="read it again"):
        journee_sign(
            journee=journee, user=other, password="password", expected_sha256=draft["sha256"]
        )
    assert model_12.signatures.count() == 1
    journee_sign(journee=journee, user=other, password="password", expected_sha256=model_12.sha256)
    assert model_12.signatures.count() == 2
    assert registers_verify() == []


def test_the_screen_refuses_a_signature_on_a_stale_registre(
    settled: tuple[Night, SettlementReport],
) -> None:
    night, report = settled
    _count_all(night, report)
    day = _journee(report).isoformat()
    manager = Client()
    manager.force_login(night.manager)
    sign = reverse("registers:journee-sign", args=[day])
    refused = manager.post(sign, {"password": "password", "expected_sha256": "0" * 64})
    assert refused.status_code == 409
    assert "read it again" in refused.content.decode()
    assert 'data-testid="draft-sha256"' in refused.content.decode()  # read it again, here
    # A form that says nothing of what it showed is refused too: the screen always says it.
    assert manager.post(sign, {"password": "password"}).status_code == 409
    assert not Register.objects.filter(kind="model_12").exists()


# -- PostgreSQL: two workers at once ----------------------------------------------------------


def _held_back(monkeypatch: pytest.MonkeyPatch) -> None:
    """The counts' commits send no task (a worker has not taken them yet)."""
    current_app.loader.import_default_modules()
    task = current_app.tasks["reports.freeze_model11"]
    monkeypatch.setattr(task, "delay", lambda *args, **kwargs: None)


def _counts_committed(
    settled: tuple[Night, SettlementReport], monkeypatch: pytest.MonkeyPatch
) -> list[CountedCagnotte]:
    night, report = settled
    _held_back(monkeypatch)
    counts = [_count(night, report, row) for row in json.loads(report.content)["tables"]]
    assert not Register.objects.exists()
    # Both freezes build at the same moment, and sign slowly: the window is wide open.
    monkeypatch.setattr(store, "model11_content", slowed(store.model11_content, 0.3))
    monkeypatch.setattr(store, "_sign", slowed(store._sign, 0.3))
    return counts


def _freezes(count_ids: list[int]) -> list[Any]:
    outcomes = together([partial(model11_freeze, count_id=pk) for pk in count_ids])
    connection.close()
    return outcomes


def _unlocked_count(count_id: int) -> CountedCagnotte | None:
    """The CONTROL's count: read without its row lock."""
    return (
        CountedCagnotte.objects.select_related("report", "counted_by", "table_session__table")
        .filter(pk=count_id)
        .first()
    )


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_two_workers_freezing_one_seance_store_one_model_11(
    settled: tuple[Night, SettlementReport], monkeypatch: pytest.MonkeyPatch
) -> None:
    count = _counts_committed(settled, monkeypatch)[0]
    outcomes = _freezes([count.pk] * 4)
    assert [o.error for o in outcomes] == [None] * 4
    assert len({o.value.pk for o in outcomes}) == 1  # the same register to every caller
    assert Register.objects.filter(kind="model_11").count() == 1
    assert RegisterSignature.objects.count() == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_control_without_the_counts_lock_a_second_worker_fails(
    settled: tuple[Night, SettlementReport], monkeypatch: pytest.MonkeyPatch
) -> None:
    count = _counts_committed(settled, monkeypatch)[0]
    monkeypatch.setattr(store, "_count_lock", _unlocked_count)
    outcomes = _freezes([count.pk] * 2)
    errors = [o.error for o in outcomes if o.error is not None]
    assert len(errors) == 1 and isinstance(errors[0], RegisterRefusedError), outcomes
    assert Register.objects.filter(kind="model_11").count() == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_two_seances_frozen_at_once_both_join_the_chain(
    settled: tuple[Night, SettlementReport], monkeypatch: pytest.MonkeyPatch
) -> None:
    counts = _counts_committed(settled, monkeypatch)
    outcomes = _freezes([c.pk for c in counts])
    assert [o.error for o in outcomes] == [None] * len(counts)
    chain = list(Register.objects.filter(kind="model_11").order_by("pk"))
    assert len(chain) == len(counts)
    assert [r.previous_sha256 for r in chain] == ["", *[r.sha256 for r in chain[:-1]]]
    assert registers_verify() == []


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_control_without_the_chains_lock_two_seances_follow_the_same_register(
    settled: tuple[Night, SettlementReport], monkeypatch: pytest.MonkeyPatch
) -> None:
    counts = _counts_committed(settled, monkeypatch)
    monkeypatch.setattr(store, "_chain_lock", lambda kind: None)
    outcomes = _freezes([c.pk for c in counts])
    errors = [o.error for o in outcomes if o.error is not None]
    assert len(errors) == len(counts) - 1, outcomes
    assert all(isinstance(e, RegisterRefusedError) for e in errors)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_in_the_embedded_mode_the_counts_answer_is_its_model_11(
    settled: tuple[Night, SettlementReport],
) -> None:
    """No broker: the task runs in-process as the count commits, before the answer."""
    from rest_framework.test import APIClient

    night, report = settled
    row = json.loads(report.content)["tables"][0]
    witness = UserFactory.create(roles=[Role.INSPECTOR])
    api = APIClient()
    api.force_authenticate(night.manager)
    body = {
        "table": row["table"],
        "counted_chips": row["cagnotte_expected"],
        "password": "password",
        "witness": witness.username,
        "witness_password": "password",
    }
    done = api.post(f"/api/settlement-reports/{report.public_id}/counts/", body, format="json")
    assert done.status_code == 201
    assert done.json()["kind"] == "model_11"
    assert done.json()["content"]["table_session"] == row["table_session"]
    assert TableSession.objects.get(public_id=row["table_session"]).registers.count() == 1
