"""One place that turns refusals into HTTP answers (establishment/errors.py has the codes).

Engine refusals (`RuleRefusedError`, carrying the rules' code such as `E_WRONG_STATE`) and
service refusals (`DomainError` with a stable `ErrorCode`) become the same JSON shape for the
API, `{"code", "message", "extra"}`, and the same status for the console's partials:
422 for a rule refused, 409 for a stale screen or a conflict, 403/404 for what the user may
not do or see. Anything else is a 500 and is logged by Django.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from establishment.errors import DomainError


@dataclass(frozen=True)
class ErrorBody:
    status: int
    code: str
    message: str
    extra: dict[str, Any]

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "extra": self.extra}


def error_body(error: DomainError) -> ErrorBody:
    """The status and body for a refusal; an engine refusal keeps the rules' code."""
    extra = {k: v for k, v in error.extra.items() if k != "rule_code"}
    code = str(error.extra.get("rule_code") or error.code)
    return ErrorBody(error.http_status, code, error.message, _jsonable(extra))


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [_jsonable(v) for v in value]
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)
