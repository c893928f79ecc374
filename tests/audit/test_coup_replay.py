"""A coup replayed on the auditor's desk (reports/audit/coup.py): a real night recorded through
the API — an undo, a refused void, an approved void and the coup recorded again — read back on
the screen and through the API: every journal line with who, when and from where and the
table's state after it, the engine's transfers against the books (a mark where they differ),
the corrections, the sabot's counts; the finder by table and time; who may read it."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone, translation
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from establishment.house import house_settings_current, zone
from establishment.roles import Role
from ledger.models import Account, AccountKind
from ledger.services import Leg, post
from reports.audit.coup import coup_at, coup_replay_get
from reports.models import SettlementReport
from tables.models import Coup, EventKind, TableEvent
from tables.postings import posting_base, posting_key, table_session_place
from tables.services import gaming_session_close, table_session_close
from tests.api.fixtures import OpenTable, open_table
from tests.api.test_play import COUP, play, post as api_post
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

# The second coup: P1 keeps his bank of 1 950 (CF-6.2), P3 goes banco and loses to a natural 8.
SECOND: list[dict[str, Any]] = [
    {"type": "continue_bank", "actor": 1, "reliquat": 0},
    {"type": "announce_bank", "actor": 1, "amount": 1950},
    {"type": "banco_call", "actor": "croupier", "claims": [{"player": 3, "kind": "banco"}]},
    {"type": "deal", "actor": "croupier", "ponte": ["6", "K"], "banker": ["8", "K"]},
    {"type": "ponte_stand", "actor": 3},
    {"type": "banker_show_natural", "actor": 1},
]
# The same coup recorded again once voided (the first record had the wrong cards).
AGAIN: list[dict[str, Any]] = [
    {"type": "announce_bank", "actor": 1, "amount": 1950},
    {"type": "banco_call", "actor": "croupier", "claims": [{"player": 3, "kind": "banco"}]},
    {"type": "deal", "actor": "croupier", "ponte": ["9", "K"], "banker": ["8", "K"]},
    {"type": "ponte_show_natural", "actor": 3},
]


def _undo(client: APIClient, table: OpenTable, reason: str) -> None:
    body = {"expected_seq": table.next_seq, "reason": reason}
    answer = api_post(client, f"{table.url}undo/", body, str(uuid.uuid4()))
    assert answer.status_code == 201, answer.json()


def _void(croupier: APIClient, inspector: APIClient, coup: Coup, approve: bool, why: str) -> None:
    asked = croupier.post(f"/api/coups/{coup.public_id}/void-request/", {"reason": why}, "json")
    assert asked.status_code == 201, asked.json()
    decided = inspector.post(
        f"/api/void-requests/{asked.json()['public_id']}/decide/",
        {"approve": approve, "password": "password", "note": "seen on camera"},
        format="json",
    )
    assert decided.status_code == 200, decided.json()


def client_for(user: Any) -> APIClient:
    """An API client sending `user`'s token, as a machine would."""
    token, _created = Token.objects.get_or_create(user=user)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


@pytest.fixture
def night() -> dict[str, Any]:
    table = open_table(number=7)
    croupier = client_for(table.croupier)
    inspector_user = UserFactory.create(roles=[Role.INSPECTOR])
    inspector = client_for(inspector_user)
    play(croupier, table, COUP[:2])
    _undo(croupier, table, "wrong amount")  # the bank announced again below
    play(croupier, table, COUP[1:])
    first = Coup.objects.get(table_session=table.table_session)
    _void(croupier, inspector, first, approve=False, why="the cards were fine")
    play(croupier, table, SECOND)
    second = Coup.objects.get(table_session=table.table_session, number=2)
    _void(croupier, inspector, second, approve=True, why="wrong cards")
    play(croupier, table, AGAIN)
    again = Coup.objects.exclude(pk=second.pk).get(table_session=table.table_session, number=2)
    return {
        "table": table,
        "first": first,
        "voided": second,
        "again": again,
        "inspector": inspector_user,
        "auditor": UserFactory.create(roles=[Role.AUDITOR]),
    }


def _events(ts: Any, kind: str) -> list[TableEvent]:
    return list(TableEvent.objects.filter(table_session=ts, kind=kind).order_by("seq"))


# -- the replay itself ------------------------------------------------------------------------


