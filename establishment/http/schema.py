"""OpenAPI details drf-spectacular cannot infer: the error responses, the idempotency header and
the schema of a write declared on its view (`post_schema`).

Every operation can answer an error in the one shape `{"code", "message", "extra"}`
(establishment/http/api_errors.py); `error_responses_add` documents it once for all operations
instead of repeating it on every view: 400 (request shape), 401 (no or bad credentials), 403 (role
or table), 404 (unknown or not visible), 429 (throttled, locked out) everywhere; 409 (stale
sequence number, conflict, idempotency key reused) and 422 (refused by the rules or a service) on
writes.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from drf_spectacular import openapi
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import serializers
from rest_framework.views import APIView

ERROR_COMPONENT = "Error"

ERROR_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "Every error the API answers.",
    "properties": {
        "code": {
            "type": "string",
            "description": (
                "Stable code: the rules' code (E_…) for an action the engine refused, else the "
                "service's (stale_sequence, permission_denied, not_found, invalid, …)."
            ),
        },
        "message": {"type": "string", "description": "What was wrong, in plain words."},
        "extra": {
            "type": "object",
            "additionalProperties": True,
            "description": (
                "Data about the error: `expected_seq` for a stale sequence number, `fields` for "
                "invalid input, …"
            ),
        },
    },
    "required": ["code", "message", "extra"],
}

_ALWAYS = {
    "400": "The request is malformed (`invalid`, `parse_error`); `extra.fields` says where.",
    "401": "No credentials, or bad ones (`not_authenticated`, `authentication_failed`).",
    "403": "Your role or your table does not allow this (`permission_denied`).",
    "404": "Not found, or not visible to you (`not_found`).",
    "429": (
        "Too many requests from this account or address (`throttled`), or, at the token "
        "endpoint, too many failed logins (`locked_out`); `Retry-After` says when to try again."
    ),
}
_WRITES = {
    "409": (
        "The table moved on (`stale_sequence`, with `extra.expected_seq`), the idempotency key "
        "was used for another request (`idempotency_conflict`), or the state does not allow "
        "it now (`table_closed`, `table_interrupted`, `coup_in_progress`, …)."
    ),
    "422": (
        "Refused by the rules (the engine's code: `E_WRONG_STATE`, `E_BAD_ACTION`, …) or by a "
        "service (`unknown_player`, `E_SETTING`, `unique`, …), or naming what does not exist "
        "(`does_not_exist`, `extra.fields` says which)."
    ),
}
_METHODS = ("get", "post", "put", "patch", "delete")
# A read that a service may refuse by a rule the schema cannot state (a cursor the server did
# not give, a period that ends before it begins): `extend_schema(extensions={MAY_REFUSE: True})`
# documents its 422 as a write's.
MAY_REFUSE = "x-may-refuse"


def error_responses_add(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    """drf-spectacular postprocessing hook: the Error component and the error responses."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    schemas[ERROR_COMPONENT] = ERROR_SCHEMA
    reference = {"$ref": f"#/components/schemas/{ERROR_COMPONENT}"}
    for operations in result.get("paths", {}).values():
        for method, operation in operations.items():
            if method not in _METHODS:
                continue
            wanted = dict(_ALWAYS)
            if method != "get":
                wanted |= _WRITES
            elif operation.pop(MAY_REFUSE, False):
                wanted["422"] = _WRITES["422"]
            responses = operation.setdefault("responses", {})
            for status_code, description in wanted.items():
                responses.setdefault(
                    status_code,
                    {
                        "description": description,
                        "content": {"application/json": {"schema": reference}},
                    },
                )
    return result


@dataclass(frozen=True)
class Link:
    """An OpenAPI link: what an answer of `source` (its operationId, on `status`) gives to call
    `target` next — path parameters and a request body made of runtime expressions
    (`$response.body#/public_id`, `$request.path.table_session_id`).

    A client generator (and the schema-driven fuzzer's stateful phase) follows them to walk a
    session of play: a table created, opened, its state read, an action recorded, a coup voided.
    `whole_body` means the body is exactly the link's, not merged into a generated one.
    """

    source: str
    status: str
    target: str
    name: str
    parameters: dict[str, str] = field(default_factory=dict)
    body: dict[str, Any] | None = None
    whole_body: bool = False
    description: str = ""


