"""The statistical audit (docs/odds.md, "The audit"): recorded coups against the games' odds.

The coups are recorded through the recording service by the simulator's own strategies
(`tests/reports/odds_play.py`): fair tables dealt from shuffled shoes, and a table whose croupier
records the pontes' card of the banker's rank every coup (a doublet, LM-4.6: the banker wins far
too often). The audit must flag that one and not the fair ones.
"""

from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from establishment.models import GamingSession
from establishment.roles import Role
from establishment.services import gaming_session_open
from reports.odds.audit import ALPHA, MIN_COUPS, Audit, Row
from reports.odds.expected import coup_expected
from reports.odds.files import audit_csv, audit_records
from reports.odds.replay import coups_replayed
from reports.odds.selectors import odds_audit_get
from tables.engine import Action
from tables.engine.simulate.exact import LEVIED_MEASURES
from tables.engine.simulate.measures import Tallies
from tables.engine.simulate.runner import GAME_RUNS, table_settings
from tables.models import TableEvent
from tests.factories import UserFactory
from tests.reports.odds_play import RecordedTable, play, recorded_table

pytestmark = pytest.mark.django_db

GAMES = list(GAME_RUNS)


def doublet_rig(state: Any, action: Action) -> Action:
    """The croupier records the pontes' card of the banker's rank (LM-4.6) whenever he can."""
    coup = state.coup
    if action.type != "turn_card" or coup is None or coup.banker_card is None:
        return action
    if coup.pontes_card is None and state.pack.left_of(coup.banker_card) > 0:
        return Action("turn_card", action.actor, {"rank": coup.banker_card})
    return action


@dataclass
class Night:
    gaming_session: GamingSession
    manager: User

    def table(self, game: str, croupier: User, seed: int, prefix: str, **kw: Any) -> RecordedTable:
        return recorded_table(
            game=game,
            gaming_session=self.gaming_session,
            manager=self.manager,
            croupier=croupier,
            seed=seed,
            prefix=prefix,
            **kw,
        )


@pytest.fixture
def night() -> Night:
    manager = UserFactory.create(roles=[Role.MANAGER])
    return Night(gaming_session_open(opened_by=manager), manager)


def croupier(name: str) -> User:
    return UserFactory.create(username=name, roles=[Role.CROUPIER])


def row_of(audit: Audit, label: str) -> Row:
    return next(row for row in audit.rows if row.group.label == label)


def flagged(row: Row) -> set[str]:
    return {cell.measure for cell in row.cells if cell.flagged}


@pytest.fixture
def fair_and_drifting(night: Night) -> dict[str, Any]:
    """A night at two lansquenet moderne tables, a pack re-formed before every coup: table A
    fair (croupier `alice`), table B with the doublet rig (croupier `bruno`), 40 coups each."""
    fair = night.table("lansquenet_moderne", croupier("alice"), 11, "FA", fresh=True)
    rigged = night.table("lansquenet_moderne", croupier("bruno"), 12, "DR", fresh=True)
    rigged.rig = doublet_rig
    play(fair, 40)
    play(rigged, 40)
    return {
        "fair": f"Table {fair.table_session.table.number}",
        "rigged": f"Table {rigged.table_session.table.number}",
    }


# -- the expected values ----------------------------------------------------------------------


@pytest.mark.parametrize("decks", [1, 2, 3, 6])
def test_the_doublet_is_expected_at_4n_minus_1_over_52n_minus_1(decks: int) -> None:
    settings = table_settings("lansquenet_moderne", {"decks": decks}, 4)
    found = coup_expected(
        "lansquenet_moderne", settings, (("param", "bank", 100), ("param", "stays", 0))
    )
    assert found["doublet"].value == Fraction(4 * decks - 1, 52 * decks - 1)
    assert (
        found["banker_wins"].value
        == Fraction(4 * decks - 1, 52 * decks - 1)
        + (1 - Fraction(4 * decks - 1, 52 * decks - 1)) / 2
    )