def test_every_line_of_the_coup_with_who_when_where_and_the_state(night: dict[str, Any]) -> None:
    table, first = night["table"], night["first"]
    replay = coup_replay_get(public_id=first.public_id)
    assert replay is not None
    undo = _events(table.table_session, EventKind.UNDO)[0]
    undone = undo.sets_aside[0]
    seqs = [e.seq for e in replay.events]
    # The undone announce and its undo come before the coup's first effective action.
    assert seqs == [undone, undo.seq, *range(first.first_seq, first.settled_seq + 1)]
    stored = {e.seq: e for e in TableEvent.objects.filter(table_session=table.table_session)}
    for line in replay.events:
        assert line.recorded_by == stored[line.seq].recorded_by.get_username()
        assert line.recorded_at == stored[line.seq].recorded_at
        assert line.client == stored[line.seq].client and line.client
    by_seq = {e.seq: e for e in replay.events}
    assert by_seq[undone].set_aside_by == undo.seq
    assert by_seq[undone].state.bank == 1000 and by_seq[undone].state.phase == "banco_call"
    # The undo brought the table back to where the bank is announced.
    assert by_seq[undo.seq].state.phase == "bank_pending" and by_seq[undo.seq].state.bank is None
    deal = next(e for e in replay.events if e.action.get("type") == "deal")
    assert deal.state.stakes == [{"player": "P2", "who": "Player P2 (P2)", "amount": 1000}]
    assert [h["cards"] for h in deal.state.hands] == [["5", "K"], ["8", "A"]]
    assert deal.state.cards_left == 6 * 52 - 4
    settled = by_seq[first.settled_seq].state
    assert settled.coups_played == 1 and settled.bank == 1950 and settled.banker == "P1"


def test_the_actions_are_in_the_tables_words_in_both_languages(night: dict[str, Any]) -> None:
    first = night["first"]
    with translation.override("fr"):
        replay = coup_replay_get(public_id=first.public_id)
    assert replay is not None
    banco = next(e for e in replay.events if e.action.get("type") == "banco_call")
    assert banco.words.startswith("Banco")  # chemin_de_fer.action.banco_call, the table's word
    assert banco.words == "Banco (claims [2 · Player P2 banco])"
    announce = next(e for e in replay.events if e.action.get("type") == "announce_bank")
    assert "1\u202f000" in announce.words and "1 · Player P1" in announce.words
    assert replay.events[-1].state.phase_label != "bank decision"  # from the catalogue
    with translation.override("en"):
        english = coup_replay_get(public_id=first.public_id)
    assert english is not None and english.events[-1].state.phase_label


def test_the_transfers_equal_the_books_and_the_corrections_are_listed(
    night: dict[str, Any],
) -> None:
    first = night["first"]
    replay = coup_replay_get(public_id=first.public_id)
    assert replay is not None
    assert replay.books.agrees
    lines = {(line.side, line.owner, line.amount, line.reason) for line in replay.books.lines}
    assert lines == {
        ("debit", "P2", 1000, "stake_lost"),
        ("credit", "P1", 1000, "stake_lost"),
        ("debit", "P1", 50, "cagnotte"),
        ("credit", "cagnotte", 50, "cagnotte"),
    }
    assert all(line.replayed == line.booked == 1 for line in replay.books.lines)
    assert [c.kind for c in replay.corrections] == ["undo"]
    assert replay.corrections[0].reason == "wrong amount"
    [refused] = replay.void_requests
    assert refused.approved is False and refused.reason == "the cards were fine"
    assert refused.decided_by == night["inspector"].username
    assert replay.sabot is not None
    assert (replay.sabot.number, replay.sabot.decks) == (1, 6)
    assert (replay.sabot.dealt_before, replay.sabot.dealt_in_coup) == (0, 4)
    assert (replay.sabot.dealt, replay.sabot.left) == (4, 6 * 52 - 4)


def test_a_voided_coup_shows_its_void_and_its_own_books(night: dict[str, Any]) -> None:
    voided, again = night["voided"], night["again"]
    replay = coup_replay_get(public_id=voided.public_id)
    assert replay is not None and replay.voided
    void = _events(night["table"].table_session, EventKind.VOID)[0]
    assert replay.events[-1].seq == void.seq
    assert all(
        e.set_aside_by == void.seq
        for e in replay.events
        if first_seq_le(voided, e.seq) and e.kind == "action"
    )
    assert [c.kind for c in replay.corrections] == ["void"]
    assert replay.void_requests[0].approved is True
    assert replay.void_requests[0].event_seq == void.seq
    # Its money as recorded then (P3 lost 1 950), each transaction reversed by the void.
    assert replay.books.agrees
    assert ("debit", "P3", 1950) in {(x.side, x.owner, x.amount) for x in replay.books.lines}
    assert all(t.reversed_by for t in replay.books.transactions)
    # The coup recorded again in its place has its own money (P1 lost to P3's natural 9).
    again_replay = coup_replay_get(public_id=again.public_id)
    assert again_replay is not None and not again_replay.voided and again_replay.books.agrees
    owners = {(x.side, x.owner, x.amount) for x in again_replay.books.lines}
    assert ("debit", "P1", 1950) in owners and ("debit", "P3", 1950) not in owners
    assert all(not t.reversed_by for t in again_replay.books.transactions)
    assert again_replay.previous is not None and again_replay.previous.public_id == str(
        voided.public_id
    )