def links_add(result: dict[str, Any], links: list[Link]) -> dict[str, Any]:
    """Declare `links` in a generated schema (for a drf-spectacular postprocessing hook).

    A link whose source or target is not in the schema is an error: the names are the views'
    operationIds (`AutoSchema.get_operation_id`), and a renamed view must rename its links.
    """
    operations = {
        operation["operationId"]: operation
        for methods in result.get("paths", {}).values()
        for method, operation in methods.items()
        if method in _METHODS
    }
    for link in links:
        missing = {link.source, link.target} - operations.keys()
        if missing:
            raise ValueError(f"A link names operations not in the schema: {sorted(missing)}")
        response = operations[link.source]["responses"][link.status]
        declared: dict[str, Any] = {"operationId": link.target}
        if link.description:
            declared["description"] = link.description
        if link.parameters:
            declared["parameters"] = dict(link.parameters)
        if link.body is not None:
            declared["requestBody"] = link.body
            if link.whole_body:
                declared["x-schemathesis"] = {"merge_body": False}
        response.setdefault("links", {})[link.name] = declared
    return result


IDEMPOTENCY_KEY = OpenApiParameter(
    name="Idempotency-Key",
    type={"type": "string", "minLength": 1, "maxLength": 200},
    location=OpenApiParameter.HEADER,
    required=True,
    description=(
        "A key the client makes once per action it means to record (a UUID is good). Sending the "
        "same request with the same key again — a retry after a lost answer, a double click — "
        "records and books nothing more and answers the same body; the same key with a "
        "different body is refused (409 `idempotency_conflict`). 1 to 200 characters."
    ),
)


# Some character that Python's `str.strip` keeps (its whitespace, listed: `\s` differs
# between regular expression engines).
_STRIPPED = "\t\n\x0b\x0c\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
NOT_BLANK = f"[^{_STRIPPED}]"

_View = TypeVar("_View", bound=type[APIView])


def post_schema(*, responses: Any, tags: list[str]) -> Callable[[_View], _View]:
    """The schema of a view's `post`, declared on the view: the body its `InputSerializer`
    reads (none when it has none), `responses` and `tags`.

    Declared on the class rather than on the method, so that views sharing one `post` through
    a base class each get their own (`extend_schema_view` gives each a copy of the method).
    """

    def describe(view: _View) -> _View:
        schema = extend_schema(
            request=getattr(view, "InputSerializer", None), responses=responses, tags=tags
        )
        described: _View = extend_schema_view(post=schema)(view)
        return described

    return describe


class AutoSchema(openapi.AutoSchema):
    """Names the components of nested `InputSerializer`/`OutputSerializer` after their view.

    `ActionRecordApi.InputSerializer` becomes `ActionRecordInput` (HackSoft's nested serializers
    would otherwise all be called `Input`/`Output` and collide).
    """

    def get_serializer_name(self, serializer: Any, direction: Any) -> str:
        qualname = (serializer if isinstance(serializer, type) else type(serializer)).__qualname__
        if "." in qualname:
            outer, inner = qualname.rsplit(".", 1)
            outer = outer.rsplit(".", 1)[-1].removesuffix("Api")
            return outer + inner.removesuffix("Serializer")
        name: str = super().get_serializer_name(serializer, direction)
        return name

    def _get_serializer_field_meta(self, field: Any, direction: Any) -> dict[str, Any]:
        """A text that must not be blank says so in full: DRF strips the whitespace around it
        before it checks it is not empty, so `minLength: 1` alone would let `" "` through
        the schema and not through the view (400)."""
        meta: dict[str, Any] = super()._get_serializer_field_meta(field, direction)  # type: ignore[no-untyped-call]
        if (
            direction == "request"
            and type(field) is serializers.CharField
            and not field.allow_blank
            and field.trim_whitespace
        ):
            meta["pattern"] = NOT_BLANK
        return meta

    def get_operation_id(self) -> str:
        """The view's name in snake case: `ActionRecordApi` → `action_record`.

        Views are `<Entity><Action>Api` with one method each, so the names are unique and read
        well in a generated client (`client.action_record(...)`, `client.table_state(...)`).
        """
        name = type(self.view).__name__.removesuffix("Api")
        return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()
