"""The house's numbered sabots and packs through the API (model 19; art. 58), as on the floor's
page: where each number is, received, assigned to an open table, taken back, destroyed. An
inspector or a manager writes; whoever sees the floor reads."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db.models import QuerySet
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from establishment.http.pagination import ListApi, list_api
from establishment.http.schema import post_schema
from establishment.roles import SUPERVISORS, Role
from establishment.staff import role_required
from tables.api.inventory import (
    ASSIGNMENT_FIELDS,
    HOUSE_STOCK_FIELDS,
    SeanceAssignmentSerializer,
    StockWriteApi,
    open_seance_get,
)
from tables.selectors import stock_list
from tables.services.stock import stock_assign, stock_destroy, stock_receive, stock_return
from tables.stock_models import StockAssignment, StockItem, StockKind

TAGS = ["numbered sabots and packs"]
FLOOR_READERS = SUPERVISORS | frozenset({Role.AUDITOR})


class AssignmentSerializer(SeanceAssignmentSerializer):
    class Meta:
        model = StockAssignment
        fields = ASSIGNMENT_FIELDS


class StockItemSerializer(serializers.ModelSerializer[StockItem]):
    assignments = AssignmentSerializer(many=True, read_only=True)
    used = serializers.SerializerMethodField(help_text="Whether a shoe was formed from it.")

    class Meta:
        model = StockItem
        fields = ["kind", "number", "decks", *HOUSE_STOCK_FIELDS, "used"]

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


class _StockWriteApi(StockWriteApi):
    """A write on the numbered sabots and packs; the answer is the numbers it touched."""

    Answer = StockItemSerializer

    def listed(self) -> QuerySet[StockItem]:
        return stock_list()


ANSWER = {201: StockItemSerializer(many=True)}


@post_schema(responses=ANSWER, tags=TAGS)
class StockReceiveApi(_StockWriteApi):
    """Receive the numbers `first` to `last` into stock."""

    InputSerializer = _Delivery
    what = "receive sabots"

    def write(self, body: dict[str, Any], by: User, client: str) -> list[StockItem]:
        return stock_receive(**body, received_by=by, client=client)


@post_schema(responses=ANSWER, tags=TAGS)
class StockAssignApi(_StockWriteApi):
    """Assign numbers to an open table for its séance; a number is at one table at a time."""

    InputSerializer = _Assignment
    what = "assign sabots"

    def write(self, body: dict[str, Any], by: User, client: str) -> list[StockItem]:
        seance = open_seance_get(body.pop("table_session"))
        assigned = stock_assign(table_session=seance, **body, assigned_by=by, client=client)
        return [a.item for a in assigned]


@post_schema(responses=ANSWER, tags=TAGS)
class StockReturnApi(_StockWriteApi):
    """Take a number back from the table it is at."""

    InputSerializer = _One
    what = "take sabots back"

    def write(self, body: dict[str, Any], by: User, client: str) -> list[StockItem]:
        return [stock_return(**body, returned_by=by, client=client).item]


@post_schema(responses=ANSWER, tags=TAGS)
class StockDestroyApi(_StockWriteApi):
    """Destroy a number that is not at a table, with the reason."""

    InputSerializer = _Destruction
    what = "destroy sabots"

    def write(self, body: dict[str, Any], by: User, client: str) -> list[StockItem]:
        return [stock_destroy(**body, destroyed_by=by, client=client)]
