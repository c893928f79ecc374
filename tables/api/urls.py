"""The tables' API: tables, table sessions, seats, duty, sabots, ticket books, play, coups and
voids."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from tables.api import stock, tickets
from tables.api.coups import (
    CoupDetailApi,
    CoupEventListApi,
    CoupListApi,
    VoidDecideApi,
    VoidRequestCreateApi,
    VoidRequestDetailApi,
    VoidRequestListApi,
)
from tables.api.games import GameListApi, GamingSessionCloseApi
from tables.api.play import (
    ActionRecordApi,
    ActionUndoApi,
    EventListApi,
    OpenCoupVoidApi,
    TableInterruptApi,
    TableResumeApi,
    TableStateApi,
)
from tables.api.tables import (
    AssignmentCreateApi,
    AssignmentListApi,
    AssignmentReleaseApi,
    BankTenureListApi,
    LevyChargeListApi,
    SabotListApi,
    SabotOpenApi,
    SeatListApi,
    TableCreateApi,
    TableDetailApi,
    TableListApi,
    TableSessionCloseApi,
    TableSessionDetailApi,
    TableSessionListApi,
    TableSessionOpenApi,
    TableUpdateApi,
)

_gaming_session = "gaming-sessions/<uuid:gaming_session_id>/"
_table = "tables/<uuid:table_id>/"
_session = "table-sessions/<uuid:table_session_id>/"
_assignments = f"{_session}assignments/"
_sabots = f"{_session}sabots/"
_books = "ticket-books/"
_coup = "coups/<uuid:coup_id>/"
_void_request = "void-requests/<uuid:void_request_id>/"

urlpatterns: list[URLPattern | URLResolver] = [
    path("games/", GameListApi.as_view(), name="games"),
    path(f"{_gaming_session}close/", GamingSessionCloseApi.as_view(), name="gaming-session-close"),
    # tables
    path("tables/", TableListApi.as_view(), name="table-list"),
    path("tables/create/", TableCreateApi.as_view(), name="table-create"),
    path(_table, TableDetailApi.as_view(), name="table-detail"),
    path(f"{_table}update/", TableUpdateApi.as_view(), name="table-update"),
    # table sessions
    path("table-sessions/", TableSessionListApi.as_view(), name="table-session-list"),
    path("table-sessions/open/", TableSessionOpenApi.as_view(), name="table-session-open"),
    path(_session, TableSessionDetailApi.as_view(), name="table-session-detail"),
    path(f"{_session}close/", TableSessionCloseApi.as_view(), name="table-session-close"),
    path(f"{_session}seats/", SeatListApi.as_view(), name="seat-list"),
    path(f"{_session}levy-charges/", LevyChargeListApi.as_view(), name="levy-charge-list"),
    path(_assignments, AssignmentListApi.as_view(), name="assignment-list"),
    path(f"{_assignments}create/", AssignmentCreateApi.as_view(), name="assignment-create"),
    path(f"{_assignments}release/", AssignmentReleaseApi.as_view(), name="assignment-release"),
    path(_sabots, SabotListApi.as_view(), name="sabot-list"),
    path("stock/", stock.StockListApi.as_view(), name="stock-list"),
    path("stock/receive/", stock.StockReceiveApi.as_view(), name="stock-receive"),
    path("stock/assign/", stock.StockAssignApi.as_view(), name="stock-assign"),
    path("stock/return/", stock.StockReturnApi.as_view(), name="stock-return"),
    path("stock/destroy/", stock.StockDestroyApi.as_view(), name="stock-destroy"),
    path(_books, tickets.TicketBookListApi.as_view(), name="ticket-book-list"),
    path(f"{_books}receive/", tickets.TicketBookReceiveApi.as_view(), name="ticket-book-receive"),
    path(f"{_books}assign/", tickets.TicketBookAssignApi.as_view(), name="ticket-book-assign"),
    path(f"{_books}return/", tickets.TicketBookReturnApi.as_view(), name="ticket-book-return"),
    path(f"{_books}destroy/", tickets.TicketBookDestroyApi.as_view(), name="ticket-book-destroy"),
    path(f"{_session}tickets/", tickets.CoupTicketsListApi.as_view(), name="coup-tickets-list"),
    path(f"{_sabots}open/", SabotOpenApi.as_view(), name="sabot-open"),
    path(f"{_session}bank-tenures/", BankTenureListApi.as_view(), name="bank-tenure-list"),
    # play
    path(f"{_session}state/", TableStateApi.as_view(), name="table-state"),
    path(f"{_session}events/", EventListApi.as_view(), name="event-list"),
    path(f"{_session}record/", ActionRecordApi.as_view(), name="action-record"),
    path(f"{_session}undo/", ActionUndoApi.as_view(), name="action-undo"),
    path(f"{_session}interrupt/", TableInterruptApi.as_view(), name="table-interrupt"),
    path(f"{_session}resume/", TableResumeApi.as_view(), name="table-resume"),
    path(f"{_session}open-coup/void/", OpenCoupVoidApi.as_view(), name="open-coup-void"),
    # coups and voids
    path(f"{_session}coups/", CoupListApi.as_view(), name="coup-list"),
    path(_coup, CoupDetailApi.as_view(), name="coup-detail"),
    path(f"{_coup}events/", CoupEventListApi.as_view(), name="coup-events"),
    path(f"{_coup}void-request/", VoidRequestCreateApi.as_view(), name="void-request-create"),
    path("void-requests/", VoidRequestListApi.as_view(), name="void-request-list"),
    path(_void_request, VoidRequestDetailApi.as_view(), name="void-request-detail"),
    path(f"{_void_request}decide/", VoidDecideApi.as_view(), name="void-decide"),
]