def test_the_levy_follows_the_stake_of_the_coup() -> None:
    """CF at a bank of 130: 5 % rounded down is 6 chips (docs/odds.md, "The cagnotte")."""
    settings = table_settings("chemin_de_fer", None, 4)
    found = coup_expected("chemin_de_fer", settings, (("param", "bank", 130),))
    wins = found["banker_wins"].value
    assert found["cagnotte_per_unit_staked"].value == wins * Fraction(6, 130)


MONEY = {"banker_result_per_unit_staked", "cagnotte_per_unit_staked"}
COUP_FEE = {"cagnotte_rate_bp": 0, "levy_model": "coup_fee", "fee_amount": 10}


def test_the_money_measures_are_expected_for_the_levy_on_the_bankers_win_only() -> None:
    """docs/odds.md, "The cagnotte": at a table on another levy model (docs/rules/levy.md,
    LV-1) the frequencies keep their exact values; the money per unit staked has none."""
    conditions = (("param", "bank", 100),)
    default = coup_expected("chemin_de_fer", table_settings("chemin_de_fer", None, 4), conditions)
    fee = coup_expected("chemin_de_fer", table_settings("chemin_de_fer", COUP_FEE, 4), conditions)

    assert set(default) >= MONEY
    assert not MONEY & set(fee)
    assert set(fee) == set(default) - MONEY
    assert all(fee[name].value == default[name].value for name in fee)


def test_the_audit_shows_each_levy_model_apart(night: Night) -> None:
    play(night.table("chemin_de_fer", croupier("cora"), 21, "BW"), 40)
    play(night.table("chemin_de_fer", croupier("dora"), 22, "CF", settings=COUP_FEE), 40)

    audit = odds_audit_get(grouping="levy")

    by_levy = {row.group.key: row for row in audit.rows}
    assert set(by_levy) == {"banker_win", "coup_fee"}
    assert by_levy["banker_win"].group.label == "Share of the banker's win"
    assert by_levy["coup_fee"].group.label == "Fee per coup"
    assert by_levy["banker_win"].coups == by_levy["coup_fee"].coups == 40
    measured = {kind: {c.measure for c in row.cells} for kind, row in by_levy.items()}
    assert measured["banker_win"] >= MONEY
    assert not MONEY & measured["coup_fee"]
    assert "banker_wins" in measured["coup_fee"]


# -- the measures of the recorded coups are the simulator's ----------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_the_replay_measures_the_recorded_coups_as_the_simulator_does(
    night: Night, game: str
) -> None:
    table = night.table(game, croupier(f"c-{game}"), 5, f"{game[:3].upper()}")
    simulated = play(table, 25)
    events = TableEvent.objects.filter(table_session=table.table_session).order_by("seq")
    rows = events.values_list("seq", "kind", "action", "sets_aside", "recorded_at")
    replayed = Tallies(GAME_RUNS[game].measures)
    for coup in coups_replayed(table.table_session, rows):
        replayed.add(coup.observed)
    assert replayed.sums() == simulated.sums()
    assert simulated.by_name["banker_wins"].n == 25


# -- fair and drifting tables -----------------------------------------------------------------


def test_the_drifting_table_is_flagged_and_the_fair_one_is_not(
    fair_and_drifting: dict[str, Any],
) -> None:
    audit = odds_audit_get(grouping="table")
    fair, rigged = (
        row_of(audit, fair_and_drifting["fair"]),
        row_of(audit, fair_and_drifting["rigged"]),
    )
    assert fair.coups == rigged.coups == 40
    assert flagged(fair) == set()
    assert {"banker_wins", "pontes_win", "doublet"} <= flagged(rigged)
    banker = next(cell for cell in rigged.cells if cell.measure == "banker_wins")
    assert banker.expected == pytest.approx(float(Fraction(7, 103) + Fraction(48, 103)))
    assert banker.sd_source == "exact"
    assert banker.sd == pytest.approx(math.sqrt(banker.expected * (1 - banker.expected)))
    assert banker.z == pytest.approx(
        (banker.observed - banker.expected) / (banker.sd / math.sqrt(40))
    )
    assert banker.z is not None and banker.z > 3
    assert audit.tests == sum(len(row.cells) for row in audit.rows)
    assert audit.expected_false_flags == pytest.approx(audit.tests * 0.0027, rel=1e-3)
    assert audit.chance_of_a_false_flag == pytest.approx(1 - (1 - ALPHA) ** audit.tests)


