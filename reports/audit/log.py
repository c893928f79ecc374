"""The audit log, read back: filtered by person, table, action and time, newest first, one page
at a time by keyset (docs/audit.md, "The audit log").

A page is found by where the last one ended (its last row's time and id), never by an offset:
the thousandth page of ten million rows costs what the first does. Each filter has an index
that starts with its column and ends with (at, id) (establishment/models.py, `AuditEntry`), so
the database walks the index from the cursor backwards and stops after one page.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db.models import Q, QuerySet
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from establishment.errors import InvalidInputError
from establishment.models import AuditEntry
from tables.models import TableSession

PAGE_SIZE = 50
MAX_PAGE_SIZE = 500
# The CSV is read in chunks of this many rows, each by keyset as a page is.
EXPORT_CHUNK = 2_000


@dataclass(frozen=True)
class AuditLogFilter:
    """What the auditor asks for; every part is optional. `actor` is a username, `table` a
    table's number, `action` an action's exact name; `since` included, `until` excluded."""

    actor: str = ""
    table: int | None = None
    action: str = ""
    since: datetime | None = None
    until: datetime | None = None


@dataclass(frozen=True)
class AuditLogPage:
    rows: list[AuditEntry]
    next_cursor: str  # empty on the last page


def cursor_encode(entry: AuditEntry) -> str:
    """Where a page ended: the last row's time and id, opaque to the reader."""
    raw = f"{entry.at.isoformat()}|{entry.pk}".encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def cursor_decode(cursor: str) -> tuple[datetime, int]:
    """The time and id a cursor holds; a cursor not made by `cursor_encode` is refused."""
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        at_text, _bar, pk_text = raw.partition("|")
        at = parse_datetime(at_text)
        pk = int(pk_text)
    except (binascii.Error, UnicodeDecodeError, ValueError):
        at = None
    if at is None or at.tzinfo is None:
        message = _("This cursor is not one the audit log gave: start again from the first page.")
        raise InvalidInputError(message, fields={"cursor": [message]})
    return at, pk


def _filtered(wanted: AuditLogFilter) -> QuerySet[AuditEntry]:
    rows = AuditEntry.objects.all()
    if wanted.actor:
        rows = rows.filter(actor__in=User.objects.filter(username=wanted.actor).values("pk"))
    if wanted.table is not None:
        seances = TableSession.objects.filter(table__number=wanted.table).values("pk")
        rows = rows.filter(table_session_id__in=seances)
    if wanted.action:
        rows = rows.filter(action=wanted.action)
    if wanted.since is not None:
        rows = rows.filter(at__gte=wanted.since)
    if wanted.until is not None:
        rows = rows.filter(at__lt=wanted.until)
    return rows


def _after(rows: QuerySet[AuditEntry], cursor: tuple[datetime, int]) -> QuerySet[AuditEntry]:
    """The rows older than the cursor. `at <= t` bounds the index scan; the rest drops the
    rows of the same instant already shown."""
    at, pk = cursor
    return rows.filter(at__lte=at).filter(Q(at__lt=at) | Q(pk__lt=pk))


def _page(wanted: AuditLogFilter, cursor: str, size: int) -> AuditLogPage:
    rows = _filtered(wanted)
    if cursor:
        rows = _after(rows, cursor_decode(cursor))
    found = list(rows.select_related("actor").order_by("-at", "-pk")[: size + 1])
    more = len(found) > size
    found = found[:size]
    return AuditLogPage(rows=found, next_cursor=cursor_encode(found[-1]) if more else "")


def audit_log_page(
    wanted: AuditLogFilter, *, cursor: str = "", size: int = PAGE_SIZE
) -> AuditLogPage:
    """One page of the audit log, newest first, from where `cursor` says the last one ended."""
    if not 1 <= size <= MAX_PAGE_SIZE:
        message = _("A page holds 1 to %(most)d rows; %(asked)d was asked.") % {
            "most": MAX_PAGE_SIZE,
            "asked": size,
        }
        raise InvalidInputError(message, fields={"page_size": [message]})
    return _page(wanted, cursor, size)


def audit_log_chunks(wanted: AuditLogFilter) -> Iterator[list[AuditEntry]]:
    """Every row the filter selects, newest first, in chunks read by keyset (for the CSV)."""
    cursor = ""
    while True:
        page = _page(wanted, cursor, EXPORT_CHUNK)
        yield page.rows
        if not page.next_cursor:
            return
        cursor = page.next_cursor


@dataclass(frozen=True)
class AuditRow:
    """A row as the screen, the API and the CSV show it: the séance named by its table."""

    public_id: str
    at: datetime
    actor: str
    action: str
    client: str
    table: int | None
    table_session: str
    data: dict[str, Any]


def audit_rows(entries: list[AuditEntry]) -> list[AuditRow]:
    """The rows of a page, their séances' tables read in one query."""
    seance_ids = {entry.table_session_id for entry in entries if entry.table_session_id}
    seances = {
        seance.pk: seance
        for seance in TableSession.objects.filter(pk__in=seance_ids).select_related("table")
    }
    rows = []
    for entry in entries:
        seance = seances.get(entry.table_session_id or 0)
        rows.append(
            AuditRow(
                public_id=str(entry.public_id),
                at=entry.at,
                actor=entry.actor.get_username(),
                action=entry.action,
                client=entry.client,
                table=seance.table.number if seance else None,
                table_session=str(seance.public_id) if seance else "",
                data=entry.data,
            )
        )
    return rows
