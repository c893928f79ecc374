"""The registers through the API (docs/registers.md), as on their screens: read them, sign the
registre de contrôle of a journée, close the carnet des prélèvements of a month, approve a
rectification. Each signer gives his own password in the body, and may give the SHA-256 he read
(`expected_sha256`: refused when the register is no longer that one). Managers and auditors
read; managers sign.

A count's model 11 is stored by a worker once the count commits (`reports.freeze_model11`): the
count's answer is the model 11 when it is already there (201; tasks run in-process when no
broker is set), else 202 with the séance, whose model 11 is read at
`/api/registers/?kind=model_11&key=<table_session>` once stored."""

from __future__ import annotations

import json
from datetime import date
from typing import Any, ClassVar
from uuid import UUID

from django.contrib.auth.models import User
from django_filters import rest_framework as filters
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from establishment.errors import InvalidStateError, NotFoundError
from establishment.http.fields import client_of
from establishment.http.pagination import ListApi, ListFilter, list_api
from establishment.http.permissions import READ_REPORTS, as_user
from establishment.http.schema import post_schema
from establishment.http.serializers import allowed_body
from establishment.staff import role_required
from reports.counting import cagnotte_count_record
from reports.models import Register, RegisterKind, RegisterSignature
from reports.registers.builders import MODEL_11
from reports.registers.sources import register_latest, register_list
from reports.registers.store import (
    REGISTER_KEEPERS,
    journee_sign,
    month_close,
    register_rectify,
)
from reports.selectors import settlement_report_get
from tables.models import Table, TableSession

TAGS = ["registers"]


class SignatureSerializer(serializers.ModelSerializer[RegisterSignature]):
    signed_by = serializers.CharField(source="signed_by.username", read_only=True)

    class Meta:
        model = RegisterSignature
        fields = ["signed_by", "signed_at", "signed_as", "signed_sha256"]


class RegisterSerializer(serializers.ModelSerializer[Register]):
    signatures = SignatureSerializer(many=True, read_only=True)
    rectifies = serializers.UUIDField(source="rectifies.public_id", read_only=True, allow_null=True)

    class Meta:
        model = Register
        fields = [
            "public_id",
            "kind",
            "key",
            "version",
            "sha256",
            "previous_sha256",
            "stored_at",
            "rectifies",
            "reason",
            "signatures",
        ]


class RegisterFilter(ListFilter):
    kind = filters.ChoiceFilter(choices=RegisterKind.choices)
    key = filters.CharFilter()


@list_api(RegisterSerializer, filterset=RegisterFilter, tags=TAGS)
class RegisterListApi(ListApi):
    """The stored registers, the last stored first (filter by `kind` and `key`)."""

    def get(self, request: Request) -> Response:
        role_required(request.user, READ_REPORTS, "read the registers")
        return self.page(request, register_list().select_related("rectifies"))


class RegisterDetailApi(APIView):
    """A stored register: its signatures and its content (the canonical JSON whose SHA-256 is
    `sha256`)."""

    class OutputSerializer(RegisterSerializer):
        content = serializers.SerializerMethodField(help_text="The register as it was signed.")

        class Meta(RegisterSerializer.Meta):
            fields = [*RegisterSerializer.Meta.fields, "content"]

        def get_content(self, register: Register) -> dict[str, Any]:
            content: dict[str, Any] = json.loads(register.content)
            return content

    @extend_schema(responses=OutputSerializer, tags=TAGS)
    def get(self, request: Request, register_id: UUID) -> Response:
        role_required(request.user, READ_REPORTS, "read the registers")
        return Response(self.OutputSerializer(_register(register_id)).data)


def _register(register_id: UUID) -> Register:
    found = register_list().filter(public_id=register_id).first()
    if found is None:
        raise NotFoundError("No such register.")
    return found


class _PasswordSerializer(serializers.Serializer[Any]):
    password = serializers.CharField(help_text="The signer's own password, checked now.")


def _signed(register: Register) -> Response:
    found = _register(register.public_id)
    return Response(RegisterDetailApi.OutputSerializer(found).data, status=status.HTTP_201_CREATED)


class _SigningApi(APIView):
    """A signature through the API: a manager's role first, his body with his own password,
    one service; the answer is the register signed."""

    InputSerializer: ClassVar[type[serializers.Serializer[Any]]] = _PasswordSerializer
    what: ClassVar[str]

    def sign(self, body: dict[str, Any], user: User, client: str, key: Any) -> Register:
        raise NotImplementedError

    def post(self, request: Request, key: Any) -> Response:
        body = allowed_body(self.InputSerializer, request, REGISTER_KEEPERS, self.what)
        return _signed(self.sign(body, as_user(request.user), client_of(request), key))


