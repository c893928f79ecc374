"""Two houses paid otherwise than by the cagnotte on the banker's win, end to end: the croupier
records at the console, the tables and the night close, the settlement report shows the levy by
model and the books agree with the replay (docs/rules/levy.md, LV-1 to LV-6).

- a UK club (SI 2007/1945 regs. 2–3): pontoon on a participation fee of 300 pence a player a
  day from midday; nothing levied on the play; the report lists what was charged to whom and
  when, and the club keeps no cagnotte book (no model 11);
- a card room: chemin de fer on a fixed fee per hand of 20 from each ponte who staked (LV-2).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client
from django.urls import reverse

from establishment.models import Player
from establishment.roles import Role
from establishment.services import gaming_session_open
from reports.models import Register, SettlementReport
from reports.registers.store import journee_standing
from tables.console.vocabulary import SESSION_TYPES
from tables.models import AssignmentRole, LevyCharge, TableSession
from tables.selectors import player_position_get
from tables.services import (
    gaming_session_close,
    staff_assign,
    table_create,
    table_session_close,
    table_session_open,
)

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}

UK_PONTOON = {
    "chip_unit": 10,
    "min_stake": 10,
    "max_stake": 500,
    "cagnotte_rate_bp": 0,
    "levy_model": "participation_fee",
    "fee_maximum": 300,
    "fee_amount": 300,
    "fee_day_start_hour": 12,
}
CARD_ROOM_CF = {
    "decks": 3,
    "chip_unit": 10,
    "min_bank": 100,
    "min_stake": 10,
    "cagnotte_rate_bp": 0,
    "levy_model": "coup_fee",
    "fee_amount": 20,
}

# docs/rules/pontoon.md, as tests/scenarios/pontoon/LV-3-participation-fee-no-levy.json: the
# banker's 18 beats 16 and 17; S2 and S3 lose 300 and 400 to him.
PONTOON_COUP: list[tuple[str, dict[str, Any]]] = [
    ("set_first_banker", {"actor": "croupier", "seat": 1}),
    ("start_coup", {"actor": "croupier"}),
    ("deal_card", {"actor": "croupier", "to": 2, "rank": "10"}),
    ("deal_card", {"actor": "croupier", "to": 3, "rank": "9"}),
    ("deal_card", {"actor": "croupier", "to": 1, "rank": "10"}),
    ("stake", {"actor": "2", "amount": 300}),
    ("stake", {"actor": "3", "amount": 400}),
    ("deal_card", {"actor": "croupier", "to": 2, "rank": "6"}),
    ("deal_card", {"actor": "croupier", "to": 3, "rank": "8"}),
    ("deal_card", {"actor": "croupier", "to": 1, "rank": "8"}),
    ("stick", {"actor": "2"}),
    ("stick", {"actor": "3"}),
    ("banker_stand", {"actor": "1"}),
]
# As tests/scenarios/chemin_de_fer/LV-2-coup-fee-pontes.json: S2 and S3 stake 300 and 200 and
# win; each pays the fee of 20.
CF_COUP: list[tuple[str, dict[str, Any]]] = [
    ("new_shoe", {"actor": "croupier", "cut_by": 1}),
    ("announce_bank", {"actor": "1", "amount": 500}),
    ("banco_call", {"actor": "croupier"}),
    ("stake", {"actor": "2", "amount": 300}),
    ("stake", {"actor": "3", "amount": 200}),
    ("close_bets", {"actor": "croupier"}),
    ("deal", {"actor": "croupier", "ponte": ["7", "K"], "banker": ["2", "4"]}),
    ("ponte_draw", {"actor": "2"}),
    ("ponte_third_card", {"actor": "croupier", "rank": "2"}),
    ("banker_draw", {"actor": "1", "rank": "K"}),
]


def _staff(username: str, role: Role) -> User:
    user = User.objects.create_user(username=username, password="password")
    user.groups.add(Group.objects.get_or_create(name=role)[0])
    return user


def _screen_fields(body: str) -> dict[str, Any]:
    meta = body[body.index('id="screen-meta"') :]
    return dict(re.findall(r'name="(\w+)" value="([^"]*)"', meta[: meta.index("</div>")]))


def _console_play(client: Client, table_session: TableSession, steps: list[Any]) -> None:
    """Each action as the croupier's screen posts it, after reading the screen."""
    url = reverse("console:table", kwargs={"table_session": table_session.public_id})
    record = reverse("console:record", kwargs={"table_session": table_session.public_id})
    # Sitting down, leaving, naming the first banker are in the seats-and-session panel, drawn
    # when it is opened.
    panel = reverse("console:session-controls", kwargs={"table_session": table_session.public_id})
    for action_type, params in steps:
        body = client.get(url).content.decode()
        offered = (
            client.get(panel, headers=HX).content.decode() if action_type in SESSION_TYPES else body
        )
        assert f'data-type="{action_type}"' in offered, f"{action_type} is not offered"
        response = client.post(
            record, {**_screen_fields(body), "type": action_type, **params}, headers=HX
        )
        assert response.status_code == 200, (action_type, response.content.decode()[:500])


