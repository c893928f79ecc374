"""The audit log for scripts: the auditor's filters and keyset pages, as on the audit log
screen (reports/audit/views.py; docs/audit.md)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from establishment.http.permissions import READ_REPORTS
from establishment.staff import role_required
from reports.audit.log import (
    MAX_PAGE_SIZE,
    PAGE_SIZE,
    AuditLogFilter,
    audit_log_page,
    audit_rows,
)


class AuditLogQuerySerializer(serializers.Serializer[Any]):
    actor = serializers.CharField(max_length=150, required=False, default="", allow_blank=True)
    table = serializers.IntegerField(min_value=1, max_value=2**31 - 1, required=False)
    action = serializers.CharField(max_length=64, required=False, default="", allow_blank=True)
    since = serializers.DateTimeField(required=False)
    until = serializers.DateTimeField(required=False)
    cursor = serializers.CharField(max_length=200, required=False, default="", allow_blank=True)
    page_size = serializers.IntegerField(
        min_value=1, max_value=MAX_PAGE_SIZE, required=False, default=PAGE_SIZE
    )


class AuditRowSerializer(serializers.Serializer[Any]):
    public_id = serializers.UUIDField()
    at = serializers.DateTimeField()
    actor = serializers.CharField(help_text="The username of who did it.")
    action = serializers.CharField()
    client = serializers.CharField(help_text="The screen or API client it came from.")
    table = serializers.IntegerField(allow_null=True, help_text="The table's number, if any.")
    table_session = serializers.CharField(help_text="The séance's public id, or empty.")
    details = serializers.JSONField(source="data", help_text="What the change was about.")


_PARAMETERS = [
    OpenApiParameter("actor", str, description="Only this person's rows (a username)."),
    OpenApiParameter("table", int, description="Only the rows of this table (its number)."),
    OpenApiParameter("action", str, description="Only this action (its exact name)."),
    OpenApiParameter("since", str, description="From this moment (ISO 8601), included."),
    OpenApiParameter("until", str, description="Before this moment (ISO 8601), excluded."),
    OpenApiParameter("cursor", str, description="The `next` of the previous page."),
    OpenApiParameter("page_size", int, description=f"1 to {MAX_PAGE_SIZE}; {PAGE_SIZE}."),
]


class AuditLogApi(APIView):
    """The audit log, newest first, one page at a time: follow `next` for the page after."""

    @extend_schema(
        parameters=_PARAMETERS,
        responses=inline_serializer(
            "AuditLogPage",
            {
                "results": AuditRowSerializer(many=True),
                "next": serializers.CharField(
                    allow_null=True, help_text="The cursor of the next page; null on the last."
                ),
            },
        ),
        tags=["audit"],
    )
    def get(self, request: Request) -> Response:
        role_required(request.user, READ_REPORTS, "read the audit log")
        query = AuditLogQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        given = query.validated_data
        wanted = AuditLogFilter(
            actor=given["actor"],
            table=given.get("table"),
            action=given["action"],
            since=given.get("since"),
            until=given.get("until"),
        )
        page = audit_log_page(wanted, cursor=given["cursor"], size=given["page_size"])
        rows = AuditRowSerializer(audit_rows(page.rows), many=True).data
        return Response({"results": rows, "next": page.next_cursor or None})
