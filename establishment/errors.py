"""Domain errors with stable codes (docs/architecture.md, "Errors").

Services raise `DomainError` subclasses; one place (`establishment/http/errors.py`) maps them
to HTTP responses. Tests match `code`, never the translated message.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any


class ErrorCode(StrEnum):
    PERMISSION_DENIED = "permission_denied"
    CONFLICT = "conflict"
    INVALID_STATE = "invalid_state"
    NOT_FOUND = "not_found"
    APPEND_ONLY = "append_only"
    # Recording at a table
    STALE_SEQUENCE = "stale_sequence"
    IDEMPOTENCY_CONFLICT = "idempotency_conflict"
    RULE_REFUSED = "rule_refused"
    TABLE_CLOSED = "table_closed"
    TABLE_INTERRUPTED = "table_interrupted"
    COUP_IN_PROGRESS = "coup_in_progress"
    NOTHING_TO_UNDO = "nothing_to_undo"
    CANNOT_UNDO = "cannot_undo"
    VOID_NOT_LAST = "void_not_last"
    VOID_DECIDED = "void_decided"
    SECOND_PERSON_REQUIRED = "second_person_required"
    UNKNOWN_PLAYER = "unknown_player"
    STAFF_ON_DUTY = "staff_on_duty"
    CLOSE_BLOCKED = "close_blocked"
    STOCK_UNAVAILABLE = "stock_unavailable"
    CONFIRMATION_FAILED = "confirmation_failed"
    LOCKED_OUT = "locked_out"  # too many failed logins (establishment/lockout.py)
    # The door (players, the exclusion list)
    PLAYER_REFUSED = "player_refused"
    INVALID_INPUT = "invalid_input"
    # Ledger
    LEDGER_UNBALANCED = "ledger_unbalanced"
    LEDGER_EMPTY = "ledger_empty"
    LEDGER_BAD_AMOUNT = "ledger_bad_amount"
    LEDGER_IDEMPOTENCY_CONFLICT = "ledger_idempotency_conflict"
    LEDGER_ALREADY_REVERSED = "ledger_already_reversed"
    LEDGER_IMMUTABLE = "ledger_immutable"
    LEDGER_BAD_ACCOUNT = "ledger_bad_account"


class DomainError(Exception):
    """A refusal a user can understand: a stable `code`, a message and data fields."""

    code: ErrorCode = ErrorCode.CONFLICT
    http_status: int = 409

    def __init__(self, message: str, *, code: ErrorCode | None = None, **extra: Any) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.extra: dict[str, Any] = extra

    def __str__(self) -> str:
        return self.message


class AppendOnlyError(DomainError):
    """A row written once was to be changed or deleted: a correction is a row of its own."""

    code = ErrorCode.APPEND_ONLY


class InvalidStateError(DomainError):
    code = ErrorCode.INVALID_STATE
    http_status = 409


class PermissionDeniedError(DomainError):
    """The user may not do this here and now (role, assignment, table)."""

    code = ErrorCode.PERMISSION_DENIED
    http_status = 403


class NotFoundError(DomainError):
    code = ErrorCode.NOT_FOUND
    http_status = 404


class PlayerRefusedError(DomainError):
    """The person may not be admitted to play (arrêté du 14 mai 2007, art. 22: barred, or
    under 18). The message says nothing more, whoever reads it; the reason is in the audit row
    the admission check wrote (establishment.door.player_admission_check)."""

    code = ErrorCode.PLAYER_REFUSED
    http_status = 422


class InvalidInputError(DomainError):
    """What a service was given is incomplete or wrong: `extra["fields"]` maps each field to
    its messages (the API's `extra.fields`, the form's errors in place)."""

    code = ErrorCode.INVALID_INPUT
    http_status = 422

    def __init__(self, message: str, *, fields: dict[str, list[str]]) -> None:
        super().__init__(message, fields=fields)
        self.fields = fields
