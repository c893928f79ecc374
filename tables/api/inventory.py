"""What the API of the numbered sabots and packs (`tables.api.stock`, model 19) and that of the
ticket books (`tables.api.tickets`, arts. 59, 82–83) share, written once: an assignment as the
lists show it, the fields every item of the house's stock answers with, and a write on a stock
(the caller's role, his body, one service, the items it touched as the list shows them)."""

from __future__ import annotations

from typing import Any, ClassVar
from uuid import UUID

from django.contrib.auth.models import User
from django.db.models import QuerySet
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from establishment.errors import NotFoundError
from establishment.http.fields import client_of
from establishment.http.permissions import as_user
from establishment.http.serializers import allowed_body
from establishment.roles import SUPERVISORS
from tables.models import TableSession
from tables.selectors import open_table_session_get

# What every item of the house's stock answers with, after what names it (`HouseStock`).
HOUSE_STOCK_FIELDS = [
    "received_at",
    "received_from",
    "destroyed_at",
    "destroyed_reason",
    "assignments",
]
ASSIGNMENT_FIELDS = ["table", "table_session", "assigned_at", "returned_at"]


class SeanceAssignmentSerializer(serializers.ModelSerializer[Any]):
    """An item's stay at a table (`SeanceAssignment`): each stock's serializer names its model
    in its `Meta`, with `fields = ASSIGNMENT_FIELDS`."""

    table = serializers.IntegerField(source="table_session.table.number", read_only=True)
    table_session = serializers.UUIDField(source="table_session.public_id", read_only=True)


def open_seance_get(public_id: UUID) -> TableSession:
    """The open table session an item is assigned to, by its public id; 404 when there is none."""
    seance = open_table_session_get(public_id=public_id)
    if seance is None:
        raise NotFoundError("No such open table session.")
    return seance


class StockWriteApi(APIView):
    """A write on one of the house's stocks: the caller's role first (an inspector or a
    manager), his body, one service (`write`); the answer is the items it touched, as the list
    (`listed`) shows them (`Answer`)."""

    InputSerializer: ClassVar[type[serializers.Serializer[Any]]]
    Answer: ClassVar[type[serializers.ModelSerializer[Any]]]
    what: ClassVar[str]

    def listed(self) -> QuerySet[Any]:
        raise NotImplementedError

    def write(self, body: dict[str, Any], by: User, client: str) -> list[Any]:
        raise NotImplementedError

    def post(self, request: Request) -> Response:
        body = allowed_body(self.InputSerializer, request, SUPERVISORS, self.what)
        touched = self.write(body, as_user(request.user), client_of(request))
        found = self.listed().filter(pk__in=[item.pk for item in touched])
        return Response(self.Answer(found, many=True).data, status=status.HTTP_201_CREATED)