def test_the_drifting_croupier_is_flagged(fair_and_drifting: dict[str, Any]) -> None:
    audit = odds_audit_get(grouping="croupier")
    by_key = {row.group.key: row for row in audit.rows}
    assert flagged(by_key["alice"]) == set()
    assert "banker_wins" in flagged(by_key["bruno"])


def test_groups_with_too_few_coups_are_skipped_and_said(night: Night) -> None:
    table = night.table("chemin_de_fer", croupier("carla"), 3, "SK")
    play(table, 12)
    audit = odds_audit_get(grouping="night")
    assert audit.rows == ()
    assert [row.coups for row in audit.skipped] == [12]
    assert audit.tests == 0 and audit.chance_of_a_false_flag == 0
    # The bankers of the same coups: each with fewer still.
    by_banker = odds_audit_get(grouping="banker")
    assert sum(row.coups for row in by_banker.skipped) == 12
    assert all(row.coups < MIN_COUPS for row in by_banker.skipped)


def test_the_period_and_the_game_choose_the_coups(fair_and_drifting: dict[str, Any]) -> None:
    journee = TableEvent.objects.first().table_session.journee  # type: ignore[union-attr]
    assert len(odds_audit_get(grouping="table", date_from=journee, date_to=journee).rows) == 2
    after = journee.replace(year=journee.year + 1)
    assert odds_audit_get(grouping="table", date_from=after).rows == ()
    assert odds_audit_get(grouping="table", game="pontoon").rows == ()


def test_the_audit_reads_a_fixed_number_of_queries(
    night: Night, django_assert_num_queries: Any
) -> None:
    play(night.table("landsknecht", croupier("dora"), 1, "Q1"), 3)
    with django_assert_num_queries(4):
        odds_audit_get(grouping="banker")
    play(night.table("landsknecht", croupier("emil"), 2, "Q2"), 3)
    play(night.table("chemin_de_fer", croupier("fred"), 3, "Q3"), 3)
    with django_assert_num_queries(4):
        odds_audit_get(grouping="banker")


# -- the screen, the CSV and the API ----------------------------------------------------------


def _reader(role: Role = Role.AUDITOR) -> Client:
    client = Client()
    client.force_login(UserFactory.create(roles=[role]))
    return client


def test_the_screen_shows_the_rows_the_funnel_and_the_flags(
    fair_and_drifting: dict[str, Any],
) -> None:
    answer = _reader().get("/odds/audit/", {"group": "table"})
    assert answer.status_code == 200
    html = answer.content.decode()
    assert "<svg" in html and 'data-testid="funnel"' in html
    assert 'data-testid="funnel-flagged"' in html
    assert html.count('data-testid="audit-row"') == 2
    assert 'data-testid="flagged"' in html and 'class="flagged"' in html
    assert fair_and_drifting["rigged"] in html and fair_and_drifting["fair"] in html
    assert "<script" not in html.split("</head>")[1]  # no inline script in the page's body
    # The auditor's navigation links it.
    assert 'href="/odds/audit/"' in html


def test_the_screen_speaks_french(fair_and_drifting: dict[str, Any]) -> None:
    client = _reader()
    answer = client.get("/odds/audit/", {"group": "table"}, headers={"accept-language": "fr"})
    assert "Grouper par" in answer.content.decode()