def _house(game: str, settings: dict[str, Any], seats: dict[int, str]) -> dict[str, Any]:
    manager = _staff("manager", Role.MANAGER)
    croupier = _staff("croupier", Role.CROUPIER)
    for code in {*seats.values(), "S4"}:
        Player.objects.get_or_create(member_number=code, defaults={"name": f"Player {code}"})
    night = gaming_session_open(opened_by=manager)
    table = table_create(number=1, game=game, settings=settings, created_by=manager)
    seance = table_session_open(table=table, gaming_session=night, opened_by=manager, seats=seats)
    staff_assign(
        table_session=seance, staff=croupier, role=AssignmentRole.CROUPIER, assigned_by=manager
    )
    client = Client()
    client.force_login(croupier)
    return {"manager": manager, "night": night, "seance": seance, "croupier": client}


def _close_and_report(house: dict[str, Any], capture: Callable[..., Any]) -> dict[str, Any]:
    """The inspector's close of the table and the manager's of the night, the report built by
    the worker once the night's close commits; the report's page as the manager reads it."""
    with capture(execute=True):
        table_session_close(table_session=house["seance"], user=house["manager"])
        gaming_session_close(gaming_session=house["night"], user=house["manager"])
    report = SettlementReport.objects.get(gaming_session=house["night"])
    reader = Client()
    reader.force_login(house["manager"])
    page = reader.get(reverse("reports:detail", kwargs={"public_id": report.public_id}))
    assert page.status_code == 200
    return {"content": json.loads(report.content), "page": page.content.decode()}


def test_lv6_a_uk_club_runs_pontoon_on_a_participation_fee_console_to_report(
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    house = _house("pontoon", UK_PONTOON, {1: "S1", 2: "S2", 3: "S3"})
    _console_play(house["croupier"], house["seance"], PONTOON_COUP)
    # A fourth member sits down between two coups: he owes the day's fee at once; he leaves
    # and comes back the same day and is never charged twice (LV-3).
    _console_play(
        house["croupier"],
        house["seance"],
        [
            ("sit", {"actor": "croupier", "seat": 4, "player": "S4"}),
            ("leave", {"actor": "croupier", "seat": 4}),
            ("sit", {"actor": "croupier", "seat": 4, "player": "S4"}),
        ],
    )
    assert LevyCharge.objects.filter(player__member_number="S4").count() == 1

    report = _close_and_report(house, django_capture_on_commit_callbacks)
    content, page = report["content"], report["page"]

    (table,) = content["tables"]
    assert content["reconciliation"]["differences"] == []
    assert table["levy_model"] == "participation_fee"
    assert table["levy"] == {"participation_fee": 1200}  # nothing levied on the play
    assert [(f["player"], f["model"], f["amount"]) for f in table["fees"]] == [
        ("S1", "participation_fee", 300),
        ("S2", "participation_fee", 300),
        ("S3", "participation_fee", 300),
        ("S4", "participation_fee", 300),
    ]
    assert all(f["from"] and f["until"] and f["charged_at"] for f in table["fees"])
    assert content["levy"]["by_model"] == {"participation_fee": 1200}
    assert [f["player"] for f in content["levy"]["fees"]] == ["S1", "S2", "S3", "S4"]
    # Each player's result carries his fee: the banker won 700 and paid 300.
    results = {p["player"]: p["total"] for p in content["players"]}
    assert results == {"S1": 400, "S2": -600, "S3": -700, "S4": -300}
    assert (
        player_position_get(
            player=Player.objects.get(member_number="S4"), gaming_session=house["night"]
        )
        == -300
    )
    assert table["cagnotte_expected"] == 1200
    assert content["cagnotte"] == [{"table": 1, "expected": 1200, "booked": 1200}]
    # On the manager's screen: the levy in the table's words, who paid what and when.
    assert "300 a player a day from 12:00" in page
    assert 'data-testid="report-fees"' in page
    assert "Participation fee" in page
    assert "Cagnotte book" not in page  # a UK club keeps none
    # And no model 11 is ever asked of its séance, nor shown as awaited on the registers' page.
    assert journee_standing(journee=house["seance"].journee) == []
    assert not Register.objects.exists()
    reader = Client()
    reader.force_login(house["manager"])
    registers = reader.get(reverse("registers:index")).content.decode()
    assert "being prepared" not in registers
    assert "<td>0 / 0" in registers
    assert LevyCharge.objects.count() == 4


def test_lv2_a_card_room_runs_chemin_de_fer_on_a_fee_per_hand_console_to_report(
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    seats = {n: f"S{n}" for n in range(1, 7)}
    house = _house("chemin_de_fer", CARD_ROOM_CF, seats)
    _console_play(house["croupier"], house["seance"], CF_COUP)
    # The bank was lost whole: the hand passes (CF-6.3), and the next player takes it.
    _console_play(house["croupier"], house["seance"], [("accept_bank", {"actor": "2"})])

    report = _close_and_report(house, django_capture_on_commit_callbacks)
    content, page = report["content"], report["page"]

    (table,) = content["tables"]
    assert content["reconciliation"]["differences"] == []
    assert table["levy_model"] == "coup_fee"
    assert table["levy"] == {"coup_fee": 40}
    assert table["fees"] == []  # a coup's fee is the coup's, not the seating's
    assert table["cagnotte_expected"] == 40
    assert content["cagnotte"] == [{"table": 1, "expected": 40, "booked": 40}]
    assert content["levy"]["by_model"] == {"coup_fee": 40}
    results = {p["player"]: p["total"] for p in content["players"] if p["total"]}
    assert results == {"S1": -500, "S2": 280, "S3": 180}
    assert "20 a coup from each ponte" in page
    assert "Fee per coup 40" in page
    assert not LevyCharge.objects.exists()
