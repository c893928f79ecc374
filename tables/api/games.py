"""The games the tables play, and closing a gaming session (which closes its tables)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from uuid import UUID

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from establishment.http.fields import ObjectField, client_of
from establishment.http.permissions import as_user
from establishment.http.schema import post_schema
from establishment.http.serializers import GamingSessionOutputSerializer
from establishment.models import GamingSession
from tables.engine import GAMES, RuleError, game_get, settings_validate
from tables.services import gaming_session_close
from tables.words import say


@post_schema(responses=GamingSessionOutputSerializer, tags=["gaming sessions"])
class GamingSessionCloseApi(APIView):
    """Close the night: every open table is closed first (reliquats returned, reserve fund
    divided), all or nothing; a table with a coup half-recorded stops it (`coup_in_progress`)."""

    def post(self, request: Request, gaming_session_id: UUID) -> Response:
        session = get_object_or_404(GamingSession, public_id=gaming_session_id)
        closed = gaming_session_close(
            gaming_session=session, user=as_user(request.user), client=client_of(request)
        )
        return Response(GamingSessionOutputSerializer(closed).data)


# -- the games -------------------------------------------------------------------------------


class GameParameterSerializer(serializers.Serializer[Any]):
    name = serializers.CharField()
    kind = serializers.CharField(help_text="What the value is, in words.")

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        fields = super().get_fields()
        # `required` is a Field attribute: declare the field by name.
        fields["required"] = serializers.BooleanField()
        return fields


class GameActionSerializer(serializers.Serializer[Any]):
    type = serializers.CharField()
    parameters = GameParameterSerializer(many=True)
    one_of = serializers.ListField(
        child=GameParameterSerializer(many=True),
        help_text="Alternative parameter groups, exactly one of which is given (`leave`).",
    )


class GameListApi(APIView):
    """The five games: their default settings and every action type with its parameters.

    This is what a client needs to build actions for `POST .../record/`; which of them are
    legal now, and for whom, is in the table's state.
    """

    class OutputSerializer(serializers.Serializer[Any]):
        code = serializers.CharField()
        title = serializers.CharField()
        default_seat_count = serializers.IntegerField()
        default_settings = ObjectField(
            allow_null=True,
            help_text=(
                "The settings a table gets when none is given (§1 of the game's rules); null "
                "when one has no default and must be set (lansquenet classique's base_stake)."
            ),
        )
        actions = GameActionSerializer(many=True)

    @extend_schema(responses=OutputSerializer(many=True), tags=["games"])
    def get(self, request: Request) -> Response:
        games = []
        for code in GAMES:
            game = game_get(code)
            actions = [
                {
                    "type": spec.type,
                    "parameters": _parameters(spec.required, True)
                    + _parameters(spec.optional, False),
                    "one_of": [_parameters(group, True) for group in spec.one_of],
                }
                for spec in game.actions.values()
            ]
            games.append(
                {
                    "code": code,
                    "title": game.title,
                    "default_seat_count": game.default_seat_count,
                    "default_settings": _defaults(code, game.default_seat_count),
                    "actions": actions,
                }
            )
        return Response(self.OutputSerializer(games, many=True).data)


def _defaults(code: str, seat_count: int) -> dict[str, Any] | None:
    try:
        return dict(settings_validate(code, {}, seat_count))
    except RuleError:
        return None


def _parameters(params: Mapping[str, Any], required: bool) -> list[dict[str, Any]]:
    return [
        {"name": name, "kind": say(param.describe), "required": required}
        for name, param in params.items()
    ]
