"""Play at a table: its current state with the legal actions, recording an action, undo,
interruptions, voiding the coup in progress, and the table's journal.

Every write here goes through the recording service (`tables.services.record`, `undo`, …), the
same functions the console calls: it locks the table, checks who may record, the sequence
number and the idempotency key, and applies the rules. The answer to a write is the journal line
it wrote, read back from the journal: sending the same request with the same `Idempotency-Key`
again answers the same body and books nothing more.
"""

from __future__ import annotations

from typing import Any, ClassVar
from uuid import UUID

from django.db.models import QuerySet
from django_filters import rest_framework as filters
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import serializers, status
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from establishment.http.fields import ObjectField, UsernameField, client_of
from establishment.http.pagination import ListFilter, integer_filter, list_api
from establishment.http.permissions import as_user
from establishment.http.schema import IDEMPOTENCY_KEY
from establishment.http.serializers import validated
from tables.api.access import TableSessionRowsApi, visible_table_session_get
from tables.api.fields import ActionField, ActorField
from tables.models import EventKind, TableEvent, TableSession
from tables.selectors import event_list, table_state_get
from tables.services import (
    ReasonedWriter,
    Recorded,
    open_coup_void,
    record,
    table_interrupt,
    table_resume,
    undo,
)

IDEMPOTENCY_HEADER = "Idempotency-Key"
MAX_SEQ = 2_147_483_647

# -- the journal -----------------------------------------------------------------------------


class EventOutputSerializer(serializers.ModelSerializer[TableEvent]):
    """One line of the table's journal, as recorded (never changed afterwards)."""

    action = ObjectField(
        help_text="For an `action`: what was recorded, as the rules define it; for `open`: the "
        "seating at the opening; else empty."
    )
    sets_aside = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="For an undo or a void: the numbers of the actions it sets aside.",
    )
    outcome = ObjectField(
        help_text="What the engine concluded: `state` (the phase), `banker`, `coups` settled, "
        "ledger `postings`, …"
    )
    recorded_by = UsernameField(source="recorded_by.username")

    class Meta:
        model = TableEvent
        fields = [
            "seq",
            "kind",
            "action",
            "sets_aside",
            "outcome",
            "reason",
            "recorded_by",
            "recorded_at",
        ]


class EventFilter(ListFilter):
    kind = filters.ChoiceFilter(choices=EventKind.choices)
    seq_after = integer_filter(0, MAX_SEQ, field_name="seq", lookup_expr="gt")


@list_api(EventOutputSerializer, filterset=EventFilter, tags=["play"])
class EventListApi(TableSessionRowsApi):
    """The table's journal in order: every action, undo, void, interruption, with who and when.
    `seq_after` reads only what is new since a line the client has seen."""

    def rows(self, table_session: TableSession) -> QuerySet[TableEvent]:
        return event_list(table_session=table_session)


# -- the state of the table ------------------------------------------------------------------


class LegalActionSerializer(serializers.Serializer[Any]):
    type = serializers.CharField()
    actors = serializers.ListField(
        child=ActorField(), help_text='Who may do it: seat numbers, player ids, "croupier".'
    )


class SeatViewSerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField()
    player = serializers.CharField(source="player_code", allow_null=True)
    player_name = serializers.CharField(allow_null=True)


class TableStateApi(APIView):
    """Where the table stands now, replayed through the engine: phase, banker, the legal
    actions and their actors, the table's view (cards, stakes, bank), seats and standing.

    Record the next action with `expected_seq` = `next_expected_seq` (= `seq` + 1).
    """

    class OutputSerializer(serializers.Serializer[Any]):
        table_session = serializers.UUIDField(source="table_session.public_id")
        table_number = serializers.IntegerField(source="table_session.table.number")
        game = serializers.CharField(source="table_session.game")
        is_open = serializers.BooleanField()
        seq = serializers.IntegerField(help_text="The number of the journal's last line.")
        next_expected_seq = serializers.SerializerMethodField(
            help_text="What to send as `expected_seq` with the next action."
        )
        phase = serializers.CharField(help_text="The state of the rules (`bank_pending`, …).")
        banker = serializers.CharField(allow_null=True, help_text="The banker's member number.")
        interrupted = serializers.BooleanField()
        legal = LegalActionSerializer(many=True, help_text="Every action accepted now.")
        legal_types = serializers.ListField(child=serializers.CharField())
        view = ObjectField(
            help_text="What the table screen shows: phase, banker, bank, to_cover, stakes, "
            "cards, pack, expected, and the game's own keys."
        )
        seats = SeatViewSerializer(many=True)
        standing = serializers.ListField(child=serializers.CharField())
        cagnotte_chips = serializers.IntegerField(
            help_text="The cagnotte booked at this table in this gaming session."
        )
        players = serializers.DictField(
            child=serializers.CharField(), help_text="Member number → name, for who is here."
        )

        def get_next_expected_seq(self, state: Any) -> int:
            return int(state.seq) + 1

    @extend_schema(responses=OutputSerializer, tags=["play"])
    def get(self, request: Request, table_session_id: UUID) -> Response:
        table_session = visible_table_session_get(request.user, table_session_id)
        state = table_state_get(table_session=table_session)
        return Response(self.OutputSerializer(state).data)


# -- writes to the journal -------------------------------------------------------------------


