"""The establishment: who is calling, tokens, staff, players, gaming sessions, the games."""

from __future__ import annotations

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

from establishment.http.fields import client_of
from establishment.http.pagination import DateTimeFilter, ListApi, ListFilter, list_api
from establishment.http.permissions import as_user
from establishment.http.schema import post_schema
from establishment.http.serializers import GamingSessionOutputSerializer, allowed_body, validated
from establishment.models import GamingSession, Player
from establishment.roles import SUPERVISORS, Role
from establishment.services import gaming_session_open, player_create
from establishment.staff import role_required, roles_of

# -- who is calling, tokens ------------------------------------------------------------------


class AuthTokenCreateApi(APIView):
    """Exchange a staff member's username and password for the API token of that account.

    Send it as `Authorization: Token <key>` on every request. The same key is returned until
    it is revoked: a manager deactivating the account or resetting its password deletes it
    (`establishment.staffing`; the admin writes nothing).
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
        given = validated(self.InputSerializer, request)
        user = authenticate(
            request._request, username=given["username"], password=given["password"]
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


class StaffFilter(ListFilter):
    role = filters.ChoiceFilter(
        choices=Role.choices, field_name="groups__name", label="Only staff with this role."
    )
    username = filters.CharFilter(lookup_expr="iexact")


@list_api(filterset=StaffFilter, tags=["establishment"])
class StaffListApi(ListApi):
    """Staff members and their roles (to put a croupier on duty): inspectors and managers."""

    class OutputSerializer(serializers.ModelSerializer[User]):
        name = serializers.CharField(source="get_full_name")
        roles = serializers.SerializerMethodField()

        class Meta:
            model = User
            fields = ["username", "name", "roles"]

        def get_roles(self, user: User) -> list[str]:
            return sorted(g.name for g in user.groups.all() if g.name in Role.values)

    def get(self, request: Request) -> Response:
        role_required(request.user, SUPERVISORS, "list the staff")
        staff = (
            User.objects.filter(is_active=True, groups__name__in=Role.values)
            .distinct()
            .prefetch_related("groups")
            .order_by("username")
        )
        return self.page(request, staff)


# -- players ---------------------------------------------------------------------------------


class PlayerOutputSerializer(serializers.ModelSerializer[Player]):
    class Meta:
        model = Player
        fields = ["public_id", "member_number", "name", "created_at"]


class PlayerFilter(ListFilter):
    member_number = filters.CharFilter(lookup_expr="exact")
    name = filters.CharFilter(lookup_expr="icontains")


@list_api(PlayerOutputSerializer, filterset=PlayerFilter, tags=["establishment"])
class PlayerListApi(ListApi):
    """The house's players; `member_number` is the id the rules use for a player."""

    def get(self, request: Request) -> Response:
        return self.page(request, Player.objects.order_by("name", "member_number"))


class PlayerDetailApi(APIView):
    @extend_schema(responses=PlayerOutputSerializer, tags=["establishment"])
    def get(self, request: Request, player_id: UUID) -> Response:
        player = get_object_or_404(Player, public_id=player_id)
        return Response(PlayerOutputSerializer(player).data)


@post_schema(responses={201: PlayerOutputSerializer}, tags=["establishment"])
class PlayerCreateApi(APIView):
    """Register a player (inspectors and managers)."""

    class InputSerializer(serializers.Serializer[Any]):
        name = serializers.CharField(max_length=200)
        member_number = serializers.CharField(max_length=32)

    def post(self, request: Request) -> Response:
        given = allowed_body(self.InputSerializer, request, SUPERVISORS, "register a player")
        player = player_create(**given, created_by=as_user(request.user), client=client_of(request))
        return Response(PlayerOutputSerializer(player).data, status=status.HTTP_201_CREATED)


# -- gaming sessions -------------------------------------------------------------------------


class GamingSessionFilter(ListFilter):
    is_open = filters.BooleanFilter(
        field_name="closed_at", lookup_expr="isnull", label="Only open (true) or closed (false)."
    )
    opened_after = DateTimeFilter(field_name="opened_at", lookup_expr="gte")
    opened_before = DateTimeFilter(field_name="opened_at", lookup_expr="lt")


@list_api(GamingSessionOutputSerializer, filterset=GamingSessionFilter, tags=["gaming sessions"])
class GamingSessionListApi(ListApi):
    """Gaming sessions (séances), newest first."""

    def get(self, request: Request) -> Response:
        sessions = GamingSession.objects.select_related("opened_by", "closed_by")
        return self.page(request, sessions.order_by("-opened_at", "-pk"))


class GamingSessionDetailApi(APIView):
    @extend_schema(responses=GamingSessionOutputSerializer, tags=["gaming sessions"])
    def get(self, request: Request, gaming_session_id: UUID) -> Response:
        session = get_object_or_404(
            GamingSession.objects.select_related("opened_by", "closed_by"),
            public_id=gaming_session_id,
        )
        return Response(GamingSessionOutputSerializer(session).data)


@post_schema(responses={201: GamingSessionOutputSerializer}, tags=["gaming sessions"])
class GamingSessionOpenApi(APIView):
    """Open a gaming session (inspectors and managers)."""

    def post(self, request: Request) -> Response:
        role_required(request.user, SUPERVISORS, "open a gaming session")
        session = gaming_session_open(opened_by=as_user(request.user), client=client_of(request))
        return Response(GamingSessionOutputSerializer(session).data, status=status.HTTP_201_CREATED)
