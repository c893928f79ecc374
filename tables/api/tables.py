"""Tables and their settings; table sessions, their seats, croupier assignments, sabots and the
register of bankers."""

from __future__ import annotations

from typing import Any, ClassVar
from uuid import UUID

from django.contrib.auth.models import User
from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from django_filters import rest_framework as filters
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from establishment.http.fields import ObjectField, UsernameField, client_of
from establishment.http.pagination import ListApi, ListFilter, integer_filter, list_api
from establishment.http.permissions import as_user
from establishment.http.schema import post_schema
from establishment.http.serializers import OpenedClosedSerializer, allowed_body, validated, written
from establishment.models import GamingSession
from establishment.roles import SUPERVISORS, TABLE_CONFIGURERS, Role
from establishment.staff import role_required
from tables.api.access import (
    TableSessionRowsApi,
    visible_table_session_get,
    visible_table_sessions,
)
from tables.api.fields import SeatsField
from tables.models import (
    AssignmentRole,
    BankTenure,
    CroupierAssignment,
    Game,
    LevyCharge,
    Sabot,
    SeatOccupancy,
    Table,
    TableSession,
)
from tables.selectors import (
    bank_tenure_list,
    duty_period_list,
    levy_charge_list,
    sabot_list,
    seat_occupancy_list,
    table_list,
    table_session_list,
)
from tables.services import (
    sabot_open,
    staff_assign,
    staff_release,
    table_create,
    table_session_close,
    table_session_open,
    table_update,
)

MAX_INT = 2_147_483_647  # PositiveIntegerField's range on every database

# -- tables ----------------------------------------------------------------------------------


class TableOutputSerializer(serializers.ModelSerializer[Table]):
    settings = ObjectField(help_text="The game's settings, defaults filled in (docs/rules/ §1).")
    open_session = serializers.SerializerMethodField(
        help_text="The table session open at this table now, if any."
    )

    class Meta:
        model = Table
        fields = [
            "public_id",
            "number",
            "name",
            "game",
            "settings",
            "seat_count",
            "is_active",
            "created_at",
            "open_session",
        ]

    def get_open_session(self, table: Table) -> str | None:
        sessions: list[TableSession] | None = getattr(table, "open_sessions", None)
        if sessions is None:
            sessions = list(table.sessions.filter(closed_at__isnull=True))
        return str(sessions[0].public_id) if sessions else None


class TableFilter(ListFilter):
    game = filters.ChoiceFilter(choices=Game.choices)
    number = integer_filter(1, MAX_INT)
    is_active = filters.BooleanFilter()


@list_api(TableOutputSerializer, filterset=TableFilter, tags=["tables"])
class TableListApi(ListApi):
    """Tables by number, in service or not, each with its open session."""

    def get(self, request: Request) -> Response:
        return self.page(request, table_list(active_only=False))


class TableDetailApi(APIView):
    @extend_schema(responses=TableOutputSerializer, tags=["tables"])
    def get(self, request: Request, table_id: UUID) -> Response:
        table = get_object_or_404(table_list(active_only=False), public_id=table_id)
        return Response(TableOutputSerializer(table).data)


@post_schema(responses={201: TableOutputSerializer}, tags=["tables"])
class TableCreateApi(APIView):
    """Create a table (managers). The engine validates the settings and fills in defaults; a
    refused setting answers 422 `E_SETTING` with the rules' message."""

    class InputSerializer(serializers.Serializer[Any]):
        number = serializers.IntegerField(min_value=1, max_value=MAX_INT)
        game = serializers.ChoiceField(choices=Game.choices)
        settings = ObjectField(required=False, default=dict)
        seat_count = serializers.IntegerField(
            min_value=2, max_value=30, required=False, help_text="Default: 12 (pontoon 8)."
        )
        name = serializers.CharField(max_length=100, required=False, allow_blank=True)

    def post(self, request: Request) -> Response:
        given = allowed_body(self.InputSerializer, request, TABLE_CONFIGURERS, "create a table")
        table = table_create(**given, created_by=as_user(request.user), client=client_of(request))
        return Response(TableOutputSerializer(table).data, status=status.HTTP_201_CREATED)


