"""The tables' API: tables, table sessions, seats, duty, sabots, play, coups and voids."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from tables.api import coups, games, play, tables

_session = "table-sessions/<uuid:table_session_id>/"

urlpatterns: list[URLPattern | URLResolver] = [
    path("games/", games.GameListApi.as_view(), name="games"),
    path(
        "gaming-sessions/<uuid:gaming_session_id>/close/",
        games.GamingSessionCloseApi.as_view(),
        name="gaming-session-close",
    ),
    # tables
    path("tables/", tables.TableListApi.as_view(), name="table-list"),
    path("tables/create/", tables.TableCreateApi.as_view(), name="table-create"),
    path("tables/<uuid:table_id>/", tables.TableDetailApi.as_view(), name="table-detail"),
    path("tables/<uuid:table_id>/update/", tables.TableUpdateApi.as_view(), name="table-update"),
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
    path(
        f"{_session}assignments/release/",
        tables.AssignmentReleaseApi.as_view(),
        name="assignment-release",
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
]
