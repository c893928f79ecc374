"""Serializer fields and small serializers shared by the API's resources."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.request import Request

FREE_OBJECT: dict[str, Any] = {"type": "object", "additionalProperties": True}


@extend_schema_field(FREE_OBJECT)
class ObjectField(serializers.JSONField):
    """A JSON object whose keys depend on the game (settings, the table's view, results)."""


class UsernameField(serializers.CharField):
    """A staff member, by username (read from `<source>.username`)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("read_only", True)
        super().__init__(**kwargs)


def client_of(request: Request) -> str:
    """What the audit rows say the change came from: the API and the caller's user agent."""
    agent = str(request.META.get("HTTP_USER_AGENT", "")).strip()
    return f"api {agent}"[:200].strip()


class ErrorSerializer(serializers.Serializer[Any]):
    """Every error the API answers (establishment/http/errors.py)."""

    code = serializers.CharField(
        help_text="Stable code: the rules' code (E_…) for a refused action, else the service's."
    )
    message = serializers.CharField(help_text="What was wrong, in plain words.")
    extra = ObjectField(help_text="Data about the error, e.g. `expected_seq` when stale.")


class UtcDateTimeField(serializers.DateTimeField):
    """An ISO 8601 moment, turned to UTC: PostgreSQL refuses offsets past ±15:59, which ISO 8601
    (and Python) allow up to ±23:59; a moment before year 1 in UTC is refused."""

    def to_internal_value(self, value: Any) -> datetime:
        moment = super().to_internal_value(value)
        try:
            return moment.astimezone(UTC)
        except OverflowError:
            self.fail("invalid", format="YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z]")
            raise  # not reached: `fail` raises