@post_schema(responses=TableOutputSerializer, tags=["tables"])
class TableUpdateApi(APIView):
    """Change a table's name, seat count or settings, or take it out of service and back
    (managers). Only what is sent changes; `settings` replaces the settings, the engine filling
    in the defaults. It counts from the table's next opening: an open table session keeps the
    settings it opened with. A refused setting answers 422 `E_SETTING` with the rules' message;
    taking an open table out of service answers 409."""

    class InputSerializer(serializers.Serializer[Any]):
        name = serializers.CharField(max_length=100, required=False, allow_blank=True)
        seat_count = serializers.IntegerField(min_value=1, max_value=30, required=False)
        settings = ObjectField(required=False)
        is_active = serializers.BooleanField(required=False)

    def post(self, request: Request, table_id: UUID) -> Response:
        role_required(request.user, TABLE_CONFIGURERS, "change a table")
        table = get_object_or_404(Table, public_id=table_id)
        table_update(
            table=table,
            **validated(self.InputSerializer, request),
            updated_by=as_user(request.user),
            client=client_of(request),
        )
        fresh = get_object_or_404(table_list(active_only=False), public_id=table_id)
        return Response(TableOutputSerializer(fresh).data)


# -- table sessions --------------------------------------------------------------------------


class TableRefSerializer(serializers.ModelSerializer[Table]):
    class Meta:
        model = Table
        fields = ["public_id", "number", "name"]


class TableSessionOutputSerializer(
    OpenedClosedSerializer, serializers.ModelSerializer[TableSession]
):
    table = TableRefSerializer(read_only=True)
    gaming_session = serializers.UUIDField(source="gaming_session.public_id", read_only=True)
    settings = ObjectField(read_only=True, help_text="The settings frozen at the opening.")

    class Meta:
        model = TableSession
        fields = [
            "public_id",
            "table",
            "gaming_session",
            "game",
            "settings",
            "seat_count",
            "opened_at",
            "opened_by",
            "closed_at",
            "closed_by",
            "is_open",
        ]


class TableSessionFilter(ListFilter):
    gaming_session = filters.UUIDFilter(field_name="gaming_session__public_id")
    table = filters.UUIDFilter(field_name="table__public_id")
    table_number = integer_filter(1, MAX_INT, field_name="table__number")
    game = filters.ChoiceFilter(choices=Game.choices)
    is_open = filters.BooleanFilter(field_name="closed_at", lookup_expr="isnull")


@list_api(TableSessionOutputSerializer, filterset=TableSessionFilter, tags=["table sessions"])
class TableSessionListApi(ListApi):
    """Table sessions (a table opened in a gaming session) the caller may see, newest first."""

    def get(self, request: Request) -> Response:
        sessions = table_session_list(visible=visible_table_sessions(request.user))
        return self.page(request, sessions)


class TableSessionDetailApi(APIView):
    @extend_schema(responses=TableSessionOutputSerializer, tags=["table sessions"])
    def get(self, request: Request, table_session_id: UUID) -> Response:
        table_session = visible_table_session_get(request.user, table_session_id)
        return Response(TableSessionOutputSerializer(table_session).data)


@post_schema(responses={201: TableSessionOutputSerializer}, tags=["table sessions"])
class TableSessionOpenApi(APIView):
    """Open a table in a gaming session (inspectors and managers), with who sits where.

    `seats` maps seat numbers to member numbers; `standing` lists standing players. Players may
    also sit down later (`sit`, `add_standing` actions). The engine checks the seating as it
    would a scenario's (a chemin de fer table's fixed banker must be seated, CF-I27).
    """

    class InputSerializer(serializers.Serializer[Any]):
        table = serializers.UUIDField()
        gaming_session = serializers.UUIDField()
        seats = SeatsField(required=False, default=dict)
        standing = serializers.ListField(
            child=serializers.CharField(max_length=32), required=False, default=list
        )

        def validate_seats(self, seats: dict[str, str]) -> dict[int, str]:
            parsed: dict[int, str] = {}
            for key, code in seats.items():
                if not key.isdigit() or not 1 <= int(key) <= 30:
                    raise serializers.ValidationError(f"{key!r} is not a seat number (1–30).")
                parsed[int(key)] = code
            return parsed

    def post(self, request: Request) -> Response:
        given = allowed_body(self.InputSerializer, request, SUPERVISORS, "open a table")
        table = get_object_or_404(Table, public_id=given["table"])
        gaming_session = get_object_or_404(GamingSession, public_id=given["gaming_session"])
        opened = table_session_open(
            table=table,
            gaming_session=gaming_session,
            opened_by=as_user(request.user),
            seats=given["seats"],
            standing=given["standing"],
            client=client_of(request),
        )
        fresh = visible_table_session_get(request.user, opened.public_id)
        return Response(TableSessionOutputSerializer(fresh).data, status=status.HTTP_201_CREATED)


