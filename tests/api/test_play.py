"""Recording through the API: idempotency, the error shapes and status codes, corrections."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from rest_framework.test import APIClient

from establishment.roles import Role
from ledger.models import Transaction
from tables.models import TableEvent
from tests.api.conftest import ClientFor, StaffMaker
from tests.api.fixtures import OpenTable, open_table

pytestmark = pytest.mark.django_db

# A chemin de fer coup (CF-4): P1 banks 1000, P2 goes banco, the banker shows a natural 9.
COUP: list[dict[str, Any]] = [
    {"type": "new_shoe", "actor": "croupier", "cut_by": 1},
    {"type": "announce_bank", "actor": 1, "amount": 1000},
    {"type": "banco_call", "actor": "croupier", "claims": [{"player": 2, "kind": "banco"}]},
    {"type": "deal", "actor": "croupier", "ponte": ["5", "K"], "banker": ["8", "A"]},
    {"type": "ponte_stand", "actor": 2},
    {"type": "banker_show_natural", "actor": 1},
]


def post(client: APIClient, url: str, body: Any, key: str | None = None, **headers: str) -> Any:
    if key is not None:
        headers["Idempotency-Key"] = key
    return client.post(url, body, format="json", headers=headers)


def play(client: APIClient, table: OpenTable, actions: list[dict[str, Any]]) -> None:
    for action in actions:
        answer = post(
            client,
            f"{table.url}record/",
            {"expected_seq": table.next_seq, "action": action},
            str(uuid.uuid4()),
        )
        assert answer.status_code == 201, answer.json()


def is_error(answer: Any, status: int, code: str) -> dict[str, Any]:
    assert answer.status_code == status, (answer.status_code, answer.content)
    assert answer["Content-Type"] == "application/json"
    body: dict[str, Any] = answer.json()
    assert set(body) == {"code", "message", "extra"}
    assert body["code"] == code, body
    assert isinstance(body["message"], str) and body["message"]
    assert isinstance(body["extra"], dict)
    return body


@pytest.fixture
def table() -> OpenTable:
    return open_table()


@pytest.fixture
def croupier(table: OpenTable, client_for: ClientFor) -> APIClient:
    return client_for(table.croupier)


# -- idempotency -----------------------------------------------------------------------------


def test_the_same_post_with_the_same_key_books_once_and_answers_the_same(
    table: OpenTable, croupier: APIClient
) -> None:
    play(croupier, table, COUP[:-1])
    body = {"expected_seq": table.next_seq, "action": COUP[-1]}
    events, transactions = TableEvent.objects.count(), Transaction.objects.count()

    first = post(croupier, f"{table.url}record/", body, "settle-1")
    again = post(croupier, f"{table.url}record/", body, "settle-1")

    assert first.status_code == again.status_code == 201
    assert first.json() == again.json()
    assert first.json()["outcome"]["coups"] == [1]
    assert "Idempotent-Replayed" not in first and again["Idempotent-Replayed"] == "true"
    assert TableEvent.objects.count() == events + 1
    assert Transaction.objects.count() == transactions + 1  # the coup's settlement, once


def test_the_same_key_with_another_action_is_refused(table: OpenTable, croupier: APIClient) -> None:
    seq = table.next_seq
    post(croupier, f"{table.url}record/", {"expected_seq": seq, "action": COUP[0]}, "k")
    other = {"type": "new_shoe", "actor": "croupier", "cut_by": 2}

    answer = post(croupier, f"{table.url}record/", {"expected_seq": seq, "action": other}, "k")

    is_error(answer, 409, "idempotency_conflict")
    assert TableEvent.objects.filter(table_session=table.table_session).count() == seq


def test_the_same_key_with_another_sequence_number_is_refused(
    table: OpenTable, croupier: APIClient
) -> None:
    seq = table.next_seq
    post(croupier, f"{table.url}record/", {"expected_seq": seq, "action": COUP[0]}, "k")

    answer = post(
        croupier, f"{table.url}record/", {"expected_seq": seq + 1, "action": COUP[0]}, "k"
    )

    is_error(answer, 409, "idempotency_conflict")


def test_the_same_undo_key_with_another_reason_is_refused(
    table: OpenTable, croupier: APIClient
) -> None:
    play(croupier, table, COUP[:2])
    seq = table.next_seq
    first = post(croupier, f"{table.url}undo/", {"expected_seq": seq, "reason": "slip"}, "u")
    again = post(croupier, f"{table.url}undo/", {"expected_seq": seq, "reason": "slip"}, "u")
    other = post(croupier, f"{table.url}undo/", {"expected_seq": seq, "reason": "other"}, "u")

    assert first.status_code == again.status_code == 201
    assert first.json() == again.json()
    is_error(other, 409, "idempotency_conflict")


def test_an_idempotency_key_is_required(table: OpenTable, croupier: APIClient) -> None:
    body = {"expected_seq": table.next_seq, "action": COUP[0]}

    missing = post(croupier, f"{table.url}record/", body)
    too_long = post(croupier, f"{table.url}record/", body, "k" * 201)

    assert "Idempotency-Key" in is_error(missing, 400, "invalid")["extra"]["fields"]
    is_error(too_long, 400, "invalid")


# -- error shapes and status codes -----------------------------------------------------------


def test_a_stale_sequence_number_is_409_with_the_expected_one(
    table: OpenTable, croupier: APIClient
) -> None:
    seq = table.next_seq
    answer = post(
        croupier, f"{table.url}record/", {"expected_seq": seq + 3, "action": COUP[0]}, "k"
    )

    body = is_error(answer, 409, "stale_sequence")
    assert body["extra"]["expected_seq"] == seq


def test_an_action_the_rules_refuse_is_422_with_the_rules_code_and_changes_nothing(
    table: OpenTable, croupier: APIClient
) -> None:
    seq = table.next_seq
    answer = post(croupier, f"{table.url}record/", {"expected_seq": seq, "action": COUP[1]}, "k")

    is_error(answer, 422, "CF_E_SHOE_ENDED")
    assert table.next_seq == seq


@pytest.mark.parametrize(
    ("action", "code"),
    [
        ({"type": "no_such_thing", "actor": "croupier"}, "E_UNKNOWN_ACTION"),
        ({"type": "new_shoe", "actor": "croupier"}, "E_BAD_ACTION"),
        ({"type": "new_shoe", "actor": True, "cut_by": 1}, "E_BAD_ACTION"),
        ({"type": "new_shoe", "cut_by": 1}, "E_BAD_ACTION"),
    ],
)
def test_malformed_actions_are_the_engines_to_refuse(
    table: OpenTable, croupier: APIClient, action: dict[str, Any], code: str
) -> None:
    answer = post(
        croupier, f"{table.url}record/", {"expected_seq": table.next_seq, "action": action}, "k"
    )

    is_error(answer, 422, code)


@pytest.mark.parametrize(
    "body",
    [
        {"action": COUP[0]},
        {"expected_seq": 0, "action": COUP[0]},
        {"expected_seq": "two", "action": COUP[0]},
        {"expected_seq": 2, "action": ["new_shoe"]},
        {"expected_seq": 2, "action": {"actor": "croupier"}},
    ],
)
def test_a_malformed_body_is_400_invalid_with_the_fields(
    table: OpenTable, croupier: APIClient, body: dict[str, Any]
) -> None:
    answer = post(croupier, f"{table.url}record/", body, "k")

    assert is_error(answer, 400, "invalid")["extra"]["fields"]


def test_a_body_that_is_not_json_is_400_parse_error(table: OpenTable, croupier: APIClient) -> None:
    answer = croupier.post(
        f"{table.url}record/",
        data="{not json",
        content_type="application/json",
        headers={"Idempotency-Key": "k"},
    )

    is_error(answer, 400, "parse_error")


def test_an_unknown_table_session_is_404(croupier: APIClient) -> None:
    is_error(croupier.get(f"/api/table-sessions/{uuid.uuid4()}/state/"), 404, "not_found")


def test_a_wrong_method_is_405_in_the_same_shape(table: OpenTable, croupier: APIClient) -> None:
    is_error(croupier.get(f"{table.url}record/"), 405, "method_not_allowed")


def test_no_credentials_is_401_with_how_to_authenticate(
    table: OpenTable, anonymous: APIClient
) -> None:
    answer = anonymous.get(f"{table.url}state/")

    is_error(answer, 401, "not_authenticated")
    assert answer["WWW-Authenticate"] == "Token"


def test_a_bad_token_is_401(table: OpenTable) -> None:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token not-a-token")

    is_error(client.get(f"{table.url}state/"), 401, "authentication_failed")


def test_refused_table_settings_are_422_with_the_rules_code(
    staff: StaffMaker, client_for: ClientFor
) -> None:
    manager = client_for(staff(Role.MANAGER))
    body = {"number": 3, "game": "chemin_de_fer", "settings": {"decks": 99}}

    body_error = is_error(
        manager.post("/api/tables/create/", body, format="json"), 422, "E_SETTING"
    )
    assert "decks" in body_error["message"]
    assert "settings" in body_error["extra"]["fields"]


@pytest.mark.parametrize("settings", [[1], "decks=6", 7])
def test_settings_that_are_not_an_object_are_422_not_500(
    staff: StaffMaker, client_for: ClientFor, settings: object
) -> None:
    manager = client_for(staff(Role.MANAGER))
    body = {"number": 3, "game": "chemin_de_fer", "settings": settings}

    is_error(manager.post("/api/tables/create/", body, format="json"), 422, "E_SETTING")


def test_a_table_number_in_service_twice_is_422(staff: StaffMaker, client_for: ClientFor) -> None:
    manager = client_for(staff(Role.MANAGER))
    body = {"number": 3, "game": "pontoon"}
    assert manager.post("/api/tables/create/", body, format="json").status_code == 201

    is_error(manager.post("/api/tables/create/", body, format="json"), 422, "invalid")


# -- tokens ----------------------------------------------------------------------------------


def test_a_token_for_a_username_and_password(staff: StaffMaker, anonymous: APIClient) -> None:
    user = staff(Role.AUDITOR)

    answer = anonymous.post(
        "/api/auth/token/", {"username": user.username, "password": "password"}, format="json"
    )
    wrong = anonymous.post(
        "/api/auth/token/", {"username": user.username, "password": "nope"}, format="json"
    )

    assert answer.status_code == 200
    anonymous.credentials(HTTP_AUTHORIZATION=f"Token {answer.json()['token']}")
    assert anonymous.get("/api/me/").json() == {
        "username": user.username,
        "name": "",
        "roles": ["auditor"],
    }
    is_error(wrong, 401, "authentication_failed")
    revoked = APIClient()
    revoked.credentials(HTTP_AUTHORIZATION="Token revoked")
    again = revoked.post(
        "/api/auth/token/", {"username": user.username, "password": "password"}, format="json"
    )
    assert again.status_code == 200


# -- the state, undo, interruptions, voids, closing ------------------------------------------


def test_the_state_lists_the_legal_actions_and_the_next_sequence_number(
    table: OpenTable, croupier: APIClient
) -> None:
    state = croupier.get(f"{table.url}state/").json()

    assert state["next_expected_seq"] == state["seq"] + 1 == table.next_seq
    assert state["phase"] and state["is_open"] is True
    assert {"type": "new_shoe", "actors": ["croupier"]} in state["legal"]
    assert [seat["player"] for seat in state["seats"][:4]] == ["P1", "P2", "P3", "P4"]


def test_undo_sets_the_last_action_aside(table: OpenTable, croupier: APIClient) -> None:
    play(croupier, table, COUP[:2])
    answer = post(
        croupier, f"{table.url}undo/", {"expected_seq": table.next_seq, "reason": "slip"}, "u"
    )

    assert answer.status_code == 201
    assert answer.json()["kind"] == "undo" and answer.json()["sets_aside"] == [table.next_seq - 2]
    state = croupier.get(f"{table.url}state/").json()
    assert "announce_bank" in state["legal_types"]


def test_an_interrupted_table_refuses_actions_until_it_resumes(
    table: OpenTable, croupier: APIClient, client_for: ClientFor
) -> None:
    manager = client_for(table.manager)
    done = post(manager, f"{table.url}interrupt/", {"expected_seq": table.next_seq}, "i")
    assert done.status_code == 201 and done.json()["kind"] == "interrupt"

    refused = post(
        croupier, f"{table.url}record/", {"expected_seq": table.next_seq, "action": COUP[0]}, "a"
    )
    is_error(refused, 409, "table_interrupted")

    assert (
        post(manager, f"{table.url}resume/", {"expected_seq": table.next_seq}, "r").status_code
        == 201
    )
    play(croupier, table, COUP[:1])


def test_a_settled_coup_is_voided_by_a_second_person(
    table: OpenTable, croupier: APIClient, staff: StaffMaker, client_for: ClientFor
) -> None:
    play(croupier, table, COUP)
    coups = croupier.get(f"{table.url}coups/").json()["results"]
    assert [c["number"] for c in coups] == [1]
    coup_url = f"/api/coups/{coups[0]['public_id']}/"
    assert [e["seq"] for e in croupier.get(f"{coup_url}events/").json()["results"]]

    asked = croupier.post(f"{coup_url}void-request/", {"reason": "wrong cards"}, format="json")
    assert asked.status_code == 201 and asked.json()["decision"] is None
    decide_url = f"/api/void-requests/{asked.json()['public_id']}/decide/"
    approve = {"approve": True, "password": "password"}
    is_error(croupier.post(decide_url, approve, format="json"), 403, "permission_denied")

    inspector = client_for(staff(Role.INSPECTOR))
    # The second person proves who he is: without his own password nothing is decided.
    is_error(inspector.post(decide_url, {"approve": True}, format="json"), 400, "invalid")
    wrong = {"approve": True, "password": "not-his"}
    is_error(inspector.post(decide_url, wrong, format="json"), 403, "confirmation_failed")
    assert croupier.get(coup_url).json()["is_voided"] is False
    decided = inspector.post(decide_url, {**approve, "note": "seen"}, format="json")

    assert decided.status_code == 200
    assert decided.json()["decision"]["approved"] is True
    assert croupier.get(coup_url).json()["is_voided"] is True
    reversal = Transaction.objects.filter(reverses__isnull=False).get()
    auditor = client_for(staff(Role.AUDITOR))
    shown = auditor.get(f"/api/ledger/transactions/{reversal.public_id}/").json()
    assert shown["reverses"] is not None
    pending = inspector.get("/api/void-requests/", {"pending": "true"}).json()
    assert pending["count"] == 0


def test_the_inspector_voids_a_coup_left_half_recorded(
    table: OpenTable, croupier: APIClient, staff: StaffMaker, client_for: ClientFor
) -> None:
    play(croupier, table, COUP[:3])
    inspector = client_for(staff(Role.INSPECTOR))

    refused = post(
        croupier,
        f"{table.url}open-coup/void/",
        {"expected_seq": table.next_seq, "reason": "x"},
        "v",
    )
    done = post(
        inspector,
        f"{table.url}open-coup/void/",
        {"expected_seq": table.next_seq, "reason": "the shoe fell"},
        "v",
    )

    is_error(refused, 403, "permission_denied")
    assert done.status_code == 201 and done.json()["kind"] == "void"


def test_a_closed_table_records_nothing(
    table: OpenTable, croupier: APIClient, staff: StaffMaker, client_for: ClientFor
) -> None:
    closed = client_for(table.manager).post(f"{table.url}close/")
    assert closed.status_code == 200 and closed.json()["is_open"] is False
    body = {"expected_seq": table.next_seq, "action": COUP[0]}

    released = post(croupier, f"{table.url}record/", body, "z")
    refused = post(client_for(staff(Role.INSPECTOR)), f"{table.url}record/", body, "z")

    is_error(released, 403, "permission_denied")  # the croupier went off duty at the close
    is_error(refused, 409, "table_closed")


def test_closing_a_table_with_a_coup_in_progress_is_refused(
    table: OpenTable, croupier: APIClient, client_for: ClientFor
) -> None:
    play(croupier, table, COUP[:3])

    is_error(client_for(table.manager).post(f"{table.url}close/"), 409, "coup_in_progress")


def test_the_journal_reads_what_is_new(table: OpenTable, croupier: APIClient) -> None:
    play(croupier, table, COUP[:3])
    last = table.next_seq - 1

    journal = croupier.get(f"{table.url}events/", {"seq_after": last - 1}).json()

    assert [e["seq"] for e in journal["results"]] == [last]
    assert journal["results"][0]["action"] == COUP[2]
