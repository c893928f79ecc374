"""The establishment: who is calling, tokens, staff, players, gaming sessions, the games."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from uuid import UUID

from django.contrib.auth import authenticate
from django.contrib.auth.models import User
from django.shortcuts import get_object_or_404
from django_filters import rest_framework as filters
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.authentication import BaseAuthentication
from rest_framework.authtoken.models import Token
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.api.fields import ObjectField, UsernameField, client_of
from casino.api.pagination import DateTimeFilter, ListApi
from casino.api.permissions import as_user
from casino.models import GamingSession, Player
from casino.roles import SUPERVISORS, Role
from casino.services import gaming_session_open, player_create
from casino.staff import role_required, roles_of
from tables.engine import GAMES, RuleError, game_get, settings_validate
from tables.services import gaming_session_close
from tables.words import say

# -- who is calling, tokens ------------------------------------------------------------------


class AuthTokenCreateApi(APIView):
    """Exchange a staff member's username and password for the API token of that account.

    Send it as `Authorization: Token <key>` on every request. The same key is returned until
    it is revoked (by an administrator, in the admin).
    """

    # No authentication here: a client holding a revoked token must still be able to log in.
    authentication_classes: list[type[BaseAuthentication]] = []
    permission_classes = [AllowAny]

    class InputSerializer(serializers.Serializer[Any]):
        username = serializers.CharField(max_length=150)
        password = serializers.CharField(max_length=128, style={"input_type": "password"})

    class OutputSerializer(serializers.Serializer[Any]):
        token = serializers.CharField()
        username = serializers.CharField()

    @extend_schema(
        request=InputSerializer, responses={200: OutputSerializer}, auth=[], tags=["auth"]
    )
    def post(self, request: Request) -> Response:
        given = self.InputSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        user = authenticate(
            request._request,
            username=given.validated_data["username"],
            password=given.validated_data["password"],
        )
        if user is None or not user.is_active:
            raise exceptions.AuthenticationFailed("These credentials are not valid.")
        token, _created = Token.objects.get_or_create(user=user)
        return Response(self.OutputSerializer({"token": token.key, "username": user.username}).data)

    def get_authenticate_header(self, request: Request) -> str:
        return "Token"  # bad credentials: 401, and how to authenticate next


class MeApi(APIView):
    """The account calling: its username and roles (what it may do)."""

    class OutputSerializer(serializers.Serializer[Any]):
        username = serializers.CharField()
        name = serializers.CharField()
        roles = serializers.ListField(child=serializers.ChoiceField(choices=Role.choices))

    @extend_schema(responses=OutputSerializer, tags=["auth"])
    def get(self, request: Request) -> Response:
        user = as_user(request.user)
        data = {
            "username": user.username,
            "name": user.get_full_name(),
            "roles": sorted(roles_of(user)),
        }
        return Response(self.OutputSerializer(data).data)


# -- staff -----------------------------------------------------------------------------------


class StaffFilter(filters.FilterSet):
    role = filters.ChoiceFilter(
        choices=Role.choices, field_name="groups__name", label="Only staff with this role."
    )
    username = filters.CharFilter(lookup_expr="iexact")

    class Meta:
        model = User
        fields: list[str] = []


class StaffListApi(ListApi):
    """Staff members and their roles (to put a croupier on duty): inspectors and managers."""

    filterset_class = StaffFilter
    queryset = User.objects.none()

    class OutputSerializer(serializers.ModelSerializer[User]):
        name = serializers.CharField(source="get_full_name")
        roles = serializers.SerializerMethodField()

        class Meta:
            model = User
            fields = ["username", "name", "roles"]

        def get_roles(self, user: User) -> list[str]:
            return sorted(g.name for g in user.groups.all() if g.name in Role.values)

    @extend_schema(responses=OutputSerializer(many=True), tags=["establishment"])
    def get(self, request: Request) -> Response:
        role_required(request.user, SUPERVISORS, "list the staff")
        staff = (
            User.objects.filter(is_active=True, groups__name__in=Role.values)
            .distinct()
            .prefetch_related("groups")
            .order_by("username")
        )
        return self.page(request, staff, self.OutputSerializer)


# -- players ---------------------------------------------------------------------------------


class PlayerOutputSerializer(serializers.ModelSerializer[Player]):
    class Meta:
        model = Player
        fields = ["public_id", "member_number", "name", "created_at"]


class PlayerFilter(filters.FilterSet):
    member_number = filters.CharFilter(lookup_expr="exact")
    name = filters.CharFilter(lookup_expr="icontains")

    class Meta:
        model = Player
        fields: list[str] = []


class PlayerListApi(ListApi):
    """The house's players; `member_number` is the id the rules use for a player."""

    filterset_class = PlayerFilter
    queryset = Player.objects.none()

    @extend_schema(responses=PlayerOutputSerializer(many=True), tags=["establishment"])
    def get(self, request: Request) -> Response:
        return self.page(
            request, Player.objects.order_by("name", "member_number"), PlayerOutputSerializer
        )


