"""The REST API (DRF): adapters over the same services and selectors as the console.

Everything the console does, for other systems (a surveillance room, a cage system, an
accounting package) and for auditors, described by an OpenAPI 3 schema at `/api/schema/`
(Swagger UI at `/api/docs/`, Redoc at `/api/redoc/`, served by the project). Each view parses,
calls one service or selector and renders; no business rule lives here.

A session of play, as a client sees it::

    POST /api/auth/token/                      {"username", "password"} → {"token"}
         (then `Authorization: Token <token>` on every request)
    POST /api/gaming-sessions/open/            → the night
    POST /api/tables/create/                   {"number", "game", "settings"}
    POST /api/table-sessions/open/             {"table", "gaming_session", "seats", "standing"}
    POST /api/table-sessions/<id>/assignments/create/   {"staff": "<username>", "role": "croupier"}
    GET  /api/table-sessions/<id>/state/       phase, banker, legal actions, next_expected_seq
    POST /api/table-sessions/<id>/record/      {"expected_seq", "action": {"type", "actor", …}}
         with an `Idempotency-Key` header
    POST /api/table-sessions/<id>/close/ ; POST /api/gaming-sessions/<id>/close/

Errors are always `{"code", "message", "extra"}` (`establishment/http/api_errors.py`): 422 with the
rules' code for an action the engine refuses, 409 `stale_sequence` (with `extra.expected_seq`) when
the table moved on, 409 `idempotency_conflict` for a key reused with another body, 403 for a role or
table that does not allow it, 404 for what the caller may not see.

Modules: `establishment` (tokens, staff, players, gaming sessions, the games), `tables`
(tables, table sessions, seats, assignments, sabots, the register of bankers), `play` (state,
recording, undo, interruptions, the journal), `coups` (coups, voids), `ledger` (accounts and
transactions, read only), `reports` (settlement reports, read and download); `permissions`,
`errors`, `pagination`, `lookups`, `schema` and `fields` are shared.
"""