def first_seq_le(coup: Coup, seq: int) -> bool:
    return coup.first_seq <= seq <= coup.settled_seq


def test_books_made_to_differ_are_marked(night: dict[str, Any]) -> None:
    """An extra transaction named after the coup, posted through the ledger's service: the
    books now hold more than the engine replays."""
    table, first = night["table"], night["first"]
    ts = table.table_session
    accounts = {
        getattr(a.player, "member_number", ""): a
        for a in Account.objects.filter(
            kind=AccountKind.PLAYER_POSITION, gaming_session=ts.gaming_session
        ).select_related("player")
    }
    post(
        legs=[
            Leg.debit(accounts["P2"], 10, "stake_lost"),
            Leg.credit(accounts["P1"], 10, "stake_lost"),
        ],
        idempotency_key=posting_key(posting_base(ts.public_id, first.settled_seq), "coup:1:x"),
        posted_by=table.manager,
        memo="a hand-made entry",
        gaming_session=ts.gaming_session,
        place=table_session_place(ts.public_id),
    )
    replay = coup_replay_get(public_id=first.public_id)
    assert replay is not None and not replay.books.agrees
    marked = [
        (x.side, x.owner, x.amount, x.replayed, x.booked) for x in replay.books.lines if x.differs
    ]
    assert marked == [("debit", "P2", 10, 0, 1), ("credit", "P1", 10, 0, 1)]
    assert [t.in_journal for t in replay.books.transactions] == [True, False]

    page = _screen(night["auditor"]).get(f"/audit/coups/{first.public_id}/")
    html = page.content.decode()
    assert page.status_code == 200
    assert 'data-testid="books-differ"' in html and html.count('data-testid="differs"') == 2


# -- the screen and the API -------------------------------------------------------------------