class PlayerDetailApi(APIView):
    @extend_schema(responses=PlayerOutputSerializer, tags=["establishment"])
    def get(self, request: Request, player_id: UUID) -> Response:
        player = get_object_or_404(Player, public_id=player_id)
        return Response(PlayerOutputSerializer(player).data)


class PlayerCreateApi(APIView):
    """Register a player (inspectors and managers)."""

    class InputSerializer(serializers.Serializer[Any]):
        name = serializers.CharField(max_length=200)
        member_number = serializers.CharField(max_length=32)

    @extend_schema(
        request=InputSerializer,
        responses={201: PlayerOutputSerializer},
        tags=["establishment"],
    )
    def post(self, request: Request) -> Response:
        role_required(request.user, SUPERVISORS, "register a player")
        given = self.InputSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        player = player_create(
            **given.validated_data, created_by=as_user(request.user), client=client_of(request)
        )
        return Response(PlayerOutputSerializer(player).data, status=status.HTTP_201_CREATED)


# -- gaming sessions -------------------------------------------------------------------------


class GamingSessionOutputSerializer(serializers.ModelSerializer[GamingSession]):
    opened_by = UsernameField(source="opened_by.username")
    closed_by = UsernameField(source="closed_by.username", allow_null=True)
    is_open = serializers.BooleanField(read_only=True)

    class Meta:
        model = GamingSession
        fields = ["public_id", "opened_at", "opened_by", "closed_at", "closed_by", "is_open"]


class GamingSessionFilter(filters.FilterSet):
    is_open = filters.BooleanFilter(
        field_name="closed_at", lookup_expr="isnull", label="Only open (true) or closed (false)."
    )
    opened_after = DateTimeFilter(field_name="opened_at", lookup_expr="gte")
    opened_before = DateTimeFilter(field_name="opened_at", lookup_expr="lt")

    class Meta:
        model = GamingSession
        fields: list[str] = []


class GamingSessionListApi(ListApi):
    """Gaming sessions (séances), newest first."""

    filterset_class = GamingSessionFilter
    queryset = GamingSession.objects.none()

    @extend_schema(responses=GamingSessionOutputSerializer(many=True), tags=["gaming sessions"])
    def get(self, request: Request) -> Response:
        sessions = GamingSession.objects.select_related("opened_by", "closed_by").order_by(
            "-opened_at", "-pk"
        )
        return self.page(request, sessions, GamingSessionOutputSerializer)


class GamingSessionDetailApi(APIView):
    @extend_schema(responses=GamingSessionOutputSerializer, tags=["gaming sessions"])
    def get(self, request: Request, gaming_session_id: UUID) -> Response:
        session = get_object_or_404(
            GamingSession.objects.select_related("opened_by", "closed_by"),
            public_id=gaming_session_id,
        )
        return Response(GamingSessionOutputSerializer(session).data)


class GamingSessionOpenApi(APIView):
    """Open a gaming session (inspectors and managers)."""

    @extend_schema(
        request=None, responses={201: GamingSessionOutputSerializer}, tags=["gaming sessions"]
    )
    def post(self, request: Request) -> Response:
        role_required(request.user, SUPERVISORS, "open a gaming session")
        session = gaming_session_open(opened_by=as_user(request.user), client=client_of(request))
        return Response(GamingSessionOutputSerializer(session).data, status=status.HTTP_201_CREATED)


class GamingSessionCloseApi(APIView):
    """Close the night: every open table is closed first (reliquats returned, reserve fund
    divided), all or nothing; a table with a coup half-recorded stops it (`coup_in_progress`)."""

    @extend_schema(request=None, responses=GamingSessionOutputSerializer, tags=["gaming sessions"])
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
