"""Settled coups, their recorded actions, and the void of a settled coup (request, decision)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.db.models import QuerySet
from django_filters import rest_framework as filters
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from establishment.http.fields import ObjectField, UsernameField
from establishment.http.lookups import found_or_404
from establishment.http.pagination import ListApi, ListFilter, integer_filter, list_api
from establishment.http.schema import post_schema
from establishment.http.serializers import written
from tables.api.access import TableSessionRowsApi, visible_table_sessions
from tables.api.play import EventOutputSerializer
from tables.models import Coup, TableSession, VoidDecision, VoidRequest
from tables.selectors import coup_events_get, coup_list
from tables.services import void_decide, void_request

# -- coups -----------------------------------------------------------------------------------


class TransferSerializer(serializers.Serializer[Any]):
    """A movement of chips the engine decided (COM-5.2): `from` → `to`."""

    amount = serializers.IntegerField()
    reason = serializers.CharField()

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        fields = super().get_fields()
        # `from` is a keyword in Python: declare the fields by name.
        fields["from"] = serializers.CharField()
        fields["to"] = serializers.CharField()
        return fields


class CoupOutputSerializer(serializers.ModelSerializer[Coup]):
    table_session = serializers.UUIDField(source="table_session.public_id", read_only=True)
    transfers = TransferSerializer(many=True, read_only=True)
    results = ObjectField(help_text="Each owner's result in the coup, in chips.")
    faults = serializers.ListField(child=serializers.JSONField(), read_only=True)
    is_voided = serializers.BooleanField(read_only=True)
    void_pending = serializers.BooleanField(read_only=True)

    class Meta:
        model = Coup
        fields = [
            "public_id",
            "table_session",
            "number",
            "outcome",
            "banker",
            "transfers",
            "results",
            "faults",
            "cagnotte_chips",
            "first_seq",
            "settled_seq",
            "settled_at",
            "is_voided",
            "void_pending",
        ]


class CoupFilter(ListFilter):
    number = integer_filter(1, 2_147_483_647)
    is_voided = filters.BooleanFilter()


@list_api(CoupOutputSerializer, filterset=CoupFilter, tags=["coups"])
class CoupListApi(TableSessionRowsApi):
    """The settled coups of a table session, newest first, with their void status."""

    def rows(self, table_session: TableSession) -> QuerySet[Coup]:
        return coup_list(table_session=table_session).select_related("table_session")


def visible_coup_get(request: Request, coup_id: UUID) -> Coup:
    """The coup `coup_id` with its void status, if its table session is visible; else 404."""
    found = found_or_404(
        Coup.objects.filter(table_session__in=visible_table_sessions(request.user)),
        "No such coup, or not one of your tables'.",
        public_id=coup_id,
    )
    return (
        coup_list(table_session=found.table_session)
        .select_related("table_session")
        .get(pk=found.pk)
    )


class CoupDetailApi(APIView):
    @extend_schema(responses=CoupOutputSerializer, tags=["coups"])
    def get(self, request: Request, coup_id: UUID) -> Response:
        return Response(CoupOutputSerializer(visible_coup_get(request, coup_id)).data)


@list_api(EventOutputSerializer, tags=["coups"])
class CoupEventListApi(ListApi):
    """A coup's recorded actions: from its first to the one that settled it, with any undo
    recorded in between."""

    def get(self, request: Request, coup_id: UUID) -> Response:
        coup = visible_coup_get(request, coup_id)
        return self.page(request, coup_events_get(coup=coup))


# -- voids -----------------------------------------------------------------------------------


class VoidDecisionSerializer(serializers.ModelSerializer[VoidDecision]):
    decided_by = UsernameField(source="decided_by.username")
    event_seq = serializers.IntegerField(
        source="event.seq",
        allow_null=True,
        read_only=True,
        help_text="The journal line of the void an approval recorded.",
    )

    class Meta:
        model = VoidDecision
        fields = ["approved", "decided_by", "decided_at", "note", "event_seq"]


class VoidRequestOutputSerializer(serializers.ModelSerializer[VoidRequest]):
    coup = serializers.UUIDField(source="coup.public_id", read_only=True)
    coup_number = serializers.IntegerField(source="coup.number", read_only=True)
    table_session = serializers.UUIDField(source="coup.table_session.public_id", read_only=True)
    table_number = serializers.IntegerField(
        source="coup.table_session.table.number", read_only=True
    )
    requested_by = UsernameField(source="requested_by.username")
    decision = VoidDecisionSerializer(
        read_only=True, allow_null=True, help_text="Null while an inspector has not decided."
    )

    class Meta:
        model = VoidRequest
        fields = [
            "public_id",
            "coup",
            "coup_number",
            "table_session",
            "table_number",
            "requested_by",
            "requested_at",
            "reason",
            "decision",
        ]


def _void_requests() -> QuerySet[VoidRequest]:
    return VoidRequest.objects.select_related(
        "coup__table_session__table",
        "requested_by",
        "decision__decided_by",
        "decision__event",
    )


@post_schema(responses={201: VoidRequestOutputSerializer}, tags=["coups"])
class VoidRequestCreateApi(APIView):
    """Ask for a settled coup to be voided, with a reason (the croupier on duty or an
    inspector). An inspector other than the one who asked decides."""

    class InputSerializer(serializers.Serializer[Any]):
        reason = serializers.CharField(max_length=2000)

    def post(self, request: Request, coup_id: UUID) -> Response:
        coup = visible_coup_get(request, coup_id)
        made = written(void_request, request, self.InputSerializer, coup=coup)
        fresh = _void_requests().get(pk=made.pk)
        return Response(VoidRequestOutputSerializer(fresh).data, status=status.HTTP_201_CREATED)


class VoidRequestFilter(ListFilter):
    pending = filters.BooleanFilter(
        field_name="decision", lookup_expr="isnull", label="Only those waiting for a decision."
    )
    gaming_session = filters.UUIDFilter(field_name="coup__table_session__gaming_session__public_id")
    table_session = filters.UUIDFilter(field_name="coup__table_session__public_id")


@list_api(VoidRequestOutputSerializer, filterset=VoidRequestFilter, tags=["coups"])
class VoidRequestListApi(ListApi):
    """Void requests, oldest first; `pending=true` is the inspector's list to decide."""

    def get(self, request: Request) -> Response:
        requests = _void_requests().filter(
            coup__table_session__in=visible_table_sessions(request.user)
        )
        return self.page(request, requests.order_by("requested_at", "pk"))


