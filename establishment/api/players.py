"""Players at the door, through the API: register (with the identity and the admission check),
search, and one player's record.

The same services and selectors as the reception's screens (establishment.console.reception).
A player's identity (birth, address, document) is given only to `IDENTITY_READERS` (the door
and the auditors); for anyone else `identity` is null and the search's `birth_date` too.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from establishment.door import player_register
from establishment.http.fields import client_of
from establishment.http.permissions import as_user
from establishment.http.schema import post_schema
from establishment.http.serializers import SearchQuery, allowed_body
from establishment.models import DocumentType, Player
from establishment.roles import DOOR_KEEPERS, IDENTITY_READERS
from establishment.selectors import player_search
from establishment.staff import roles_of


def reads_identity(user: Any) -> bool:
    return bool(roles_of(user) & IDENTITY_READERS)


class PlayerIdentitySerializer(serializers.ModelSerializer[Player]):
    registered_by = serializers.CharField(
        source="registered_by.username", allow_null=True, read_only=True
    )

    class Meta:
        model = Player
        fields = [
            "surname",
            "first_names",
            "birth_date",
            "birth_place",
            "address",
            "document_type",
            "document_number",
            "document_expiry",
            "registered_by",
        ]


class PlayerRecordSerializer(serializers.ModelSerializer[Player]):
    """A player; `identity` only for the door and the auditors (null otherwise, and for a
    player registered before the door recorded identities)."""

    identity = serializers.SerializerMethodField()

    class Meta:
        model = Player
        fields = ["public_id", "member_number", "name", "created_at", "identity"]

    @extend_schema_field(PlayerIdentitySerializer(allow_null=True))
    def get_identity(self, player: Player) -> dict[str, Any] | None:
        if not self.context.get("reads_identity") or not player.has_identity:
            return None
        data: dict[str, Any] = PlayerIdentitySerializer(player).data
        return data


@post_schema(responses={201: PlayerRecordSerializer}, tags=["reception"])
class PlayerRegisterApi(APIView):
    """Register a player at the door (reception, inspectors and managers): every field of the
    identity, a valid document; refused (422 `player_refused`, "This person cannot be admitted
    to play.", nothing more) under 18 or on the exclusion list; the member number is made by
    the house."""

    class InputSerializer(serializers.Serializer[Any]):
        surname = serializers.CharField(max_length=100)
        first_names = serializers.CharField(max_length=150)
        birth_date = serializers.DateField()
        birth_place = serializers.CharField(max_length=150)
        address = serializers.CharField(max_length=500)
        document_type = serializers.ChoiceField(choices=DocumentType.choices)
        document_number = serializers.CharField(max_length=64)
        document_expiry = serializers.DateField()

    def post(self, request: Request) -> Response:
        given = allowed_body(self.InputSerializer, request, DOOR_KEEPERS, "register a player")
        player = player_register(
            **given,
            registered_by=as_user(request.user),
            client=client_of(request),
        )
        context = {"reads_identity": True}
        return Response(
            PlayerRecordSerializer(player, context=context).data, status=status.HTTP_201_CREATED
        )


class PlayerSearchApi(APIView):
    """Players by name, member number or document number, best first (typo-tolerant on
    PostgreSQL); fewer than two characters find nothing."""

    class OutputSerializer(serializers.Serializer[Any]):
        public_id = serializers.UUIDField()
        member_number = serializers.CharField()
        name = serializers.CharField()
        birth_date = serializers.DateField(
            allow_null=True, help_text="Only for the door and the auditors; else null."
        )

    search = SearchQuery("What was typed (2 characters or more).", most=100, default=20)

    @search.schema(responses={200: OutputSerializer(many=True)}, tags=["reception"])
    def get(self, request: Request) -> Response:
        query, limit = self.search.read(request)
        found = player_search(query=query, limit=limit)
        shows = reads_identity(request.user)
        rows = [
            {
                "public_id": p.public_id,
                "member_number": p.member_number,
                "name": p.name,
                "birth_date": p.birth_date if shows else None,
            }
            for p in found
        ]
        return Response(self.OutputSerializer(rows, many=True).data)


class PlayerRecordApi(APIView):
    """One player's record; his identity for the door and the auditors only."""

    @extend_schema(responses=PlayerRecordSerializer, tags=["reception"])
    def get(self, request: Request, player_id: UUID) -> Response:
        player = get_object_or_404(
            Player.objects.select_related("registered_by"), public_id=player_id
        )
        context = {"reads_identity": reads_identity(request.user)}
        return Response(PlayerRecordSerializer(player, context=context).data)
