"""The audit log for scripts: the auditor's filters and keyset pages, as on the audit log
screen (reports/audit/views.py; docs/audit.md); a coup replayed, as on its screen."""

from __future__ import annotations

from dataclasses import is_dataclass
from datetime import datetime
from typing import Any, cast, get_args, get_origin, get_type_hints
from uuid import UUID

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from establishment.errors import NotFoundError
from establishment.http.fields import UtcDateTimeField
from establishment.http.permissions import READ_REPORTS
from establishment.http.schema import MAY_REFUSE, post_schema
from establishment.http.serializers import query_validated, written
from establishment.staff import role_required
from reports.audit.alerts import REASON_MAX, alert_acknowledge, alert_text, alerts_for
from reports.audit.coup import coup_replay_get
from reports.audit.log import (
    MAX_PAGE_SIZE,
    PAGE_SIZE,
    AuditLogFilter,
    audit_log_page,
    audit_rows,
)
from reports.audit.models import Acknowledgement, Alert
from reports.audit.replayed import BookLine, Books, CoupReplay, SabotCounts


def _optional_text(most: int, about: str) -> serializers.CharField:
    """A text query parameter that may be left out or empty (every row)."""
    return serializers.CharField(
        max_length=most, required=False, default="", allow_blank=True, help_text=about
    )


class AuditLogQuerySerializer(serializers.Serializer[Any]):
    actor = _optional_text(150, "Only this person's rows (a username).")
    table = serializers.IntegerField(
        min_value=1, max_value=2**31 - 1, required=False, help_text="Only this table's rows."
    )
    action = _optional_text(64, "Only this action (its exact name).")
    since = UtcDateTimeField(required=False, help_text="From this moment (ISO 8601), included.")
    until = UtcDateTimeField(required=False, help_text="Before this moment (ISO 8601), excluded.")
    cursor = _optional_text(200, "The `next` of the previous page.")
    page_size = serializers.IntegerField(
        min_value=1,
        max_value=MAX_PAGE_SIZE,
        required=False,
        default=PAGE_SIZE,
        help_text="How many rows a page holds.",
    )


class AuditLogRowSerializer(serializers.Serializer[Any]):
    public_id = serializers.UUIDField()
    at = serializers.DateTimeField()
    actor = serializers.CharField(help_text="The username of who did it.")
    action = serializers.CharField()
    client = serializers.CharField(help_text="The screen or API client it came from.")
    table = serializers.IntegerField(allow_null=True, help_text="The table's number, if any.")
    table_session = serializers.CharField(help_text="The séance's public id, or empty.")
    details = serializers.JSONField(source="data", help_text="What the change was about.")


class AuditLogApi(APIView):
    """The audit log, newest first, one page at a time: follow `next` for the page after."""

    @extend_schema(
        parameters=[AuditLogQuerySerializer],
        extensions={MAY_REFUSE: True},
        responses=inline_serializer(
            "AuditLogPage",
            {
                "results": AuditLogRowSerializer(many=True),
                "next": serializers.CharField(
                    allow_null=True, help_text="The cursor of the next page; null on the last."
                ),
            },
        ),
        tags=["audit"],
    )
    def get(self, request: Request) -> Response:
        role_required(request.user, READ_REPORTS, "read the audit log")
        given = query_validated(AuditLogQuerySerializer, request)
        wanted = AuditLogFilter(
            actor=given["actor"],
            table=given.get("table"),
            action=given["action"],
            since=given.get("since"),
            until=given.get("until"),
        )
        page = audit_log_page(wanted, cursor=given["cursor"], size=given["page_size"])
        rows = AuditLogRowSerializer(audit_rows(page.rows), many=True).data
        return Response({"results": rows, "next": page.next_cursor or None})


class AlertSerializer(serializers.Serializer[Any]):
    public_id = serializers.UUIDField()
    kind = serializers.CharField()
    key = serializers.CharField(help_text="What the alert is about; raised once per key.")
    text = serializers.SerializerMethodField(help_text="What it says, in your language.")
    raised_at = serializers.DateTimeField()
    gaming_session = serializers.UUIDField(source="gaming_session.public_id", allow_null=True)
    table = serializers.IntegerField(source="table_number", allow_null=True)
    detail = serializers.JSONField()
    acknowledged_by = serializers.SerializerMethodField()
    acknowledged_at = serializers.SerializerMethodField()
    reason = serializers.SerializerMethodField()

    def _ack(self, alert: Alert) -> Acknowledgement | None:
        return getattr(alert, "acknowledgement", None)

    def get_text(self, alert: Alert) -> str:
        return alert_text(alert)

    def get_acknowledged_by(self, alert: Alert) -> str | None:
        done = self._ack(alert)
        return done.by.get_username() if done else None

    def get_acknowledged_at(self, alert: Alert) -> datetime | None:
        done = self._ack(alert)
        return done.at if done else None

    def get_reason(self, alert: Alert) -> str | None:
        done = self._ack(alert)
        return done.reason if done else None