SIGNED = {201: RegisterDetailApi.OutputSerializer}


class _JourneeSignSerializer(_PasswordSerializer):
    expected_sha256 = serializers.RegexField(
        r"^[0-9a-fA-F]{64}$",
        required=False,
        help_text=(
            "The SHA-256 of the registre the signer read (the draft's for the first signature, "
            "the stored register's for the second): refused with nothing changed when it is no "
            "longer that one. Without it, nothing is checked."
        ),
    )


@post_schema(responses=SIGNED, tags=TAGS)
class JourneeSignApi(_SigningApi):
    """Sign the registre de contrôle of a journée (model 12): the first manager's signature
    stores it, frozen; a second, another manager's, completes it."""

    InputSerializer = _JourneeSignSerializer
    what = "sign a register"

    def sign(self, body: dict[str, Any], user: User, client: str, key: Any) -> Register:
        try:
            journee = date.fromisoformat(str(key))
        except ValueError:
            raise InvalidStateError(
                "A journée is written YYYY-MM-DD, such as 2026-12-01."
            ) from None
        return journee_sign(
            journee=journee,
            user=user,
            password=body["password"],
            client=client,
            expected_sha256=body.get("expected_sha256"),
        )


@post_schema(responses=SIGNED, tags=TAGS)
class MonthCloseApi(_SigningApi):
    """Close the carnet des prélèvements of a month that is over (model 13)."""

    what = "close a register"

    def sign(self, body: dict[str, Any], user: User, client: str, key: Any) -> Register:
        return month_close(month=str(key), user=user, password=body["password"], client=client)


class _RectifySerializer(_PasswordSerializer):
    reason = serializers.CharField(max_length=500)


@post_schema(responses=SIGNED, tags=TAGS)
class RegisterRectifyApi(_SigningApi):
    """A rectification (art. 68): the register built again from the books, as a new version
    naming the one it corrects."""

    InputSerializer = _RectifySerializer
    what = "rectify a register"

    def sign(self, body: dict[str, Any], user: User, client: str, key: Any) -> Register:
        return register_rectify(register=_register(key), user=user, client=client, **body)


class CountAcceptedSerializer(serializers.Serializer[Any]):
    """A count stored whose model 11 a worker is still storing."""

    table_session = serializers.UUIDField(
        help_text="The séance counted; its model 11 is the register of kind model_11 with this key."
    )
    counted_chips = serializers.IntegerField()
    counted_at = serializers.DateTimeField()
    model_11 = serializers.CharField(help_text='"preparing": a worker is storing it.')


@post_schema(
    responses={201: RegisterDetailApi.OutputSerializer, 202: CountAcceptedSerializer}, tags=TAGS
)
class CountCreateApi(APIView):
    """The count of a séance's cagnotte box (art. 70), as on the settlement screen: entered once
    by a director who certifies it with his own password, before a witness who gives hers; the
    difference is booked. The séance's model 11 is then frozen by a worker: the answer is model
    11 when it is already stored (201), else the count accepted, its model 11 being prepared
    (202)."""

    class InputSerializer(_PasswordSerializer):
        table = serializers.IntegerField(min_value=1)
        table_session = serializers.UUIDField(required=False, allow_null=True)
        counted_chips = serializers.IntegerField(min_value=0)
        witness = serializers.CharField(max_length=150, help_text="The witness's user name.")
        witness_password = serializers.CharField()
        note = serializers.CharField(max_length=2000, required=False, allow_blank=True, default="")

    def post(self, request: Request, report_id: UUID) -> Response:
        body = allowed_body(self.InputSerializer, request, REGISTER_KEEPERS, "enter a count")
        report = settlement_report_get(public_id=report_id)
        table = Table.objects.filter(number=body["table"]).first()
        if report is None or table is None:
            raise NotFoundError("No such settlement report or table.")
        seance = None
        if body.get("table_session"):
            seance = TableSession.objects.filter(public_id=body["table_session"]).first()
        count = cagnotte_count_record(
            report=report,
            table=table,
            table_session=seance,
            counted_chips=body["counted_chips"],
            counted_by=as_user(request.user),
            password=body["password"],
            witness=User.objects.filter(username=body["witness"]).first(),
            witness_password=body["witness_password"],
            note=body["note"],
            client=client_of(request),
        )
        frozen = register_latest(kind=MODEL_11, key=str(count.table_session.public_id))
        if frozen is not None:
            return _signed(frozen)
        accepted = {
            "table_session": count.table_session.public_id,
            "counted_chips": count.counted_chips,
            "counted_at": count.counted_at,
            "model_11": "preparing",
        }
        return Response(CountAcceptedSerializer(accepted).data, status=status.HTTP_202_ACCEPTED)
