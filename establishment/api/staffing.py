"""The staff's writes (managers): a new account, its roles, deactivating and reactivating it, a
temporary password (issue 13). Each parses, calls one service of `establishment.staffing` and
renders (docs/conventions.md, rule 1); a password is never answered back."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from establishment.http.fields import client_of
from establishment.http.permissions import as_user
from establishment.http.serializers import validated
from establishment.roles import Role
from establishment.staff import role_required
from establishment.staffing import (
    MANAGERS,
    staff_create,
    staff_deactivate,
    staff_password_reset,
    staff_reactivate,
    staff_roles_set,
)


class StaffMemberOutputSerializer(serializers.ModelSerializer[User]):
    name = serializers.CharField(source="get_full_name")
    roles = serializers.SerializerMethodField()

    class Meta:
        model = User
        fields = ["username", "name", "first_name", "last_name", "roles", "is_active"]

    def get_roles(self, user: User) -> list[str]:
        held = {group.name for group in user.groups.all()}
        return [role for role in Role.values if role in held]


class RolesField(serializers.ListField):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(child=serializers.ChoiceField(choices=Role.choices), **kwargs)


def _member(username: str) -> User:
    return get_object_or_404(User.objects.prefetch_related("groups"), username=username)


def _answer(username: str, status_code: int = status.HTTP_200_OK) -> Response:
    return Response(StaffMemberOutputSerializer(_member(username)).data, status=status_code)


class StaffCreateApi(APIView):
    """A new member of staff with his roles and an initial password (managers). The password
    is checked by the project's validators: a refused one answers 422 with their words."""

    class InputSerializer(serializers.Serializer[Any]):
        username = serializers.CharField(max_length=150)
        first_name = serializers.CharField(max_length=150, required=False, default="")
        last_name = serializers.CharField(max_length=150, required=False, default="")
        roles = RolesField(required=False, default=list)
        password = serializers.CharField(
            max_length=128, write_only=True, trim_whitespace=False, style={"input_type": "password"}
        )

    @extend_schema(
        request=InputSerializer,
        responses={201: StaffMemberOutputSerializer},
        tags=["establishment"],
    )
    def post(self, request: Request) -> Response:
        role_required(request.user, MANAGERS, "create a member of staff")
        data = validated(self.InputSerializer, request)
        created = staff_create(**data, created_by=as_user(request.user), client=client_of(request))
        return _answer(created.username, status.HTTP_201_CREATED)


class StaffRolesSetApi(APIView):
    """Give a member of staff exactly these roles (managers); a manager keeps his own manager
    role (409)."""

    class InputSerializer(serializers.Serializer[Any]):
        roles = RolesField(allow_empty=True)

    @extend_schema(
        request=InputSerializer, responses=StaffMemberOutputSerializer, tags=["establishment"]
    )
    def post(self, request: Request, username: str) -> Response:
        role_required(request.user, MANAGERS, "set the roles of a member of staff")
        member = _member(username)
        data = validated(self.InputSerializer, request)
        staff_roles_set(
            staff=member,
            roles=data["roles"],
            set_by=as_user(request.user),
            client=client_of(request),
        )
        return _answer(username)


class StaffDeactivateApi(APIView):
    """Deactivate a member of staff (managers, not oneself: 409): his sessions end and his API
    tokens are deleted at once."""

    @extend_schema(request=None, responses=StaffMemberOutputSerializer, tags=["establishment"])
    def post(self, request: Request, username: str) -> Response:
        role_required(request.user, MANAGERS, "deactivate a member of staff")
        staff_deactivate(
            staff=_member(username),
            deactivated_by=as_user(request.user),
            client=client_of(request),
        )
        return _answer(username)


class StaffReactivateApi(APIView):
    """Let a deactivated member of staff log in again (managers)."""

    @extend_schema(request=None, responses=StaffMemberOutputSerializer, tags=["establishment"])
    def post(self, request: Request, username: str) -> Response:
        role_required(request.user, MANAGERS, "reactivate a member of staff")
        staff_reactivate(
            staff=_member(username),
            reactivated_by=as_user(request.user),
            client=client_of(request),
        )
        return _answer(username)


class StaffPasswordResetApi(APIView):
    """Set a temporary password for a member of staff (managers; one's own: 403). His sessions
    end and his tokens are deleted; the validators' refusal answers 422."""

    class InputSerializer(serializers.Serializer[Any]):
        password = serializers.CharField(
            max_length=128, write_only=True, trim_whitespace=False, style={"input_type": "password"}
        )

    @extend_schema(
        request=InputSerializer, responses=StaffMemberOutputSerializer, tags=["establishment"]
    )
    def post(self, request: Request, username: str) -> Response:
        role_required(request.user, MANAGERS, "reset a password")
        member = _member(username)
        data = validated(self.InputSerializer, request)
        staff_password_reset(
            staff=member,
            password=data["password"],
            reset_by=as_user(request.user),
            client=client_of(request),
        )
        return _answer(username)
