"""The OpenAPI links of a session of play (docs/architecture.md, "Adding an API endpoint").

Each says what an answer gives to the next call: the table a creation made is the one to open;
the table session an opening made is the one whose state to read; the state's
`next_expected_seq` and its legal actions are what to record next; a coup listed is one to
ask to void, and the request asked is the one to decide. A generated client follows them, and
so does the schema-driven fuzzer's stateful phase (tests/api/test_schemathesis.py), which
thereby reaches the play endpoints with ids that exist and sequence numbers that are current.
"""

from __future__ import annotations

from typing import Any

from establishment.http.schema import Link, links_add

_SESSION = {"table_session_id": "$request.path.table_session_id"}
_SEQ = "$response.body#/next_expected_seq"
# How many of the legal actions a state offers as a next step (the state lists each action type
# once, with who may take it; its first actor takes it).
_LEGAL_OFFERED = 4

PLAY_LINKS: list[Link] = [
    Link(
        "table_create",
        "201",
        "table_session_open",
        "OpenTheTable",
        body={"table": "$response.body#/public_id"},
    ),
    Link(
        "table_session_close",
        "200",
        "table_session_open",
        "OpenTheTableAgain",
        body={
            "table": "$response.body#/table/public_id",
            "gaming_session": "$response.body#/gaming_session",
        },
    ),
    Link(
        "table_session_list",
        "200",
        "table_session_open",
        "OpenATableInTheSameNight",
        body={"gaming_session": "$response.body#/results/0/gaming_session"},
    ),
    Link(
        "table_session_open",
        "201",
        "table_state",
        "ReadTheState",
        parameters={"table_session_id": "$response.body#/public_id"},
    ),
    Link(
        "table_session_list",
        "200",
        "table_state",
        "ReadTheStateOfTheLatest",
        parameters={"table_session_id": "$response.body#/results/0/public_id"},
    ),
    Link(
        "table_session_list",
        "200",
        "table_session_close",
        "CloseTheLatest",
        parameters={"table_session_id": "$response.body#/results/0/public_id"},
    ),
    *(
        Link(
            "table_state",
            "200",
            "action_record",
            f"RecordLegalAction{index}",
            parameters=_SESSION,
            body={
                "expected_seq": _SEQ,
                "action": {
                    "type": f"$response.body#/legal/{index}/type",
                    "actor": f"$response.body#/legal/{index}/actors/0",
                },
            },
            whole_body=True,
            description=f"Legal action number {index} of the state, by its first actor.",
        )
        for index in range(_LEGAL_OFFERED)
    ),
    Link("action_record", "201", "table_state", "ReadTheNewState", parameters=_SESSION),
    Link(
        "table_state",
        "200",
        "action_undo",
        "UndoTheLastAction",
        parameters=_SESSION,
        body={"expected_seq": _SEQ},
    ),
    Link(
        "table_state",
        "200",
        "open_coup_void",
        "VoidTheCoupInProgress",
        parameters=_SESSION,
        body={"expected_seq": _SEQ},
    ),
    Link("action_undo", "201", "table_state", "ReadTheStateAfterTheUndo", parameters=_SESSION),
    Link("table_state", "200", "coup_list", "ListTheCoups", parameters=_SESSION),
    Link(
        "coup_list",
        "200",
        "void_request_create",
        "AskToVoidTheFirstCoup",
        parameters={"coup_id": "$response.body#/results/0/public_id"},
    ),
    Link(
        "void_request_create",
        "201",
        "void_decide",
        "DecideTheVoid",
        parameters={"void_request_id": "$response.body#/public_id"},
    ),
    Link(
        "void_request_list",
        "200",
        "void_decide",
        "DecideTheFirstListed",
        parameters={"void_request_id": "$response.body#/results/0/public_id"},
    ),
    Link(
        "void_decide",
        "200",
        "table_state",
        "ReadTheStateAfterTheDecision",
        parameters={"table_session_id": "$response.body#/table_session"},
    ),
]


def play_links_add(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    """drf-spectacular postprocessing hook: the links of `PLAY_LINKS`."""
    return links_add(result, PLAY_LINKS)
