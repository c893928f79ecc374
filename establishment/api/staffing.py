"""The staff's writes (managers): a new account, its roles, deactivating and reactivating it, a
temporary password (issue 13). Each parses, calls one service of `establishment.staffing` and
renders (docs/conventions.md, rule 1); a password is never answered back."""

from __future__ import annotations

from typing import Any, ClassVar

from django.contrib.auth.models import User
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from establishment.access_review import access_review
from establishment.http.fields import client_of
from establishment.http.permissions import as_user
from establishment.http.schema import post_schema
from establishment.http.serializers import allowed_body, validated
from establishment.lockout import locked_until, staff_unlock
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

REVIEWERS = frozenset({Role.MANAGER, Role.AUDITOR})


class StaffMemberOutputSerializer(serializers.ModelSerializer[User]):
    name = serializers.CharField(source="get_full_name")
    roles = serializers.SerializerMethodField()
    locked_until = serializers.SerializerMethodField(
        help_text="When the lockout for failed logins ends; null when not locked out."
    )

    class Meta:
        model = User
        fields = [
            "username",
            "name",
            "first_name",
            "last_name",
            "roles",
            "is_active",
            "locked_until",
        ]

    def get_roles(self, user: User) -> list[str]:
        held = {group.name for group in user.groups.all()}
        return [role for role in Role.values if role in held]

    @extend_schema_field(serializers.DateTimeField(allow_null=True))
    def get_locked_until(self, user: User) -> str | None:
        until = locked_until(user.get_username())
        return serializers.DateTimeField().to_representation(until) if until else None


class RolesField(serializers.ListField):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(child=serializers.ChoiceField(choices=Role.choices), **kwargs)


def _member(username: str) -> User:
    return get_object_or_404(User.objects.prefetch_related("groups"), username=username)


def _answer(username: str, status_code: int = status.HTTP_200_OK) -> Response:
    return Response(StaffMemberOutputSerializer(_member(username)).data, status=status_code)


def _password_field() -> serializers.CharField:
    return serializers.CharField(
        max_length=128, write_only=True, trim_whitespace=False, style={"input_type": "password"}
    )


@post_schema(responses={201: StaffMemberOutputSerializer}, tags=["establishment"])
class StaffCreateApi(APIView):
    """A new member of staff with his roles and an initial password (managers). The password
    is checked by the project's validators: a refused one answers 422 with their words."""

    class InputSerializer(serializers.Serializer[Any]):
        username = serializers.CharField(max_length=150)
        first_name = serializers.CharField(max_length=150, required=False, default="")
        last_name = serializers.CharField(max_length=150, required=False, default="")
        roles = RolesField(required=False, default=list)
        password = _password_field()

    def post(self, request: Request) -> Response:
        given = allowed_body(self.InputSerializer, request, MANAGERS, "create a member of staff")
        created = staff_create(**given, created_by=as_user(request.user), client=client_of(request))
        return _answer(created.username, status.HTTP_201_CREATED)


class _MemberChangeApi(APIView):
    """A manager's change to the member of staff the URL names: the manager is asked for
    first (403), then the member (404), then the body, when `InputSerializer` reads one (400);
    each change calls its own service of `establishment.staffing`, and the answer is the member
    as he is now."""

    action: ClassVar[str]  # what the refusal says the caller may not do
    InputSerializer: ClassVar[type[serializers.Serializer[Any]] | None] = None

    def post(self, request: Request, username: str) -> Response:
        role_required(request.user, MANAGERS, self.action)
        member = _member(username)
        given = validated(self.InputSerializer, request) if self.InputSerializer else {}
        self.change(member, given, by=as_user(request.user), client=client_of(request))
        return _answer(username)

    def change(self, member: User, given: dict[str, Any], *, by: User, client: str) -> None:
        raise NotImplementedError


_member_change = post_schema(responses=StaffMemberOutputSerializer, tags=["establishment"])


@_member_change
class StaffRolesSetApi(_MemberChangeApi):
    """Give a member of staff exactly these roles (managers); nobody changes his own (409)."""

    action = "set the roles of a member of staff"

    class InputSerializer(serializers.Serializer[Any]):
        roles = RolesField(allow_empty=True)

    def change(self, member: User, given: dict[str, Any], *, by: User, client: str) -> None:
        staff_roles_set(staff=member, roles=given["roles"], set_by=by, client=client)


@_member_change
class StaffDeactivateApi(_MemberChangeApi):
    """Deactivate a member of staff (managers, not oneself: 409): his sessions end and his API
    tokens are deleted at once."""

    action = "deactivate a member of staff"

    def change(self, member: User, given: dict[str, Any], *, by: User, client: str) -> None:
        staff_deactivate(staff=member, deactivated_by=by, client=client)


@_member_change
class StaffReactivateApi(_MemberChangeApi):
    """Let a deactivated member of staff log in again (managers)."""

    action = "reactivate a member of staff"

    def change(self, member: User, given: dict[str, Any], *, by: User, client: str) -> None:
        staff_reactivate(staff=member, reactivated_by=by, client=client)


@_member_change
class StaffPasswordResetApi(_MemberChangeApi):
    """Set a temporary password for a member of staff (managers; one's own: 403). His sessions
    end and his tokens are deleted; the validators' refusal answers 422."""

    action = "reset a password"

    class InputSerializer(serializers.Serializer[Any]):
        password = _password_field()

    def change(self, member: User, given: dict[str, Any], *, by: User, client: str) -> None:
        staff_password_reset(staff=member, password=given["password"], reset_by=by, client=client)


@_member_change
class StaffUnlockApi(_MemberChangeApi):
    """Lift the lockout of a member of staff after too many failed logins (managers); one who
    is not locked out: 409."""

    action = "unlock an account"

    def change(self, member: User, given: dict[str, Any], *, by: User, client: str) -> None:
        staff_unlock(staff=member, unlocked_by=by, client=client)


class AccessReviewApi(APIView):
    """The access review (managers, auditors): every account, its roles, whether it may log
    in, its last login, its lockout, and whether it is active but unused for
    `ACCESS_REVIEW_UNUSED_DAYS` (90) days; the unused first (the screen's CSV holds the
    same)."""

    class OutputSerializer(serializers.Serializer[Any]):
        username = serializers.CharField()
        name = serializers.CharField()
        roles = serializers.ListField(child=serializers.ChoiceField(choices=Role.choices))
        is_active = serializers.BooleanField()
        last_login = serializers.DateTimeField(allow_null=True)
        date_joined = serializers.DateTimeField()
        locked_until = serializers.DateTimeField(allow_null=True)
        unused = serializers.BooleanField()

    @extend_schema(responses={200: OutputSerializer(many=True)}, tags=["establishment"])
    def get(self, request: Request) -> Response:
        role_required(request.user, REVIEWERS, "review the access")
        return Response(self.OutputSerializer(access_review(), many=True).data)
