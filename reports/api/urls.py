"""The settlement reports' API: read, download, sign off, re-run; the registers'."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, include, path, register_converter

from reports.api import audit, odds, registers, views


class ReportFileNameConverter:
    """A settlement report's file name in a URL (`settlement.pdf`, `players.csv`, …)."""

    regex = views.FILE_NAME_PATTERN

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(ReportFileNameConverter, "report_file_name")

_report = "settlement-reports/<uuid:report_id>/"
_file = f"{_report}files/<report_file_name:name>"

# The registers of the arrêté du 14 mai 2007 (docs/registers.md), under `registers/`.
_registers: list[URLPattern | URLResolver] = [
    path("", registers.RegisterListApi.as_view(), name="register-list"),
    path("<uuid:register_id>/", registers.RegisterDetailApi.as_view(), name="register-detail"),
    path("<uuid:key>/rectify/", registers.RegisterRectifyApi.as_view(), name="register-rectify"),
    path("journees/<str:key>/sign/", registers.JourneeSignApi.as_view(), name="journee-sign"),
    path("months/<str:key>/close/", registers.MonthCloseApi.as_view(), name="month-close"),
]

urlpatterns: list[URLPattern | URLResolver] = [
    path("settlement-reports/", views.ReportListApi.as_view(), name="report-list"),
    path(_report, views.ReportDetailApi.as_view(), name="report-detail"),
    path(_file, views.ReportFileApi.as_view(), name="report-file"),
    path(f"{_report}sign-off/", views.ReportSignOffApi.as_view(), name="report-sign-off"),
    path(f"{_report}rerun/", views.ReconciliationRerunApi.as_view(), name="report-rerun"),
    path(f"{_report}counts/", registers.CountCreateApi.as_view(), name="count-create"),
    path("odds/audit/", odds.OddsAuditApi.as_view(), name="odds-audit"),
    path("registers/", include(_registers)),
    path("audit-log/", audit.AuditLogApi.as_view(), name="audit-log"),
    path("alerts/", audit.AlertListApi.as_view(), name="alert-list"),
    path(
        "alerts/<uuid:alert_id>/acknowledge/",
        audit.AlertAcknowledgeApi.as_view(),
        name="alert-acknowledge",
    ),
    path("audit/coups/<uuid:public_id>/", audit.CoupReplayApi.as_view(), name="audit-coup"),
]
