"""The house's settings through the API (docs/registers.md), as on the manager's screen: the
version in force and the versions before it; a change is a new version with its reason."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from establishment.house import (
    HOUSE_FIELDS,
    HOUSE_KEEPERS,
    house_settings_change,
    house_settings_current,
)
from establishment.http.fields import client_of
from establishment.http.permissions import as_user
from establishment.http.schema import post_schema
from establishment.http.serializers import allowed_body
from establishment.models import Currency, HouseSettings, LevyRecord, LevyTieRule
from establishment.staff import role_required

TAGS = ["house"]


class HouseSettingsSerializer(serializers.ModelSerializer[HouseSettings]):
    changed_by = serializers.CharField(
        source="changed_by.username", read_only=True, allow_null=True
    )
    # The wall-clock hour in the house's zone, not a moment: "06:00:00", without an offset.
    journee_turns_at = serializers.CharField(read_only=True, help_text="HH:MM:SS, local time.")

    class Meta:
        model = HouseSettings
        fields = ["public_id", *HOUSE_FIELDS, "changed_at", "changed_by", "reason"]


class HouseApi(APIView):
    """The version in force, then the versions before it (the latest 50)."""

    class OutputSerializer(serializers.Serializer[Any]):
        current = HouseSettingsSerializer()
        versions = HouseSettingsSerializer(many=True)

    @extend_schema(responses=OutputSerializer, tags=TAGS)
    def get(self, request: Request) -> Response:
        role_required(request.user, HOUSE_KEEPERS, "read the house's settings")
        versions = HouseSettings.objects.select_related("changed_by").order_by("-pk")[:50]
        data = {"current": house_settings_current(), "versions": list(versions)}
        return Response(self.OutputSerializer(data).data)


@post_schema(responses={201: HouseSettingsSerializer}, tags=TAGS)
class HouseChangeApi(APIView):
    """A new version: what is not given stays as it is. Séances already open keep theirs."""

    class InputSerializer(serializers.Serializer[Any]):
        currency = serializers.ChoiceField(choices=Currency.choices, required=False)
        cents_per_chip = serializers.IntegerField(min_value=1, max_value=1_000_000, required=False)
        journee_turns_at = serializers.TimeField(required=False)
        time_zone = serializers.CharField(max_length=64, required=False)
        levy_tie_rule = serializers.ChoiceField(choices=LevyTieRule.choices, required=False)
        levy_record = serializers.ChoiceField(choices=LevyRecord.choices, required=False)
        reason = serializers.CharField(max_length=500)

    def post(self, request: Request) -> Response:
        body = allowed_body(self.InputSerializer, request, HOUSE_KEEPERS, "change the house")
        version = house_settings_change(
            changed_by=as_user(request.user), client=client_of(request), **body
        )
        return Response(HouseSettingsSerializer(version).data, status=status.HTTP_201_CREATED)