def _screen(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_page_shows_each_line_the_books_and_the_correction(
    night: dict[str, Any], tmp_path: Path
) -> None:
    first = night["first"]
    page = _screen(night["auditor"]).get(f"/audit/coups/{first.public_id}/")
    assert page.status_code == 200
    html = page.content.decode()
    (tmp_path / "coup-replay.html").write_text(html, encoding="utf-8")  # to look at
    replay = coup_replay_get(public_id=first.public_id)
    assert replay is not None
    house = zone(house_settings_current().time_zone)
    for line in replay.events:
        assert f'data-seq="{line.seq}"' in html
        assert line.recorded_at.astimezone(house).strftime("%H:%M:%S") in html
    assert night["table"].croupier.username in html
    assert 'data-testid="books-agree"' in html and 'data-testid="differs"' not in html
    assert "wrong amount" in html and "the cards were fine" in html
    assert 'data-testid="coup-next"' in html and 'data-testid="coup-previous"' not in html
    assert re.search(r"Table 7, coup 1", html)


def test_the_page_speaks_french(night: dict[str, Any]) -> None:
    page = _screen(night["auditor"]).get(
        f"/audit/coups/{night['first'].public_id}/", headers={"accept-language": "fr"}
    )
    html = page.content.decode()
    assert page.status_code == 200
    assert "Table 7, coup 1" in html and "Le journal, ligne par ligne" in html
    assert "Les livres portent exactement" in html and "Réglé à" in html


def test_the_api_answers_the_same(night: dict[str, Any]) -> None:
    first = night["first"]
    answer = client_for(night["auditor"]).get(f"/api/audit/coups/{first.public_id}/")
    assert answer.status_code == 200, answer.content
    body = answer.json()
    replay = coup_replay_get(public_id=first.public_id)
    assert replay is not None
    assert [e["seq"] for e in body["events"]] == [e.seq for e in replay.events]
    assert [e["recorded_by"] for e in body["events"]] == [e.recorded_by for e in replay.events]
    assert all(e["client"] and e["recorded_at"] for e in body["events"])
    assert body["events"][-1]["state"]["bank"] == 1950
    assert body["books"]["agrees"] is True
    assert all(not line["differs"] for line in body["books"]["lines"])
    assert body["corrections"][0]["kind"] == "undo"
    assert body["void_requests"][0]["approved"] is False
    assert body["sabot"]["left"] == 6 * 52 - 4
    assert body["next"]["public_id"] == str(night["voided"].public_id)


def test_a_croupier_is_refused_and_an_unknown_coup_is_not_found(night: dict[str, Any]) -> None:
    first, croupier = night["first"], night["table"].croupier
    assert _screen(croupier).get(f"/audit/coups/{first.public_id}/").status_code == 403
    refused = client_for(croupier).get(f"/api/audit/coups/{first.public_id}/")
    assert refused.status_code == 403 and refused.json()["code"] == "permission_denied"
    unknown = uuid.uuid4()
    assert _screen(night["auditor"]).get(f"/audit/coups/{unknown}/").status_code == 404
    missing = client_for(night["auditor"]).get(f"/api/audit/coups/{unknown}/")
    assert missing.status_code == 404 and missing.json()["code"] == "not_found"
    manager = client_for(night["table"].manager).get(f"/api/audit/coups/{first.public_id}/")
    assert manager.status_code == 200


# -- the finder -------------------------------------------------------------------------------


def _house_text(moment: datetime) -> str:
    house = zone(house_settings_current().time_zone)
    return moment.astimezone(house).strftime("%Y-%m-%dT%H:%M:%S")


def test_the_finder_goes_to_the_coup_in_play_or_the_next(night: dict[str, Any]) -> None:
    first, voided = night["first"], night["voided"]
    screen = _screen(night["auditor"])
    in_play = TableEvent.objects.get(table_session=first.table_session, seq=first.first_seq)
    # A moment while the first coup was played (to the second): its page.
    moment = in_play.recorded_at.replace(microsecond=0)
    found = screen.get("/audit/coups/", {"table": "7", "at": _house_text(moment)})
    assert found.status_code == 302 and found["Location"] == f"/audit/coups/{first.public_id}/"
    # Before the table opened: the first coup after that moment.
    early = first.table_session.opened_at - timedelta(hours=1)
    nearest = screen.get("/audit/coups/", {"table": "7", "at": _house_text(early)})
    assert nearest["Location"] == f"/audit/coups/{first.public_id}/"
    # Just after the first coup was settled: the next one (the one voided since).
    assert coup_at(table=7, moment=first.settled_at + timedelta(microseconds=1)) == voided
    none = screen.get(
        "/audit/coups/", {"table": "7", "at": _house_text(timezone.now() + timedelta(hours=2))}
    )
    assert none.status_code == 404 and "No coup was in play at table 7" in none.content.decode()
    other = screen.get("/audit/coups/", {"table": "99", "at": _house_text(moment)})
    assert other.status_code == 404


def test_the_finder_says_what_is_wrong(night: dict[str, Any]) -> None:
    screen = _screen(night["auditor"])
    bad = screen.get("/audit/coups/", {"table": "seven", "at": "tonight"})
    html = bad.content.decode()
    assert bad.status_code == 400
    assert "Enter the table&#x27;s number as a whole number" in html
    assert "Enter the moment as a date and a time" in html
    french = screen.get("/audit/coups/", {"table": "", "at": ""}, headers={"accept-language": "fr"})
    assert (
        french.status_code == 400 and "Saisissez le numéro de la table" in french.content.decode()
    )


# -- from the settlement report ---------------------------------------------------------------


def test_each_coup_of_the_settlement_report_links_to_its_replay(
    night: dict[str, Any], django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    table = night["table"]
    # P3 won the bank's coup: the hand passes to seat 2, who takes it (CF-6.3); then close.
    play(client_for(table.croupier), table, [{"type": "accept_bank", "actor": 2}])
    with django_capture_on_commit_callbacks(execute=True):
        table_session_close(table_session=table.table_session, user=table.manager)
        gaming_session_close(gaming_session=table.gaming_session, user=table.manager)
    report = SettlementReport.objects.get(gaming_session=table.gaming_session)
    page = _screen(night["auditor"]).get(f"/reports/{report.public_id}/")
    html = page.content.decode()
    assert page.status_code == 200
    for coup in (night["first"], night["voided"], night["again"]):
        assert f'href="/audit/coups/{coup.public_id}/"' in html