def visible_void_request_get(request: Request, void_request_id: UUID) -> VoidRequest:
    return found_or_404(
        _void_requests().filter(coup__table_session__in=visible_table_sessions(request.user)),
        "No such void request, or not one of your tables'.",
        public_id=void_request_id,
    )


class VoidRequestDetailApi(APIView):
    @extend_schema(responses=VoidRequestOutputSerializer, tags=["coups"])
    def get(self, request: Request, void_request_id: UUID) -> Response:
        found = visible_void_request_get(request, void_request_id)
        return Response(VoidRequestOutputSerializer(found).data)


@post_schema(responses=VoidRequestOutputSerializer, tags=["coups"])
class VoidDecideApi(APIView):
    """Approve or refuse a void request: an inspector who did not ask for it (a second person),
    who gives his own password (403 `confirmation_failed` when it is wrong).

    Approval sets the coup's actions (and anything recorded after them) aside and posts a
    reversal of every ledger transaction they booked; the coup can then be recorded again.
    Only the last live coup of a table can be voided (409 `void_not_last`).
    """

    class InputSerializer(serializers.Serializer[Any]):
        approve = serializers.BooleanField()
        password = serializers.CharField(
            max_length=128,
            write_only=True,
            trim_whitespace=False,
            help_text="The inspector's own password: the second person proves who he is.",
        )
        note = serializers.CharField(max_length=2000, required=False, allow_blank=True, default="")

    def post(self, request: Request, void_request_id: UUID) -> Response:
        found = visible_void_request_get(request, void_request_id)
        written(void_decide, request, self.InputSerializer, request=found)
        fresh = _void_requests().get(pk=found.pk)
        return Response(VoidRequestOutputSerializer(fresh).data)
