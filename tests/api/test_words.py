"""The API answers a refusal in the request's language: the same code and parameters, the
engine's words from its catalogue (locale/*/LC_MESSAGES/engine.po) in English or in French."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.api.conftest import ClientFor
from tests.api.fixtures import OpenTable, open_table

pytestmark = pytest.mark.django_db

# CF-3.2 the first shoe is cut by seat 1: seat 2 cutting it is refused (CF_E_WRONG_CUTTER).
WRONG_CUT = {"type": "new_shoe", "actor": "croupier", "cut_by": 2}
# CF-4.1 the banker announces; a ponte may not (E_NOT_ELIGIBLE, its reason a code).
NOT_THE_BANKER = {"type": "announce_bank", "actor": 2, "amount": 1000}
RIGHT_CUT = {"type": "new_shoe", "actor": "croupier", "cut_by": 1}


@pytest.fixture
def table() -> OpenTable:
    return open_table()


@pytest.fixture
def croupier(table: OpenTable, client_for: ClientFor) -> APIClient:
    return client_for(table.croupier)


def record(client: APIClient, table: OpenTable, action: dict[str, Any], language: str) -> Any:
    return client.post(
        f"{table.url}record/",
        {"expected_seq": table.next_seq, "action": action},
        format="json",
        headers={"Idempotency-Key": str(uuid.uuid4()), "Accept-Language": language},
    )


def refusal(answer: Any, code: str) -> dict[str, Any]:
    assert answer.status_code == 422, answer.content
    body: dict[str, Any] = answer.json()
    assert set(body) == {"code", "message", "extra"}
    assert body["code"] == code
    return body


def test_a_refusal_is_in_french_for_a_french_client(table: OpenTable, croupier: APIClient) -> None:
    english = refusal(record(croupier, table, WRONG_CUT, "en"), "CF_E_WRONG_CUTTER")
    french = refusal(record(croupier, table, WRONG_CUT, "fr"), "CF_E_WRONG_CUTTER")
    assert english["message"] == "Seat 1 cuts this shoe."
    assert french["message"] == "La place 1 coupe ce sabot."
    # The code and the parameters never change with the language.
    assert english["extra"]["params"] == french["extra"]["params"] == {"seat": 1}


def test_a_reason_given_as_a_code_is_said_in_the_clients_language(
    table: OpenTable, croupier: APIClient
) -> None:
    first = record(croupier, table, RIGHT_CUT, "fr")
    assert first.status_code == 201, first.content
    english = refusal(record(croupier, table, NOT_THE_BANKER, "en-GB,en;q=0.9"), "E_NOT_ELIGIBLE")
    french = refusal(record(croupier, table, NOT_THE_BANKER, "fr-FR,fr;q=0.9"), "E_NOT_ELIGIBLE")
    params = english["extra"]["params"]
    assert params == french["extra"]["params"]
    assert params["reason"] == "R_BANKER_ONLY" and params["action"] == "announce_bank"
    banker = params["banker"]
    # The action is named in the table's words, a game term, French in both languages.
    assert english["message"].endswith(
        f"cannot Annoncer la banque: only the banker {banker} decides it."
    )
    assert french["message"].endswith(
        f"ne peut pas faire « Annoncer la banque » : seul le banquier {banker} en décide."
    )


def test_a_language_the_catalogue_does_not_have_is_answered_in_english(
    table: OpenTable, croupier: APIClient
) -> None:
    answer = refusal(record(croupier, table, WRONG_CUT, "de"), "CF_E_WRONG_CUTTER")
    assert answer["message"] == "Seat 1 cuts this shoe."