def idempotency_key_get(request: Request) -> str:
    """The `Idempotency-Key` header: required, 1 to 200 characters (400 `invalid` otherwise)."""
    key = str(request.headers.get(IDEMPOTENCY_HEADER, "")).strip()
    if not key or len(key) > 200:
        raise ValidationError(
            {IDEMPOTENCY_HEADER: ["Send an Idempotency-Key header of 1 to 200 characters."]}
        )
    return key


def journal_line(table_session: TableSession, done: Recorded) -> Response:
    """The answer to every journal write: the line as stored, 201 the first time and again.

    The service recognises a repeated request by its key, its action, its reason and the
    sequence number it expected; the same key with anything else is refused there (409
    `idempotency_conflict`).
    """
    event = event_list(table_session=table_session).get(seq=done.seq)
    response = Response(EventOutputSerializer(event).data, status=status.HTTP_201_CREATED)
    if done.replayed:
        response["Idempotent-Replayed"] = "true"
    return response


_JOURNAL_RESPONSES = {
    201: OpenApiResponse(
        EventOutputSerializer,
        description="The journal line written (or, for a repeated request with the same "
        "`Idempotency-Key`, the line written the first time; header `Idempotent-Replayed`).",
    )
}


class SequencedInputSerializer(serializers.Serializer[Any]):
    expected_seq = serializers.IntegerField(
        min_value=1,
        max_value=MAX_SEQ,
        help_text="The number this line will get: the state's `next_expected_seq`. When the "
        "table has moved on the request is refused (409 `stale_sequence`, "
        "`extra.expected_seq`).",
    )


class ActionRecordApi(APIView):
    """Record one action at the table: a card turned, a stake, a decision, a seat taken, …

    The croupier on duty or an inspector. The rules refuse an illegal action with 422 and
    their code (`E_WRONG_STATE`, `E_NOT_YOUR_TURN`, …), and nothing changes; when the action
    settles a coup, its transfers are booked in the ledger in the same transaction.
    """

    class InputSerializer(SequencedInputSerializer):
        action = ActionField()
        sabot = serializers.IntegerField(
            required=False,
            allow_null=True,
            min_value=1,
            help_text=(
                "A new shoe or pack at a table with numbered sabots (model 19): the number, "
                "one of those at the table."
            ),
        )

    @extend_schema(
        request=InputSerializer,
        responses=_JOURNAL_RESPONSES,
        parameters=[IDEMPOTENCY_KEY],
        tags=["play"],
    )
    def post(self, request: Request, table_session_id: UUID) -> Response:
        table_session = visible_table_session_get(request.user, table_session_id)
        key = idempotency_key_get(request)
        given = validated(self.InputSerializer, request)
        done = record(
            table_session=table_session,
            action=given["action"],
            expected_seq=given["expected_seq"],
            user=as_user(request.user),
            idempotency_key=key,
            client=client_of(request),
            stock_number=given.get("sabot"),
        )
        return journal_line(table_session, done)


class ReasonInputSerializer(SequencedInputSerializer):
    reason = serializers.CharField(max_length=2000, required=False, allow_blank=True, default="")


class _ReasonedJournalApi(APIView):
    """A journal line with a reason (undo, interruption, restart, voiding the coup in
    progress): the same parsing and answer, each calling its own service."""

    input_serializer: ClassVar[type[SequencedInputSerializer]] = ReasonInputSerializer
    service: ClassVar[ReasonedWriter]

    def post(self, request: Request, table_session_id: UUID) -> Response:
        table_session = visible_table_session_get(request.user, table_session_id)
        key = idempotency_key_get(request)
        given = validated(self.input_serializer, request)
        done = type(self).service(
            table_session=table_session,
            expected_seq=given["expected_seq"],
            user=as_user(request.user),
            idempotency_key=key,
            reason=given["reason"],
            client=client_of(request),
        )
        return journal_line(table_session, done)


def _reasoned_schema(request: type[SequencedInputSerializer] = ReasonInputSerializer) -> Any:
    return extend_schema_view(
        post=extend_schema(
            request=request,
            responses=_JOURNAL_RESPONSES,
            parameters=[IDEMPOTENCY_KEY],
            tags=["play"],
        )
    )


@_reasoned_schema()
class ActionUndoApi(_ReasonedJournalApi):
    """Set aside the last action of the coup in progress (a slip of the finger), with a reason.

    Only before it settled anything: a settled coup is corrected by a void request instead
    (409 `cannot_undo`)."""

    service = undo


@_reasoned_schema()
class TableInterruptApi(_ReasonedJournalApi):
    """Stop play at the table (a break, an incident): nothing is recorded until it restarts.
    Inspectors and managers."""

    service = table_interrupt


@_reasoned_schema()
class TableResumeApi(_ReasonedJournalApi):
    """Restart play after an interruption. Inspectors and managers."""

    service = table_resume


class OpenCoupVoidInputSerializer(SequencedInputSerializer):
    reason = serializers.CharField(max_length=2000)


@_reasoned_schema(OpenCoupVoidInputSerializer)
class OpenCoupVoidApi(_ReasonedJournalApi):
    """Set aside every action of the coup in progress (nothing was booked yet), with a reason:
    an inspector, when a coup was left half-recorded."""

    input_serializer = OpenCoupVoidInputSerializer
    service = open_coup_void
