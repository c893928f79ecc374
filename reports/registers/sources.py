"""What the registers are built from, read from the tables and the books (docs/registers.md):
each séance's place in its journée, its numbered sabots and packs, its ticket books, its count;
the registers already stored. A fixed number of queries whatever the number of coups."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.db.models import Count, Q, QuerySet

from establishment.models import LevyRecord, Player
from reports.builders import when
from reports.models import CountedCagnotte, Register
from tables.engine.money import PARTICIPATION_FEE
from tables.models import TableSession
from tables.selectors import coup_list
from tables.stock_models import StockAssignment
from tables.ticket_models import BOOK_SIZE, TicketBookAssignment


def seance_get(*, table_session: TableSession) -> dict[str, Any]:
    """The séance as model 11 heads it: its journée, its number in the journée at its table,
    and the house's settings it kept (currency, value of a chip, how it keeps its levies)."""
    earlier = TableSession.objects.filter(
        table_id=table_session.table_id,
        journee=table_session.journee,
        opened_at__lt=table_session.opened_at,
    ).count()
    house = table_session.house_settings
    return {
        "journee": table_session.journee.isoformat(),
        "number": earlier + 1,
        "currency": house.currency,
        "cents_per_chip": house.cents_per_chip,
        "levy_record": house.levy_record,
    }


def seance_stock_rows(*, table_session: TableSession) -> list[dict[str, Any]]:
    """Column 3 (art. 58): the numbered sabots and packs the séance had, each with the shoe it
    was used for."""
    rows = (
        StockAssignment.objects.filter(table_session=table_session)
        .select_related("item", "assigned_by", "returned_by")
        .prefetch_related("item__sabots")
        .order_by("assigned_at", "pk")
    )
    out = []
    for row in rows:
        shoes = [s.number for s in row.item.sabots.all() if s.table_session_id == table_session.pk]
        out.append(
            {
                "kind": row.item.kind,
                "number": row.item.number,
                "decks": row.item.decks,
                "assigned_at": when(row.assigned_at),
                "assigned_by": row.assigned_by.get_username(),
                "returned_at": when(row.returned_at),
                "shoes": shoes,
            }
        )
    return out


def seance_ticket_rows(*, table_session: TableSession) -> list[dict[str, Any]]:
    """Columns 4–5 (arts. 59, 82–83): the ticket books the séance had, each with its face value
    (in cents), its serials, when and by whom it was assigned and returned, and the first and
    the last of the coups that stand settled while it was at the table (None when none was);
    none when the séance's house does not keep its levies with tickets."""
    if table_session.house_settings.levy_record != LevyRecord.TICKETS:
        return []
    standing = [
        (coup.number, coup.settled_at)
        for coup in coup_list(table_session=table_session).only("number", "settled_at")
        if not getattr(coup, "is_voided", False)
    ]
    rows = (
        TicketBookAssignment.objects.filter(table_session=table_session)
        .select_related("book", "assigned_by", "returned_by")
        .order_by("assigned_at", "book__face_cents", "book__first_serial", "pk")
    )
    out = []
    for row in rows:
        there = [
            number
            for number, settled_at in standing
            if row.assigned_at <= settled_at
            and (row.returned_at is None or settled_at < row.returned_at)
        ]
        out.append(
            {
                "face": row.book.face_cents,
                "first_serial": row.book.first_serial,
                "last_serial": row.book.first_serial + BOOK_SIZE - 1,
                "assigned_at": when(row.assigned_at),
                "assigned_by": row.assigned_by.get_username(),
                "returned_at": when(row.returned_at),
                "returned_by": row.returned_by.get_username() if row.returned_by else None,
                "first_coup": min(there, default=None),
                "last_coup": max(there, default=None),
            }
        )
    return out


def seance_count_row(*, table_session: TableSession) -> dict[str, Any] | None:
    """Column 9 and its certification: the count of the séance's box, if it was counted."""
    count = (
        CountedCagnotte.objects.filter(table_session=table_session)
        .select_related("counted_by", "witness")
        .first()
    )
    if count is None:
        return None
    return {
        "counted_chips": count.counted_chips,
        "counted_by": count.counted_by.get_username(),
        "certified_by": count.counted_by.get_username(),
        "witness": count.witness.get_username(),
        "counted_at": when(count.counted_at),
        "posting": count.posting,
        "note": count.note,
    }


def banker_identities(*, codes: list[str]) -> dict[str, dict[str, Any]]:
    """The register of bankers (art. 71; docs/registers.md): each banker's surname, first
    names, date and place of birth and address, from the player's identity at the door."""
    rows = Player.objects.filter(member_number__in=codes).values(
        "member_number", "surname", "first_names", "birth_date", "birth_place", "address"
    )
    return {
        row["member_number"]: {
            "surname": row["surname"],
            "first_names": row["first_names"],
            "birth_date": row["birth_date"].isoformat() if row["birth_date"] else None,
            "birth_place": row["birth_place"],
            "address": row["address"],
        }
        for row in rows
    }


def without_cagnotte_book() -> Q:
    """The séances that keep no cagnotte book: those of a table on a participation fee
    (docs/rules/levy.md, LV-3, LV-6: a UK club levies nothing on the play, and what it charged
    each player is in the night's settlement report, to whom and when)."""
    return Q(settings__levy_model=PARTICIPATION_FEE)


def journee_seances(*, journee: date) -> QuerySet[TableSession]:
    """The séances of a journée that keep a cagnotte book (model 11), in the register's order."""
    return (
        TableSession.objects.filter(journee=journee)
        .exclude(without_cagnotte_book())
        .select_related("table", "house_settings", "gaming_session")
        .order_by("table__number", "opened_at")
    )


def register_latest(*, kind: str, key: str) -> Register | None:
    """The version in force of one register (a rectification replaces the one it names)."""
    return Register.objects.filter(kind=kind, key=key).order_by("-version").first()


def registers_latest(*, kind: str, keys: list[str]) -> dict[str, Register]:
    """The version in force of each of these registers, with how many have signed it
    (`signers`), in one query."""
    found: dict[str, Register] = {}
    rows = Register.objects.filter(kind=kind, key__in=keys).annotate(signers=Count("signatures"))
    for register in rows.order_by("version"):
        found[register.key] = register
    return found


def register_chain(*, kind: str) -> QuerySet[Register]:
    """The registers of one kind in the order they were stored: the chain."""
    return Register.objects.filter(kind=kind).order_by("pk")


def register_list() -> QuerySet[Register]:
    return Register.objects.prefetch_related("signatures__signed_by").order_by("-pk")
