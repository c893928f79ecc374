"""Writes at a table: configuration, opening, recording, corrections and closing.

`record` is the one entry point for what happens at a table (docs/architecture.md, "How a
recorded action flows"); the console and the API call these functions and nothing else.
"""

from __future__ import annotations

from tables.services.configuration import table_update
from tables.services.corrections import (
    open_coup_void,
    undo,
    void_decide,
    void_request,
    void_request_get,
)
from tables.services.duty import StaffBusyError, StaffRoleError, staff_assign, staff_release
from tables.services.recording import RuleRefusedError, TableInterruptedError, record
from tables.services.sessions import (
    gaming_session_close,
    table_interrupt,
    table_resume,
    table_session_close,
)
from tables.services.tables import sabot_open, table_create, table_session_open
from tables.services.writing import (
    IdempotencyConflictError,
    ReasonedWriter,
    Recorded,
    StaleSequenceError,
    TableClosedError,
    operate_check,
)

__all__ = [
    "IdempotencyConflictError",
    "Recorded",
    "ReasonedWriter",
    "RuleRefusedError",
    "StaffBusyError",
    "StaffRoleError",
    "StaleSequenceError",
    "TableClosedError",
    "TableInterruptedError",
    "gaming_session_close",
    "open_coup_void",
    "operate_check",
    "record",
    "sabot_open",
    "staff_assign",
    "staff_release",
    "table_create",
    "table_interrupt",
    "table_resume",
    "table_session_close",
    "table_session_open",
    "table_update",
    "undo",
    "void_decide",
    "void_request",
    "void_request_get",
]
