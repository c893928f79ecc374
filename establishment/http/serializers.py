"""Serializers of the establishment's records, shared by the APIs of every floor."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rest_framework import serializers

from establishment.http.fields import UsernameField
from establishment.models import GamingSession

if TYPE_CHECKING:
    from rest_framework.request import Request


def validated(
    serializer_class: type[serializers.Serializer[Any]], request: Request
) -> dict[str, Any]:
    """The request's body as `serializer_class` reads it; refused with a 400 naming the fields
    that are wrong (establishment/http/api_errors.py)."""
    given = serializer_class(data=request.data)
    given.is_valid(raise_exception=True)
    data: dict[str, Any] = given.validated_data
    return data


class GamingSessionOutputSerializer(serializers.ModelSerializer[GamingSession]):
    opened_by = UsernameField(source="opened_by.username")
    closed_by = UsernameField(source="closed_by.username", allow_null=True)
    is_open = serializers.BooleanField(read_only=True)

    class Meta:
        model = GamingSession
        fields = ["public_id", "opened_at", "opened_by", "closed_at", "closed_by", "is_open"]