@post_schema(responses=TableSessionOutputSerializer, tags=["table sessions"])
class TableSessionCloseApi(APIView):
    """Close a table (inspectors and managers): `end_session` through the engine — reliquats
    returned, reserve fund divided (COM-3.8) — then seats, assignments and sabot closed. A coup
    half-recorded stops it (409 `coup_in_progress`), and a void waiting for a decision (409
    `close_blocked`); `extra.left` lists what is left. An inspector may `force` the close with
    a `reason`: the open coup is set aside as a void and the report marks the séance."""

    class InputSerializer(serializers.Serializer[Any]):
        force = serializers.BooleanField(default=False)
        reason = serializers.CharField(default="", allow_blank=True, max_length=500)

    def post(self, request: Request, table_session_id: UUID) -> Response:
        table_session = visible_table_session_get(request.user, table_session_id)
        written(table_session_close, request, self.InputSerializer, table_session=table_session)
        fresh = visible_table_session_get(request.user, table_session_id)
        return Response(TableSessionOutputSerializer(fresh).data)


# -- seats -----------------------------------------------------------------------------------


class PlayerRefSerializer(serializers.Serializer[Any]):
    public_id = serializers.UUIDField()
    member_number = serializers.CharField()
    name = serializers.CharField()


class SeatOccupancyFilter(ListFilter):
    current = filters.BooleanFilter(
        field_name="left_at", lookup_expr="isnull", label="Only who sits now (true)."
    )
    seat_number = integer_filter(1, 30)


@list_api(filterset=SeatOccupancyFilter, tags=["table sessions"])
class SeatListApi(TableSessionRowsApi):
    """Who sat where and when at a table session (the seating follows `sit` and `leave`)."""

    class OutputSerializer(serializers.ModelSerializer[SeatOccupancy]):
        player = PlayerRefSerializer(read_only=True)

        class Meta:
            model = SeatOccupancy
            fields = ["seat_number", "player", "sat_at", "left_at"]

    def rows(self, table_session: TableSession) -> QuerySet[SeatOccupancy]:
        return seat_occupancy_list(table_session=table_session)


@list_api(filterset=ListFilter, tags=["table sessions"])
class LevyChargeListApi(TableSessionRowsApi):
    """The fees the house charged at a table session from its seating (docs/rules/levy.md,
    LV-3): a time fee per player and period, a participation fee per player and day; each is a
    ledger transaction from the player's position to the table's cagnotte."""

    class OutputSerializer(serializers.ModelSerializer[LevyCharge]):
        player = PlayerRefSerializer(read_only=True)
        transaction = serializers.UUIDField(source="transaction.public_id", read_only=True)

        class Meta:
            model = LevyCharge
            fields = [
                "player",
                "levy_model",
                "period_start",
                "period_end",
                "amount",
                "charged_at",
                "transaction",
            ]

    def rows(self, table_session: TableSession) -> QuerySet[LevyCharge]:
        return levy_charge_list(table_session=table_session)


# -- croupier assignments --------------------------------------------------------------------


class AssignmentOutputSerializer(serializers.ModelSerializer[CroupierAssignment]):
    """A duty period (model 11, column 3 bis): who, role, from, until, who assigned, who ended."""

    staff = UsernameField(source="staff.username")
    assigned_by = UsernameField(source="assigned_by.username")
    released_by = UsernameField(source="released_by.username", allow_null=True)

    class Meta:
        model = CroupierAssignment
        fields = ["staff", "role", "assigned_at", "released_at", "assigned_by", "released_by"]


@list_api(AssignmentOutputSerializer, tags=["table sessions"])
class AssignmentListApi(TableSessionRowsApi):
    """Croupiers and changeurs who worked (or work now) at a table session."""

    def rows(self, table_session: TableSession) -> QuerySet[CroupierAssignment]:
        return duty_period_list(table_session=table_session)


