"""The house's numbered sabots and packs through the API (model 19; art. 58), as on the floor's
page: where each number is, received, assigned to an open table, taken back, destroyed. An
inspector or a manager writes; whoever sees the floor reads."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from establishment.errors import NotFoundError
from establishment.http.fields import client_of
from establishment.http.pagination import ListApi, list_api
from establishment.http.permissions import as_user
from establishment.http.schema import post_schema
from establishment.http.serializers import allowed_body
from establishment.roles import SUPERVISORS, Role
from establishment.staff import role_required
from tables.models import StockAssignment, StockItem, StockKind, TableSession
from tables.selectors import stock_list
from tables.services.stock import stock_assign, stock_destroy, stock_receive, stock_return

TAGS = ["numbered sabots and packs"]
FLOOR_READERS = SUPERVISORS | frozenset({Role.AUDITOR})


class AssignmentSerializer(serializers.ModelSerializer[StockAssignment]):
    table = serializers.IntegerField(source="table_session.table.number", read_only=True)
    table_session = serializers.UUIDField(source="table_session.public_id", read_only=True)

    class Meta:
        model = StockAssignment
        fields = ["table", "table_session", "assigned_at", "returned_at"]


class StockItemSerializer(serializers.ModelSerializer[StockItem]):
    assignments = AssignmentSerializer(many=True, read_only=True)
    used = serializers.SerializerMethodField(help_text="Whether a shoe was formed from it.")

    class Meta:
        model = StockItem
        fields = [
            "kind",
            "number",
            "decks",
            "received_at",
            "received_from",
            "destroyed_at",
            "destroyed_reason",
            "assignments",
            "used",
        ]

    def get_used(self, item: StockItem) -> bool:
        return bool(item.sabots.all())


@list_api(StockItemSerializer, tags=TAGS)
class StockListApi(ListApi):
    """Every numbered sabot and pack with where it has been."""

    def get(self, request: Request) -> Response:
        role_required(request.user, FLOOR_READERS, "read the numbered sabots and packs")
        return self.page(request, stock_list())


class _Kind(serializers.Serializer[Any]):
    kind = serializers.ChoiceField(choices=StockKind.choices)


class _Delivery(_Kind):
    first = serializers.IntegerField(min_value=1)
    last = serializers.IntegerField(min_value=1)
    decks = serializers.IntegerField(min_value=1, max_value=8)
    received_from = serializers.CharField(max_length=200)


class _Assignment(_Kind):
    table_session = serializers.UUIDField()
    numbers = serializers.ListField(child=serializers.IntegerField(min_value=1), max_length=1000)


class _One(_Kind):
    number = serializers.IntegerField(min_value=1)


class _Destruction(_One):
    reason = serializers.CharField(max_length=500)


def _listed(items: list[StockItem]) -> Response:
    found = stock_list().filter(pk__in=[i.pk for i in items])
    return Response(StockItemSerializer(found, many=True).data, status=status.HTTP_201_CREATED)


@post_schema(responses={201: StockItemSerializer(many=True)}, tags=TAGS)
class StockReceiveApi(APIView):
    """Receive the numbers `first` to `last` into stock."""

    InputSerializer = _Delivery

    def post(self, request: Request) -> Response:
        body = allowed_body(self.InputSerializer, request, SUPERVISORS, "receive sabots")
        items = stock_receive(**body, received_by=as_user(request.user), client=client_of(request))
        return _listed(items)


@post_schema(responses={201: StockItemSerializer(many=True)}, tags=TAGS)
class StockAssignApi(APIView):
    """Assign numbers to an open table for its séance; a number is at one table at a time."""

    InputSerializer = _Assignment

    def post(self, request: Request) -> Response:
        body = allowed_body(self.InputSerializer, request, SUPERVISORS, "assign sabots")
        seance = _open_seance(body["table_session"])
        assigned = stock_assign(
            table_session=seance,
            kind=body["kind"],
            numbers=body["numbers"],
            assigned_by=as_user(request.user),
            client=client_of(request),
        )
        return _listed([a.item for a in assigned])


def _open_seance(public_id: UUID) -> TableSession:
    seance = TableSession.objects.filter(public_id=public_id, closed_at__isnull=True).first()
    if seance is None:
        raise NotFoundError("No such open table session.")
    return seance


@post_schema(responses={201: StockItemSerializer(many=True)}, tags=TAGS)
class StockReturnApi(APIView):
    """Take a number back from the table it is at."""

    InputSerializer = _One

    def post(self, request: Request) -> Response:
        body = allowed_body(self.InputSerializer, request, SUPERVISORS, "take sabots back")
        held = stock_return(**body, returned_by=as_user(request.user), client=client_of(request))
        return _listed([held.item])


@post_schema(responses={201: StockItemSerializer(many=True)}, tags=TAGS)
class StockDestroyApi(APIView):
    """Destroy a number that is not at a table, with the reason."""

    InputSerializer = _Destruction

    def post(self, request: Request) -> Response:
        body = allowed_body(self.InputSerializer, request, SUPERVISORS, "destroy sabots")
        item = stock_destroy(**body, destroyed_by=as_user(request.user), client=client_of(request))
        return _listed([item])
