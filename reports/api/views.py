"""Settlement reports: their status and content, the files to download, the manager's sign-off
(with his password) and the auditor's re-run of the reconciliation, as on the settlement
screens (the counts: reports/api/registers.py).

The report of a gaming session is built by a worker once the session is closed
(`reports.tasks.settle_session`). Managers and auditors read, as on those screens.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any
from uuid import UUID

from django.http import HttpResponse
from django_filters import rest_framework as filters
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.negotiation import BaseContentNegotiation
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from establishment.errors import NotFoundError
from establishment.http.fields import client_of
from establishment.http.pagination import ListApi, ListFilter, list_api
from establishment.http.permissions import READ_REPORTS, as_user
from establishment.http.schema import post_schema
from establishment.http.serializers import written
from establishment.staff import role_required
from reports.models import ReconciliationRun, ReportFile, ReportStatus, SettlementReport
from reports.selectors import settlement_report_get, settlement_report_list
from reports.services import reconciliation_rerun, report_sign_off

# A stored file's name (`settlement.pdf`, `players.csv`, …: the report lists them).
FILE_NAME_PATTERN = r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}"
FILE_MEDIA_TYPES = ("application/pdf", "text/csv")


class ReportFileSerializer(serializers.ModelSerializer[ReportFile]):
    size = serializers.SerializerMethodField(help_text="Bytes.")

    class Meta:
        model = ReportFile
        fields = ["name", "media_type", "sha256", "size"]

    def get_size(self, stored: ReportFile) -> int:
        return len(bytes(stored.data))


class SignOffSerializer(serializers.Serializer[Any]):
    signed_by = serializers.CharField(source="signed_by.username")
    signed_at = serializers.DateTimeField()
    report_sha256 = serializers.CharField()
    signed_sha256 = serializers.CharField()


class ReportOutputSerializer(serializers.ModelSerializer[SettlementReport]):
    gaming_session = serializers.UUIDField(source="gaming_session.public_id", read_only=True)
    sign_off = SignOffSerializer(read_only=True, allow_null=True)

    class Meta:
        model = SettlementReport
        fields = [
            "public_id",
            "gaming_session",
            "status",
            "attempts",
            "requested_at",
            "started_at",
            "generated_at",
            "sha256",
            "reconciled",
            "error",
            "sign_off",
        ]


class ReportFilter(ListFilter):
    status = filters.ChoiceFilter(choices=ReportStatus.choices)
    gaming_session = filters.UUIDFilter(field_name="gaming_session__public_id")


@list_api(ReportOutputSerializer, filterset=ReportFilter, tags=["settlement reports"])
class ReportListApi(ListApi):
    """Settlement reports, newest gaming session first."""

    def get(self, request: Request) -> Response:
        role_required(request.user, READ_REPORTS, "read settlement reports")
        reports = settlement_report_list().select_related("sign_off__signed_by")
        return self.page(request, reports)


def _report(request: Request, report_id: UUID) -> SettlementReport:
    role_required(request.user, READ_REPORTS, "read settlement reports")
    report = settlement_report_get(public_id=report_id)
    if report is None:
        raise NotFoundError("No such settlement report.")
    return report


class ReportDetailApi(APIView):
    """A settlement report: its status, and once ready its content (the canonical JSON whose
    SHA-256 is `sha256`) and the files a worker stored."""

    class OutputSerializer(ReportOutputSerializer):
        content = serializers.SerializerMethodField(
            help_text="The report itself (canonical JSON); null until it is ready."
        )
        files = ReportFileSerializer(many=True, read_only=True)

        class Meta(ReportOutputSerializer.Meta):
            fields = [*ReportOutputSerializer.Meta.fields, "content", "files"]

        def get_content(self, report: SettlementReport) -> dict[str, Any] | None:
            if report.status != ReportStatus.READY:
                return None
            content: dict[str, Any] = json.loads(report.content)
            return content

    @extend_schema(responses=OutputSerializer, tags=["settlement reports"])
    def get(self, request: Request, report_id: UUID) -> Response:
        return Response(self.OutputSerializer(_report(request, report_id)).data)


class _FirstRenderer(BaseContentNegotiation):
    """Errors are JSON whatever the client accepts; a file is sent as it was stored."""

    def select_parser(self, request: Any, parsers: Any) -> Any:
        return parsers[0]

    def select_renderer(
        self, request: Any, renderers: Iterable[BaseRenderer], format_suffix: str | None = None
    ) -> tuple[BaseRenderer, str]:
        first = next(iter(renderers))
        return first, str(first.media_type)


class ReportFileApi(APIView):
    """Download a file of a settlement report (the PDF as built, the CSV files); its SHA-256
    is in the `X-Content-SHA256` header."""

    content_negotiation_class = _FirstRenderer

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "name",
                {"type": "string", "pattern": f"^{FILE_NAME_PATTERN}$"},
                OpenApiParameter.PATH,
                description="A file the report lists in `files` (`settlement.pdf`, …).",
            )
        ],
        responses={
            (200, media_type): OpenApiResponse(OpenApiTypes.BINARY)
            for media_type in FILE_MEDIA_TYPES
        },
        tags=["settlement reports"],
    )
    def get(self, request: Request, report_id: UUID, name: str) -> HttpResponse:
        report = _report(request, report_id)
        stored = report.files.filter(name=name).first()
        if stored is None:
            raise NotFoundError("No such file in this report (it may not be ready yet).")
        response = HttpResponse(bytes(stored.data), content_type=stored.media_type)
        stamp = f"{report.gaming_session.opened_at:%Y%m%d}"
        response["Content-Disposition"] = f'attachment; filename="settlement-{stamp}-{name}"'
        response["X-Content-SHA256"] = stored.sha256
        return response


# -- what the manager and the auditor do to a report ------------------------------------------


@post_schema(responses=ReportDetailApi.OutputSerializer, tags=["settlement reports"])
class ReportSignOffApi(APIView):
    """The manager signs the report off, as on the settlement screen, once every table's
    cagnotte is counted (409 otherwise), proving who he is with his own password (403
    `confirmation_failed` when it is wrong). The answer is the report with its sign-off."""

    class InputSerializer(serializers.Serializer[Any]):
        password = serializers.CharField(
            max_length=128,
            write_only=True,
            trim_whitespace=False,
            help_text="The manager's own password.",
        )

    def post(self, request: Request, report_id: UUID) -> Response:
        report = _report(request, report_id)
        written(report_sign_off, request, self.InputSerializer, report=report)
        fresh = settlement_report_list().select_related("sign_off__signed_by").get(pk=report.pk)
        return Response(ReportDetailApi.OutputSerializer(fresh).data)


class ReconciliationRunSerializer(serializers.ModelSerializer[ReconciliationRun]):
    class Meta:
        model = ReconciliationRun
        fields = ["run_at", "agrees", "same_content", "sha256", "differences"]


@post_schema(
    responses={201: ReconciliationRunSerializer},
    tags=["settlement reports"],
)
class ReconciliationRerunApi(APIView):
    """An auditor or a manager rebuilds the report from the books as they are now, as on the
    settlement screen: whether the books still agree and the content still has its SHA-256,
    and the differences found."""

    def post(self, request: Request, report_id: UUID) -> Response:
        run = reconciliation_rerun(
            report=_report(request, report_id),
            user=as_user(request.user),
            client=client_of(request),
        )
        return Response(ReconciliationRunSerializer(run).data, status=201)