class _DutyChangeApi(APIView):
    """Putting a croupier or a changeur on duty at a table session, or ending his duty
    (inspectors and managers): the table session first (404 when not visible), then the
    caller's role (403), then the body (400); each change calls its own service, and the answer
    is the duty period begun or ended."""

    action: ClassVar[str]  # what the refusal says the caller may not do
    status_code: ClassVar[int] = status.HTTP_200_OK
    InputSerializer: ClassVar[type[serializers.Serializer[Any]]]

    def post(self, request: Request, table_session_id: UUID) -> Response:
        table_session = visible_table_session_get(request.user, table_session_id)
        given = allowed_body(self.InputSerializer, request, SUPERVISORS, self.action)
        period = self.change(
            table_session, given, by=as_user(request.user), client=client_of(request)
        )
        return Response(AssignmentOutputSerializer(period).data, status=self.status_code)

    def change(
        self, table_session: TableSession, given: dict[str, Any], *, by: User, client: str
    ) -> CroupierAssignment:
        raise NotImplementedError


@post_schema(responses={201: AssignmentOutputSerializer}, tags=["table sessions"])
class AssignmentCreateApi(_DutyChangeApi):
    """Put a croupier or a changeur on duty at a table session (inspectors and managers),
    relieving whoever holds that duty there: his period ends as the new one begins."""

    action = "put staff on duty"
    status_code = status.HTTP_201_CREATED

    class InputSerializer(serializers.Serializer[Any]):
        staff = serializers.SlugRelatedField(
            slug_field="username",
            queryset=User.objects.filter(is_active=True, groups__name__in=Role.values).distinct(),
            help_text="The staff member's username.",
        )
        role = serializers.ChoiceField(choices=AssignmentRole.choices)

    def change(
        self, table_session: TableSession, given: dict[str, Any], *, by: User, client: str
    ) -> CroupierAssignment:
        return staff_assign(
            table_session=table_session,
            staff=given["staff"],
            role=AssignmentRole(given["role"]),
            assigned_by=by,
            client=client,
        )


@post_schema(responses={200: AssignmentOutputSerializer}, tags=["table sessions"])
class AssignmentReleaseApi(_DutyChangeApi):
    """End the duty of the croupier or the changeur at a table session, nobody after him."""

    action = "release staff from duty"

    class InputSerializer(serializers.Serializer[Any]):
        role = serializers.ChoiceField(choices=AssignmentRole.choices)

    def change(
        self, table_session: TableSession, given: dict[str, Any], *, by: User, client: str
    ) -> CroupierAssignment:
        return staff_release(
            table_session=table_session,
            role=AssignmentRole(given["role"]),
            released_by=by,
            client=client,
        )


# -- sabots ----------------------------------------------------------------------------------


class SabotOutputSerializer(serializers.ModelSerializer[Sabot]):
    opened_by = UsernameField(source="opened_by.username")

    class Meta:
        model = Sabot
        fields = ["public_id", "number", "decks", "opened_at", "opened_by", "closed_at"]


@list_api(SabotOutputSerializer, tags=["table sessions"])
class SabotListApi(TableSessionRowsApi):
    """The sabots (shoes, packs) of a table session, numbered 1, 2, … in order."""

    def rows(self, table_session: TableSession) -> QuerySet[Sabot]:
        return sabot_list(table_session=table_session)


@post_schema(responses={201: SabotOutputSerializer}, tags=["table sessions"])
class SabotOpenApi(APIView):
    """Bring a new sabot to the table (the croupier on duty or an inspector); the previous one
    is closed. Forming a new shoe through the rules (`new_shoe`, `shuffle_pack`) does it too.
    At a table with numbered sabots (model 19), `sabot` is one of the numbers there."""

    class InputSerializer(serializers.Serializer[Any]):
        sabot = serializers.IntegerField(required=False, allow_null=True, min_value=1)

    def post(self, request: Request, table_session_id: UUID) -> Response:
        table_session = visible_table_session_get(request.user, table_session_id)
        given = validated(self.InputSerializer, request)
        sabot = sabot_open(
            table_session=table_session,
            opened_by=as_user(request.user),
            client=client_of(request),
            stock_number=given.get("sabot"),
        )
        return Response(SabotOutputSerializer(sabot).data, status=status.HTTP_201_CREATED)


# -- the register of bankers -----------------------------------------------------------------


@list_api(tags=["table sessions"])
class BankTenureListApi(TableSessionRowsApi):
    """The register of bankers (art. 71): who held the bank from which coup, and how."""

    class OutputSerializer(serializers.ModelSerializer[BankTenure]):
        player = PlayerRefSerializer(read_only=True, allow_null=True)

        class Meta:
            model = BankTenure
            fields = ["seq", "player", "how", "first_coup_number", "started_at"]

    def rows(self, table_session: TableSession) -> QuerySet[BankTenure]:
        return bank_tenure_list(table_session=table_session)