class AlertListApi(APIView):
    """The alerts your roles are shown: `state` open (the default), acknowledged or all."""

    class QuerySerializer(serializers.Serializer[Any]):
        state = serializers.ChoiceField(
            choices=["open", "acknowledged", "all"], required=False, default="open"
        )

    @extend_schema(
        parameters=[QuerySerializer],
        responses=AlertSerializer(many=True),
        tags=["audit"],
    )
    def get(self, request: Request) -> Response:
        state = query_validated(self.QuerySerializer, request)["state"]
        alerts = alerts_for(request.user, state=state)[:500]
        return Response(AlertSerializer(alerts, many=True).data)


@post_schema(responses=AlertSerializer, tags=["audit"])
class AlertAcknowledgeApi(APIView):
    """Acknowledge an alert, saying why (403 when your roles are not shown it, 409 when it is
    acknowledged already). The answer is the alert with its acknowledgement."""

    class InputSerializer(serializers.Serializer[Any]):
        reason = serializers.CharField(max_length=REASON_MAX)

    def post(self, request: Request, alert_id: UUID) -> Response:
        alert = Alert.objects.filter(public_id=alert_id).first()
        if alert is None:
            raise NotFoundError(_("No such alert."))
        written(alert_acknowledge, request, self.InputSerializer, alert=alert)
        fresh = Alert.objects.select_related("acknowledgement__by", "gaming_session").get(
            pk=alert.pk
        )
        return Response(AlertSerializer(fresh).data)


# -- a coup replayed (reports/audit/coup.py), as on the auditor's screen ----------------------


def _field(hint: Any, **options: Any) -> serializers.Field[Any, Any, Any, Any]:
    """The serializer field of a row's attribute, from its type."""
    arguments = get_args(hint)
    if type(None) in arguments:
        (inner,) = [a for a in arguments if a is not type(None)]
        return _field(inner, allow_null=True, **options)
    origin = get_origin(hint)
    if origin is list:
        return serializers.ListField(child=_field(arguments[0]), **options)
    if origin is dict:
        child = serializers.CharField() if arguments[1] is str else serializers.JSONField()
        return serializers.DictField(child=child, **options)
    if is_dataclass(hint):
        return _serializer_of(cast(type[Any], hint))(**options)
    made: serializers.Field[Any, Any, Any, Any] = _SCALARS[hint](**options)
    return made


_SCALARS: dict[Any, type[serializers.Field[Any, Any, Any, Any]]] = {
    int: serializers.IntegerField,
    str: serializers.CharField,
    bool: serializers.BooleanField,
    datetime: serializers.DateTimeField,
}
# What a row computes rather than holds, shown beside its fields.
_COMPUTED: dict[type[Any], dict[str, Any]] = {
    BookLine: {"differs": bool},
    Books: {"agrees": bool},
    SabotCounts: {"dealt_in_coup": int | None},
}


_MADE: dict[str, type[serializers.Serializer[Any]]] = {}


def _serializer_of(row: type[Any]) -> type[serializers.Serializer[Any]]:
    """A serializer of a row of `reports/audit/replayed.py`, field for field (made once): the
    API answers exactly what the screen shows."""
    name = f"Audit{row.__name__}"
    if name not in _MADE:
        hints = {**get_type_hints(row), **_COMPUTED.get(row, {})}
        fields = {key: _field(hint) for key, hint in hints.items()}
        made = type(name, (serializers.Serializer,), fields)
        _MADE[name] = cast(type[serializers.Serializer[Any]], made)
    return _MADE[name]


class CoupReplayApi(APIView):
    """A coup replayed: its journal lines with who, when, from where and the table's state
    after each, its money as the engine replays it against the books, its corrections and its
    sabot's counts; the same as the auditor's screen."""

    @extend_schema(responses=_serializer_of(CoupReplay), tags=["audit"])
    def get(self, request: Request, public_id: UUID) -> Response:
        role_required(request.user, READ_REPORTS, "read a coup's replay")
        replay = coup_replay_get(public_id=public_id)
        if replay is None:
            raise NotFoundError(_("No such coup."))
        return Response(_serializer_of(CoupReplay)(replay).data)
