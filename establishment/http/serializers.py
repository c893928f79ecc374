"""Serializers of the establishment's records, shared by the APIs of every floor."""

from __future__ import annotations

from rest_framework import serializers

from establishment.http.fields import UsernameField
from establishment.models import GamingSession


class GamingSessionOutputSerializer(serializers.ModelSerializer[GamingSession]):
    opened_by = UsernameField(source="opened_by.username")
    closed_by = UsernameField(source="closed_by.username", allow_null=True)
    is_open = serializers.BooleanField(read_only=True)

    class Meta:
        model = GamingSession
        fields = ["public_id", "opened_at", "opened_by", "closed_at", "closed_by", "is_open"]
