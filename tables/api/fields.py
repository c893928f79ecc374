"""Serializer fields for the engine's actions and actors (the tables' API)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from establishment.http.schema import NOT_BLANK
from tables.engine import GAMES, game_get

# Every action type of every game (the engine's specs); which are legal now, and for whom, is in
# the table's state.
ACTION_TYPES = sorted({name for code in GAMES for name in game_get(code).actions})
# An actor as the engine records it (COM-10.2): a seat number, a standing player's id, or
# "croupier".
ACTOR_SCHEMA: dict[str, Any] = {
    "oneOf": [
        {"type": "integer", "minimum": 1, "description": "A seat number."},
        {"type": "string", "description": 'A standing player\'s id, or "croupier".'},
    ]
}

ACTION_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": (
        "An action exactly as the rules define it (docs/rules/SCENARIOS.md): `type`, `actor` "
        "and the parameters of that type, e.g. "
        '`{"type": "stake", "actor": 3, "amount": 100}`. `GET /api/games/` lists every '
        "game's action types and their parameters; the table's state lists which are legal now "
        "and for whom. The engine checks the rest: a malformed or illegal action is refused "
        "with 422 and the rules' code (`E_BAD_ACTION`, `E_WRONG_STATE`, …)."
    ),
    "properties": {
        "type": {"type": "string", "enum": ACTION_TYPES},
        "actor": ACTOR_SCHEMA,
    },
    "required": ["type"],
    "additionalProperties": True,
}


@extend_schema_field(ACTOR_SCHEMA)
class ActorField(serializers.JSONField):
    """A seat number or a player id (output only)."""


@extend_schema_field(ACTION_SCHEMA)
class ActionField(serializers.JSONField):
    """The engine's action: a JSON object with a `type`; everything else is the engine's."""

    default_error_messages = {
        "not_an_object": "An action is a JSON object.",
        "no_type": 'An action needs a "type" (a text).',
    }

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        value = super().to_internal_value(data)
        if not isinstance(value, dict):
            self.fail("not_an_object")
        if not isinstance(value.get("type"), str) or not value["type"]:
            self.fail("no_type")
        return dict(value)


SEATS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": 'Seat number (1 to 30) → member number, e.g. {"1": "M001", "2": "M002"}.',
    # OpenAPI 3.0 has no `propertyNames`: each seat number is a property of its own.
    "properties": {
        str(seat): {"type": "string", "minLength": 1, "maxLength": 32, "pattern": NOT_BLANK}
        for seat in range(1, 31)
    },
    "additionalProperties": False,
}


@extend_schema_field(SEATS_SCHEMA)
class SeatsField(serializers.DictField):
    """Who sits where at an opening: seat numbers (1 to 30, as JSON keys) to member numbers."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(child=serializers.CharField(max_length=32), **kwargs)
