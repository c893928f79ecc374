"""Alerts that must be acknowledged, and the nightly re-audit that raises them (docs/audit.md):
a clean night raises nothing; a night whose books or stored report were changed behind the
application's back is named; too many corrections by one croupier, a table at an unusual pace
and a counted cagnotte short of the levies raise their alerts, once each; an alert is shown to
the roles it concerns until one of them acknowledges it with a reason, once, on screen and
through the API; the night's report lists them."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.core.management import call_command
from django.db.models import Count
from django.test import Client, TestCase
from django.utils import timezone
from rest_framework.test import APIClient

from establishment.models import AuditEntry
from establishment.roles import Role
from ledger.models import Entry
from reports.audit.alerts import alert_acknowledge, alert_raise, alerts_for
from reports.audit.models import Acknowledgement, Alert, AlertKind, Reaudit
from reports.audit.reaudit import reaudit_recent
from reports.audit.tasks import reaudit
from reports.counting import cagnotte_count_record
from reports.models import SettlementReport
from tables.models import Coup, Table, TableSession
from tables.services import void_decide, void_request
from tests.db_owner import tamper
from tests.factories import GamingSessionFactory, TableFactory, TableSessionFactory, UserFactory
from tests.ledger.test_settlement import close_night, play_night

pytestmark = pytest.mark.django_db
NIGHT = ("chemin_de_fer/examples/CF-X4.json", "pontoon/PT-6-1-session-bank-passes.json")


@pytest.fixture
def closed(django_capture_on_commit_callbacks: Callable[..., Any]) -> dict[str, Any]:
    night = play_night(NIGHT)
    run = next(iter(night.runs.values()))
    coup = Coup.objects.filter(table_session=run.table_session).last()
    assert coup is not None
    croupier = run.croupier
    asked = void_request(coup=coup, user=croupier, reason="wrong card")
    void_decide(request=asked, user=night.manager, approve=True, password="password")
    report = close_night(night, django_capture_on_commit_callbacks)
    return {"night": night, "report": report, "void": asked, "croupier": croupier}


def test_a_clean_night_raises_nothing(closed: dict[str, Any]) -> None:
    result = reaudit_recent(days=7)
    assert [run.gaming_session for run in result.nights] == [closed["night"].gaming_session]
    assert result.nights[0].books_agree and result.nights[0].same_report
    assert result.clean, result.alerts
    assert Alert.objects.count() == 0
    assert reaudit_recent(days=0).nights == []  # closed before the window: not read again


@pytest.mark.history_owner
def test_a_broken_chain_is_named(closed: dict[str, Any]) -> None:
    # An audit row's action changed behind the application's back: its hash no longer holds.
    first = AuditEntry.objects.order_by("chain_position").first()
    assert first is not None
    tamper("UPDATE establishment_auditentry SET action = 'nothing' WHERE id = %s", [first.pk])
    chains = [a for a in reaudit_recent(days=7).alerts if a.key.startswith("chain:")]
    assert [a.kind for a in chains] == [AlertKind.HASH_BROKEN]
    assert chains[0].detail["what"] == "establishment.audit"
    assert "changed" in chains[0].detail["problem"]


@pytest.mark.history_owner
def test_changed_books_are_named(closed: dict[str, Any]) -> None:
    # One debit and one credit of a coup's transaction raised alike: the books still balance,
    # and no longer say what the cards said.
    pair = (
        Entry.objects.filter(transaction__gaming_session=closed["night"].gaming_session)
        .values("transaction")
        .annotate(n=Count("pk"))
        .filter(n=2)
        .order_by("transaction")
        .first()
    )
    assert pair is not None
    # As the database owner, the append-only protections off (tests/db_owner.py).
    tamper(
        "UPDATE ledger_entry SET amount = amount + 10 WHERE transaction_id = %s",
        [pair["transaction"]],
    )
    result = reaudit_recent(days=7)
    kinds = {alert.kind for alert in result.alerts}
    assert AlertKind.BOOKS_DISAGREE in kinds
    assert AlertKind.HASH_BROKEN in kinds  # the report built again no longer has its hash
    run = Reaudit.objects.get()
    assert not run.books_agree and not run.same_report
    # Found again the next morning: the same alerts, none new.
    again = reaudit_recent(days=7)
    assert {a.pk for a in again.alerts} == {a.pk for a in result.alerts}
    assert Reaudit.objects.count() == 2


def test_a_changed_stored_report_is_named(closed: dict[str, Any]) -> None:
    report = closed["report"]
    SettlementReport.objects.filter(pk=report.pk).update(
        content=report.content.replace("1", "2", 1)
    )
    alerts = reaudit_recent(days=7).alerts
    assert [alert.kind for alert in alerts] == [AlertKind.HASH_BROKEN]
    assert "SHA-256" in alerts[0].detail["problem"]


def test_corrections_above_the_threshold(closed: dict[str, Any], settings: Any) -> None:
    settings.ALERT_CORRECTIONS_PER_NIGHT = 0
    alerts = reaudit_recent(days=7).alerts
    corrections = [a for a in alerts if a.kind == AlertKind.CORRECTIONS]
    assert len(corrections) == 1
    assert corrections[0].detail["person"] == closed["croupier"].get_username()
    assert corrections[0].detail["voids"] == 1
    settings.ALERT_CORRECTIONS_PER_NIGHT = 1
    assert not [a for a in reaudit_recent(days=7).alerts if a.kind == AlertKind.CORRECTIONS]


def test_a_cagnotte_shortfall(closed: dict[str, Any]) -> None:
    report, witness = closed["report"], UserFactory.create(roles=[Role.INSPECTOR])
    short = []
    for row in json.loads(report.content)["tables"]:
        missing = 5 if row["cagnotte_expected"] >= 5 else 0
        short += [row["table"]] if missing else []
        with TestCase.captureOnCommitCallbacks(execute=True):
            cagnotte_count_record(
                report=report,
                table=Table.objects.get(number=row["table"]),
                counted_chips=row["cagnotte_expected"] - missing,
                counted_by=closed["night"].manager,
                password="password",
                witness=witness,
                witness_password="password",
            )
    alerts = [a for a in reaudit_recent(days=7).alerts if a.kind == AlertKind.CAGNOTTE_SHORTFALL]
    assert short and sorted(a.table_number or 0 for a in alerts) == sorted(short)
    assert all(a.detail["difference"] == -5 for a in alerts)


def _seance(table: Any, opened: Any, hours: float, coups: int) -> TableSession:
    closed = opened + timedelta(hours=hours)
    manager = UserFactory.create(roles=[Role.MANAGER])
    night = GamingSessionFactory.create(
        opened_at=opened, opened_by=manager, closed_at=closed, closed_by=manager
    )
    seance = TableSessionFactory.create(table=table, gaming_session=night, opened_at=opened)
    seance.closed_at, seance.closed_by = closed, manager
    seance.save()
    Coup.objects.bulk_create(
        Coup(
            table_session=seance,
            number=n,
            outcome="banker_wins",
            first_seq=n,
            settled_seq=n,
            settled_at=opened,
        )
        for n in range(1, coups + 1)
    )
    return seance


def test_an_unusual_pace(settings: Any) -> None:
    from reports.audit.findings import pace_check

    table = TableFactory.create(number=21)
    start = timezone.now() - timedelta(days=10)
    for day in range(4):  # about 40 coups an hour, night after night
        _seance(table, start + timedelta(days=day), 2, 80 + day)
    quick = _seance(table, start + timedelta(days=5), 1, 130)
    alerts = pace_check(quick.gaming_session)
    assert [a.kind for a in alerts] == [AlertKind.ABNORMAL_PACE]
    assert alerts[0].detail == {"pace": 130.0, "usual": 40.8, "seances": 4}
    assert alerts[0].table_number == 21
    usual = _seance(table, start + timedelta(days=6), 1, 45)
    assert pace_check(usual.gaming_session) == []
    assert pace_check(quick.gaming_session) == [alerts[0]]  # raised once: the same row
    assert Alert.objects.count() == 1
    settings.ALERT_PACE_FACTOR_PERCENT = 400  # 130 is within four times the usual pace
    assert pace_check(quick.gaming_session) == []


def test_shown_to_the_roles_concerned_until_acknowledged() -> None:
    alert = alert_raise(AlertKind.CORRECTIONS, "corrections:x:ana", person="ana", undos=9)
    books = alert_raise(AlertKind.BOOKS_DISAGREE, "books:x", differences=[])
    inspector = UserFactory.create(roles=[Role.INSPECTOR])
    auditor = UserFactory.create(roles=[Role.AUDITOR])
    croupier = UserFactory.create(roles=[Role.CROUPIER])
    assert list(alerts_for(inspector)) == [alert]
    assert set(alerts_for(auditor)) == {alert, books}
    assert list(alerts_for(croupier)) == []
    with pytest.raises(Exception) as refused:
        alert_acknowledge(alert=books, user=inspector, reason="seen")
    assert getattr(refused.value, "code", "") == "permission_denied"
    for blank in ("", "   "):
        with pytest.raises(Exception) as wrong:
            alert_acknowledge(alert=alert, user=inspector, reason=blank)
        assert getattr(wrong.value, "code", "") == "invalid_input"
    assert not Acknowledgement.objects.exists()
    alert_acknowledge(alert=alert, user=inspector, reason="training night for ana")
    with pytest.raises(Exception) as twice:
        alert_acknowledge(alert=alert, user=auditor, reason="again")
    assert getattr(twice.value, "code", "") == "invalid_state"
    assert list(alerts_for(inspector)) == []
    assert list(alerts_for(auditor)) == [books]
    done = alerts_for(auditor, state="acknowledged").get()
    assert (done.acknowledgement.by, done.acknowledgement.reason) == (
        inspector,
        "training night for ana",
    )
    assert AuditEntry.objects.filter(action="alert_acknowledged", actor=inspector).count() == 1


def test_on_screen_with_the_banner() -> None:
    alert = alert_raise(AlertKind.BOOKS_DISAGREE, "books:y", differences=[{"kind": "x"}])
    manager = UserFactory.create(roles=[Role.MANAGER])
    client = Client()
    client.force_login(manager)
    home = client.get("/audit/alerts/")
    assert home.status_code == 200
    html = home.content.decode()
    assert 'data-testid="alerts-banner"' in html and "1 alert to acknowledge" in html
    assert "1 difference(s) between the tables replayed and the books." in html
    refused = client.post(f"/audit/alerts/{alert.public_id}/acknowledge/", {"reason": " "})
    assert refused.status_code == 422 and not Acknowledgement.objects.exists()
    done = client.post(f"/audit/alerts/{alert.public_id}/acknowledge/", {"reason": "re-run ok"})
    assert done.status_code == 302
    assert 'data-testid="alerts-banner"' not in client.get("/audit/alerts/").content.decode()
    french = client.get("/audit/alerts/?state=all", HTTP_ACCEPT_LANGUAGE="fr")
    assert "re-run ok" in french.content.decode()


def test_through_the_api() -> None:
    alert = alert_raise(AlertKind.HASH_BROKEN, "register:z", what="model 12", problem="sha")
    api = APIClient()
    api.force_authenticate(UserFactory.create(roles=[Role.AUDITOR]))
    listed = api.get("/api/alerts/").json()
    assert [a["public_id"] for a in listed] == [str(alert.public_id)]
    assert listed[0]["text"] == "model 12: sha"
    assert api.get("/api/alerts/", {"state": "closed"}).status_code == 400
    url = f"/api/alerts/{alert.public_id}/acknowledge/"
    assert api.post(url, {}, format="json").status_code == 400
    answer = api.post(url, {"reason": "rebuilt and signed again"}, format="json")
    assert answer.status_code == 200
    assert answer.json()["reason"] == "rebuilt and signed again"
    assert api.post(url, {"reason": "again"}, format="json").status_code == 409
    assert api.get("/api/alerts/").json() == []
    unknown = api.post("/api/alerts/00000000-0000-0000-0000-000000000000/acknowledge/", {})
    assert unknown.status_code == 404


def test_the_report_lists_the_nights_alerts(closed: dict[str, Any]) -> None:
    alert_raise(
        AlertKind.BOOKS_DISAGREE,
        "books:listed",
        gaming_session=closed["night"].gaming_session,
        differences=[],
    )
    client = Client()
    client.force_login(closed["night"].manager)
    page = client.get(f"/reports/{closed['report'].public_id}/").content.decode()
    assert 'id="alerts"' in page and "0 difference(s)" in page


def test_the_task_and_the_command(closed: dict[str, Any], capsys: Any) -> None:
    assert reaudit.delay().get() == 0
    call_command("reaudit", "--days", "7")
    assert "nothing found" in capsys.readouterr().out
    SettlementReport.objects.filter(pk=closed["report"].pk).update(sha256="0" * 64)
    with pytest.raises(SystemExit):
        call_command("reaudit")
    assert "ALERT hash_broken" in capsys.readouterr().out


def test_beat_runs_it_every_morning(settings: Any) -> None:
    entry = settings.CELERY_BEAT_SCHEDULE["nightly-reaudit"]
    assert entry["task"] == "audit.reaudit"
    assert entry["schedule"].hour == {settings.REAUDIT_HOUR}
