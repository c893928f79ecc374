"""The REST API (DRF): adapters over the same services and selectors as the console.

One URL per resource and per action on it (HackSoft's styleguide): lists are GET on the
collection, each write its own POST URL named after what it does. Public identifiers are UUIDs.
The schema is at `schema/`, with Swagger UI at `docs/` and Redoc at `redoc/`, both served by
the project (drf-spectacular-sidecar, no CDN).
"""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path, re_path, register_converter
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView

from casino.api import coups, establishment, ledger, play, reports, tables
from casino.api.errors import EndpointNotFoundApi

app_name = "api"


class ReportFileNameConverter:
    """A settlement report's file name in a URL (`settlement.pdf`, `players.csv`, …)."""

    regex = reports.FILE_NAME_PATTERN

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(ReportFileNameConverter, "report_file_name")

_session = "table-sessions/<uuid:table_session_id>/"

urlpatterns: list[URLPattern | URLResolver] = [
    # the schema and its two readers
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api:schema"), name="docs"),
    path("redoc/", SpectacularRedocView.as_view(url_name="api:schema"), name="redoc"),
    # who is calling
    path("auth/token/", establishment.AuthTokenCreateApi.as_view(), name="auth-token"),
    path("me/", establishment.MeApi.as_view(), name="me"),
    path("games/", establishment.GameListApi.as_view(), name="games"),
    # the establishment
    path("staff/", establishment.StaffListApi.as_view(), name="staff-list"),
    path("players/", establishment.PlayerListApi.as_view(), name="player-list"),
    path("players/create/", establishment.PlayerCreateApi.as_view(), name="player-create"),
    path(
        "players/<uuid:player_id>/",
        establishment.PlayerDetailApi.as_view(),
        name="player-detail",
    ),
    path(
        "gaming-sessions/",
        establishment.GamingSessionListApi.as_view(),
        name="gaming-session-list",
    ),
    path(
        "gaming-sessions/open/",
        establishment.GamingSessionOpenApi.as_view(),
        name="gaming-session-open",
    ),
    path(
        "gaming-sessions/<uuid:gaming_session_id>/",
        establishment.GamingSessionDetailApi.as_view(),
        name="gaming-session-detail",
    ),
    path(
        "gaming-sessions/<uuid:gaming_session_id>/close/",
        establishment.GamingSessionCloseApi.as_view(),
        name="gaming-session-close",
    ),
    # tables
    path("tables/", tables.TableListApi.as_view(), name="table-list"),
    path("tables/create/", tables.TableCreateApi.as_view(), name="table-create"),
    path("tables/<uuid:table_id>/", tables.TableDetailApi.as_view(), name="table-detail"),
    # table sessions
    path("table-sessions/", tables.TableSessionListApi.as_view(), name="table-session-list"),
    path("table-sessions/open/", tables.TableSessionOpenApi.as_view(), name="table-session-open"),
    path(_session, tables.TableSessionDetailApi.as_view(), name="table-session-detail"),
    path(f"{_session}close/", tables.TableSessionCloseApi.as_view(), name="table-session-close"),
    path(f"{_session}seats/", tables.SeatListApi.as_view(), name="seat-list"),
    path(f"{_session}assignments/", tables.AssignmentListApi.as_view(), name="assignment-list"),
    path(
        f"{_session}assignments/create/",
        tables.AssignmentCreateApi.as_view(),
        name="assignment-create",
    ),
    path(f"{_session}sabots/", tables.SabotListApi.as_view(), name="sabot-list"),
    path(f"{_session}sabots/open/", tables.SabotOpenApi.as_view(), name="sabot-open"),
    path(f"{_session}bank-tenures/", tables.BankTenureListApi.as_view(), name="bank-tenure-list"),
    # play
    path(f"{_session}state/", play.TableStateApi.as_view(), name="table-state"),
    path(f"{_session}events/", play.EventListApi.as_view(), name="event-list"),
    path(f"{_session}record/", play.ActionRecordApi.as_view(), name="action-record"),
    path(f"{_session}undo/", play.ActionUndoApi.as_view(), name="action-undo"),
    path(f"{_session}interrupt/", play.TableInterruptApi.as_view(), name="table-interrupt"),
    path(f"{_session}resume/", play.TableResumeApi.as_view(), name="table-resume"),
    path(f"{_session}open-coup/void/", play.OpenCoupVoidApi.as_view(), name="open-coup-void"),
    # coups and voids
    path(f"{_session}coups/", coups.CoupListApi.as_view(), name="coup-list"),
    path("coups/<uuid:coup_id>/", coups.CoupDetailApi.as_view(), name="coup-detail"),
    path("coups/<uuid:coup_id>/events/", coups.CoupEventListApi.as_view(), name="coup-events"),
    path(
        "coups/<uuid:coup_id>/void-request/",
        coups.VoidRequestCreateApi.as_view(),
        name="void-request-create",
    ),
    path("void-requests/", coups.VoidRequestListApi.as_view(), name="void-request-list"),
    path(
        "void-requests/<uuid:void_request_id>/",
        coups.VoidRequestDetailApi.as_view(),
        name="void-request-detail",
    ),
    path(
        "void-requests/<uuid:void_request_id>/decide/",
        coups.VoidDecideApi.as_view(),
        name="void-decide",
    ),
    # the books
    path("ledger/accounts/", ledger.AccountListApi.as_view(), name="account-list"),
    path(
        "ledger/accounts/<uuid:account_id>/",
        ledger.AccountDetailApi.as_view(),
        name="account-detail",
    ),
    path("ledger/transactions/", ledger.TransactionListApi.as_view(), name="transaction-list"),
    path(
        "ledger/transactions/<uuid:transaction_id>/",
        ledger.TransactionDetailApi.as_view(),
        name="transaction-detail",
    ),
    # settlement reports
    path("settlement-reports/", reports.ReportListApi.as_view(), name="report-list"),
    path(
        "settlement-reports/<uuid:report_id>/",
        reports.ReportDetailApi.as_view(),
        name="report-detail",
    ),
    path(
        "settlement-reports/<uuid:report_id>/files/<report_file_name:name>",
        reports.ReportFileApi.as_view(),
        name="report-file",
    ),
    # last: any other path under the API answers a 404 in the API's own shape
    re_path(r"^.*$", EndpointNotFoundApi.as_view(), name="not-found"),
]