def test_the_csv_and_the_api_give_the_rows_of_the_screen(
    fair_and_drifting: dict[str, Any],
) -> None:
    params = {"group": "croupier"}
    audit = odds_audit_get(grouping="croupier")
    download = _reader().get("/odds/audit/rows.csv", params)
    assert download.status_code == 200
    assert download["Content-Type"].startswith("text/csv")
    assert download.content.decode() == audit_csv(audit)
    lines = list(csv.DictReader(io.StringIO(download.content.decode())))
    assert len(lines) == len(audit_records(audit)) == sum(len(r.cells) for r in audit.rows)

    api = APIClient()
    api.force_authenticate(UserFactory.create(roles=[Role.MANAGER]))
    body = api.get("/api/odds/audit/", params).json()
    assert body["tests"] == audit.tests and body["flags"] == audit.flags
    assert body["expected_false_flags"] == pytest.approx(audit.tests * ALPHA)
    assert [(r["group_key"], r["measure"], r["n"]) for r in body["rows"]] == [
        (line["group_key"], line["measure"], int(line["n"])) for line in lines
    ]
    for record, line in zip(body["rows"], lines, strict=True):
        # A cell with no spread (the rigged coups all take two cards) has no z and is flagged.
        if record["z"] is None:
            assert line["z"] == "" and record["flagged"]
        else:
            assert record["z"] == pytest.approx(float(line["z"]))
        assert record["flagged"] == (line["flagged"] == "true")
    assert any(r["flagged"] for r in body["rows"] if r["group_key"] == "bruno")


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"group": "dealer"}, "group"),
        ({"from": "2024-13-01"}, "from"),
        ({"to": "yesterday"}, "to"),
        ({"game": "poker"}, "game"),
    ],
)
def test_wrong_parameters_are_a_400_in_the_api_shape(params: dict[str, str], field: str) -> None:
    api = APIClient()
    api.force_authenticate(UserFactory.create(roles=[Role.AUDITOR]))
    answer = api.get("/api/odds/audit/", params)
    assert answer.status_code == 400
    body = answer.json()
    assert body["code"] == "invalid" and field in body["extra"]["fields"]
    screen = _reader().get("/odds/audit/", params)
    assert screen.status_code == 400 and 'data-testid="problem"' in screen.content.decode()
    assert _reader().get("/odds/audit/rows.csv", params).status_code == 400


def test_an_inverted_period_is_refused_as_a_rule() -> None:
    """Each date well formed, the period ending before it begins: what the schema cannot say,
    a 422 naming `to` in the API; the screen refuses it in place."""
    params = {"from": "2025-02-01", "to": "2025-01-01"}
    api = APIClient()
    api.force_authenticate(UserFactory.create(roles=[Role.AUDITOR]))
    answer = api.get("/api/odds/audit/", params)
    assert answer.status_code == 422
    assert answer.json()["code"] == "invalid_input" and "to" in answer.json()["extra"]["fields"]
    screen = _reader().get("/odds/audit/", params)
    assert screen.status_code == 400 and 'data-testid="problem"' in screen.content.decode()


def test_only_auditors_and_managers_read_it() -> None:
    api = APIClient()
    api.force_authenticate(UserFactory.create(roles=[Role.CROUPIER]))
    assert api.get("/api/odds/audit/").status_code == 403
    assert _reader(Role.CROUPIER).get("/odds/audit/").status_code == 403
    assert _reader(Role.MANAGER).get("/odds/audit/").status_code == 200


def test_the_nightly_reaudit_raises_an_alert_for_the_drifting_table(
    fair_and_drifting: dict[str, Any], night: Night
) -> None:
    from reports.audit.findings import odds_check
    from reports.audit.models import AlertKind

    alerts = odds_check(night.gaming_session)
    assert {a.kind for a in alerts} == {AlertKind.STATISTICAL_FLAG}
    assert {a.detail["where"] for a in alerts} == {fair_and_drifting["rigged"]}
    assert {"banker_wins", "doublet"} <= {a.detail["measure"] for a in alerts}
    assert all(a.detail["coups"] == 40 for a in alerts)
    assert odds_check(night.gaming_session) == alerts  # raised once


def test_pontoon_on_a_participation_fee_keeps_its_stored_frequencies() -> None:
    """Pontoon's expected values are a stored simulation (docs/odds.md) at the house's levy: a
    UK club's table on a participation fee (LV-6) plays the same cards, so its frequencies have
    the same expected values; its money measures have none."""
    uk = {"cagnotte_rate_bp": 0, "levy_model": "participation_fee", "fee_amount": 300}
    default = coup_expected("pontoon", table_settings("pontoon", None, 4), ())
    fee = coup_expected("pontoon", table_settings("pontoon", uk, 4), ())

    assert {"banker_wins", "pontoon", "five_card_trick"} <= set(fee)
    assert set(fee) == set(default) - LEVIED_MEASURES
    assert all(fee[name] == default[name] for name in fee)
