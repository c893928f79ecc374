"""The house's ticket books through the API, for a house that still tears tickets (arts. 59,
82–83; docs/registers.md, "Tickets"), as on the floor's stock page: where each book is,
received, assigned to an open table, taken back, destroyed; and the tickets to detach for each
coup of a séance with a levy. An inspector or a manager writes; whoever sees the floor reads the
books, whoever sees the table session reads its tickets. Face values are in cents (10, 100,
1000, 10000)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.contrib.auth.models import User
from django.db.models import Q, QuerySet
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from establishment.http.pagination import ListApi, list_api
from establishment.http.schema import post_schema
from establishment.staff import role_required
from tables.api.access import visible_table_session_get
from tables.api.inventory import (
    ASSIGNMENT_FIELDS,
    HOUSE_STOCK_FIELDS,
    SeanceAssignmentSerializer,
    StockWriteApi,
    open_seance_get,
)
from tables.api.stock import FLOOR_READERS
from tables.models import Coup
from tables.selectors import coup_list
from tables.services.tickets import (
    SeanceTickets,
    seance_tickets_get,
    ticket_book_destroy,
    ticket_book_list,
    ticket_book_return,
    ticket_books_assign,
    ticket_books_receive,
)
from tables.ticket_models import LAST_FIRST_SERIAL, LAST_SERIAL, TicketBook, TicketBookAssignment
from tables.tickets import FACE_VALUES

TAGS = ["ticket books"]
FACES = [(face, str(face)) for face in FACE_VALUES]


class BookAssignmentSerializer(SeanceAssignmentSerializer):
    class Meta:
        model = TicketBookAssignment
        fields = ASSIGNMENT_FIELDS


class TicketBookSerializer(serializers.ModelSerializer[TicketBook]):
    face = serializers.IntegerField(source="face_cents", help_text="The face value, in cents.")
    last_serial = serializers.IntegerField(read_only=True)
    assignments = BookAssignmentSerializer(many=True, read_only=True)

    class Meta:
        model = TicketBook
        fields = ["face", "first_serial", "last_serial", *HOUSE_STOCK_FIELDS]


@list_api(TicketBookSerializer, tags=TAGS)
class TicketBookListApi(ListApi):
    """Every ticket book with where it has been."""

    def get(self, request: Request) -> Response:
        role_required(request.user, FLOOR_READERS, "read the ticket books")
        return self.page(request, ticket_book_list())


class _BookFace(serializers.Serializer[Any]):
    face = serializers.ChoiceField(choices=FACES, help_text="The face value, in cents.")


class _BookDelivery(_BookFace):
    first = serializers.IntegerField(
        min_value=1, max_value=LAST_FIRST_SERIAL, help_text="The first serial of the first book."
    )
    last = serializers.IntegerField(
        min_value=1,
        max_value=LAST_SERIAL,
        required=False,
        help_text="The last serial of the last book (or give `books`).",
    )
    books = serializers.IntegerField(
        min_value=1, required=False, help_text="How many books from `first` (or give `last`)."
    )
    received_from = serializers.CharField(max_length=200)


class _BookAssignment(_BookFace):
    table_session = serializers.UUIDField()
    first_serials = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=LAST_FIRST_SERIAL),
        min_length=1,
        max_length=500,
        help_text="The first serial of each book.",
    )


class _OneBook(_BookFace):
    first_serial = serializers.IntegerField(min_value=1, max_value=LAST_FIRST_SERIAL)


class _BookDestruction(_OneBook):
    reason = serializers.CharField(max_length=500)


class _BookWriteApi(StockWriteApi):
    """A write on the ticket books; the answer is the books it touched."""

    Answer = TicketBookSerializer

    def listed(self) -> QuerySet[TicketBook]:
        return ticket_book_list()


ANSWER = {201: TicketBookSerializer(many=True)}


@post_schema(responses=ANSWER, tags=TAGS)
class TicketBookReceiveApi(_BookWriteApi):
    """Receive books of one face value into stock: from serial `first` to serial `last`, or
    `books` books from `first` (one book when neither is given)."""

    InputSerializer = _BookDelivery
    what = "receive ticket books"

    def write(self, body: dict[str, Any], by: User, client: str) -> list[TicketBook]:
        return ticket_books_receive(**body, received_by=by, client=client)


@post_schema(responses=ANSWER, tags=TAGS)
class TicketBookAssignApi(_BookWriteApi):
    """Assign books of one face value to an open table for its séance; a book is at one table
    at a time, at most three face values at one table (art. 59)."""

    InputSerializer = _BookAssignment
    what = "assign ticket books"

    def write(self, body: dict[str, Any], by: User, client: str) -> list[TicketBook]:
        seance = open_seance_get(body.pop("table_session"))
        assigned = ticket_books_assign(table_session=seance, **body, assigned_by=by, client=client)
        return [a.book for a in assigned]


@post_schema(responses=ANSWER, tags=TAGS)
class TicketBookReturnApi(_BookWriteApi):
    """Take a book back from the table it is at: it goes back to stock."""

    InputSerializer = _OneBook
    what = "take ticket books back"

    def write(self, body: dict[str, Any], by: User, client: str) -> list[TicketBook]:
        return [ticket_book_return(**body, returned_by=by, client=client).book]


@post_schema(responses=ANSWER, tags=TAGS)
class TicketBookDestroyApi(_BookWriteApi):
    """Destroy a book that is not at a table, with the reason."""

    InputSerializer = _BookDestruction
    what = "destroy ticket books"

    def write(self, body: dict[str, Any], by: User, client: str) -> list[TicketBook]:
        return [ticket_book_destroy(**body, destroyed_by=by, client=client)]


# -- the tickets of a séance's coups --------------------------------------------------------------


class TicketSerializer(serializers.Serializer[Any]):
    face = serializers.IntegerField(help_text="The face value, in cents.")
    count = serializers.IntegerField()


class CoupTicketsSerializer(serializers.ModelSerializer[Coup]):
    """A coup with a levy and the tickets to detach for it."""

    levy = serializers.SerializerMethodField(help_text="The levy, in cents.")
    tickets = serializers.SerializerMethodField()
    left = serializers.SerializerMethodField(
        help_text="What the face values at the table cannot make, in cents."
    )

    class Meta:
        model = Coup
        fields = ["public_id", "number", "settled_at", "levy", "tickets", "left"]

    def _seance(self) -> SeanceTickets:
        seance: SeanceTickets = self.context["seance"]
        return seance

    def get_levy(self, coup: Coup) -> int:
        return coup.cagnotte_chips * self._seance().cents_per_chip

    @extend_schema_field(TicketSerializer(many=True))
    def get_tickets(self, coup: Coup) -> list[dict[str, int]]:
        """The tickets by face value, the largest first."""
        made = self._seance().of(coup.cagnotte_chips)
        return [{"face": face, "count": count} for face, count in made.by_face]

    def get_left(self, coup: Coup) -> int:
        return self._seance().of(coup.cagnotte_chips).left


@list_api(CoupTicketsSerializer, tags=TAGS)
class CoupTicketsListApi(ListApi):
    """The tickets to detach for each coup of a table session with a levy that stands, newest
    first, with the face values of the books at the table now (every face value of the arrêté
    when none is there). Empty when the séance's house does not keep its levies with
    tickets."""

    def get(self, request: Request, table_session_id: UUID) -> Response:
        table_session = visible_table_session_get(request.user, table_session_id)
        seance = seance_tickets_get(table_session=table_session)
        coups: QuerySet[Coup] = (
            # `is_voided`: the void status `coup_list` reads with each coup.
            coup_list(table_session=table_session).filter(Q(is_voided=False), cagnotte_chips__gt=0)
            if seance is not None
            else Coup.objects.none()
        )
        for backend in self.filter_backends:
            coups = backend().filter_queryset(request, coups, self)
        paginator = self.pagination_class()
        rows: list[Coup] = list(paginator.paginate_queryset(coups, request, view=self) or [])
        data = CoupTicketsSerializer(rows, many=True, context={"seance": seance}).data
        return paginator.get_paginated_response(data)
