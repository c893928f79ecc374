"""The night read back from the books and the table's journal: settlement rows, reconciliation
inputs, the reports and their counts (docs/ledger.md)."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, TypedDict

from django.db.models import (
    Count,
    Exists,
    Max,
    Model,
    OuterRef,
    Q,
    QuerySet,
    Sum,
    TextField,
)
from django.db.models.fields.json import KeyTransform
from django.db.models.functions import Cast

from establishment.models import GamingSession
from ledger.models import Account, Entry, Transaction
from reports.models import (
    CountedCagnotte,
    ReportFile,
    ReportStatus,
    SettlementReport,
    TableReconciliation,
)
from tables import models as table_models
from tables.postings import table_place, table_session_place

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations

# -- Settlement: everything a session's report is built from ------------------------
# A fixed number of queries whatever the number of coups (docs/conventions.md, P3): the
# money is summed by the database (`settlement_totals_list`), never in Python over instances.


@dataclass(frozen=True)
class SettlementRows:
    """What the report of one gaming session is built from, as plain rows.

    Every list is in a fixed order, so the report built from it is the same byte for byte.
    """

    gaming_session: GamingSession
    table_sessions: list[table_models.TableSession]
    assignments: Sequence[Mapping[str, Any]]
    pauses: Sequence[Mapping[str, Any]]
    corrections: Sequence[Mapping[str, Any]]
    coups: Sequence[Mapping[str, Any]]
    tenures: Sequence[Mapping[str, Any]]
    void_requests: Sequence[Mapping[str, Any]]
    accounts: Mapping[int, Mapping[str, Any]]
    totals: Sequence[Mapping[str, Any]]
    # The fees charged from the seating (docs/rules/levy.md, LV-3), in the order they were.
    levy_charges: Sequence[Mapping[str, Any]] = ()


@dataclass(frozen=True)
class Places:
    """The places the books name (tables/postings.py) of one gaming session's tables."""

    table_sessions: Mapping[str, int]  # place → table session id
    tables: Mapping[str, tuple[int, int]]  # place → (table id, table number)


def places_get(*, gaming_session_id: int) -> Places:
    """The places of the gaming session's table sessions and of their tables (one query)."""
    rows = table_models.TableSession.objects.filter(
        gaming_session_id=gaming_session_id
    ).values_list("pk", "public_id", "table_id", "table__public_id", "table__number")
    sessions: dict[str, int] = {}
    tables: dict[str, tuple[int, int]] = {}
    for pk, public_id, table_id, table_public_id, number in rows:
        sessions[table_session_place(public_id)] = pk
        tables[table_place(table_public_id)] = (table_id, number)
    return Places(table_sessions=sessions, tables=tables)


def session_places_get(*, table_session_ids: Iterable[int]) -> dict[str, int]:
    """place → table session id, for these table sessions."""
    rows = table_models.TableSession.objects.filter(pk__in=list(table_session_ids)).values_list(
        "pk", "public_id"
    )
    return {table_session_place(public_id): pk for pk, public_id in rows}


def settlement_accounts_get(*, gaming_session: GamingSession) -> QuerySet[Account]:
    """The accounts of a gaming session: positions, cagnottes and reserve funds of the session,
    and the accounts of its table sessions (reliquats, banks, stakes)."""
    places = places_get(gaming_session_id=gaming_session.pk)
    return Account.objects.filter(
        Q(gaming_session=gaming_session) | Q(place__in=list(places.table_sessions))
    )


def settlement_accounts_values(*, gaming_session_id: int) -> dict[int, Mapping[str, Any]]:
    """The session's accounts as plain rows by primary key (what the report names them by),
    with the table (`table_id`, `table__number`) or the table session (`table_session_id`)
    their place names."""
    places = places_get(gaming_session_id=gaming_session_id)
    accounts: dict[int, Mapping[str, Any]] = {}
    for row in Account.objects.filter(
        Q(gaming_session_id=gaming_session_id) | Q(place__in=list(places.table_sessions))
    ).values("pk", "kind", "place", "gaming_session_id", "player__member_number", "player__name"):
        table_id, number = places.tables.get(row["place"], (None, None))
        accounts[row["pk"]] = {
            **row,
            "table_id": table_id,
            "table__number": number,
            "table_session_id": places.table_sessions.get(row["place"]),
        }
    return accounts


def settlement_totals_list(
    *, account_ids: Iterable[int], table_sessions: Mapping[str, int]
) -> list[dict[str, Any]]:
    """The report's aggregation: entries summed by account, table session, reason and side.

    One `GROUP BY` over the session's entries (found through the account index), the same as
    the raw SQL of bench/settlement.py; `table_sessions` names the table session of each place
    (`places_get`). `last` (the highest entry id of each group) gives each table's ledger mark
    (`ledger_marks_from_totals`).
    """
    rows = list(
        Entry.objects.filter(account_id__in=list(account_ids))
        .values("account_id", "transaction__place", "reason", "side")
        .annotate(total=Sum("amount"), entries=Count("id"), last=Max("id"))
        .order_by("account_id", "transaction__place", "reason", "side")
    )
    for row in rows:
        row["table_session_id"] = table_sessions.get(row.pop("transaction__place"))
    return rows


class _Voided(TypedDict):
    is_voided: bool


def _settled_coups(
    table_session_ids: Iterable[int],
) -> QuerySet[WithAnnotations[table_models.Coup, _Voided]]:
    """The coups of these table sessions in the order they were settled, each with `is_voided`
    (an approved void stands against it)."""
    voided = table_models.VoidDecision.objects.filter(request__coup=OuterRef("pk"), approved=True)
    return (
        table_models.Coup.objects.filter(table_session_id__in=list(table_session_ids))
        .annotate(is_voided=Exists(voided))
        .order_by("table_session_id", "settled_seq")
    )


def _journal_events(table_session_ids: list[int], *kinds: str) -> QuerySet[table_models.TableEvent]:
    """The events of these kinds in the table sessions' journals, in journal order."""
    return table_models.TableEvent.objects.filter(
        table_session_id__in=table_session_ids, kind__in=kinds
    ).order_by("table_session_id", "seq")


def _of_table_sessions(
    model: type[Model], table_session_ids: list[int], *ordering: str, via: str = "table_session_id"
) -> QuerySet[Any]:
    """The rows of `model` in these table sessions (reached through `via`), in `ordering`."""
    rows = model._default_manager.filter(**{f"{via}__in": table_session_ids})
    return rows.order_by(*ordering)


def settlement_rows_get(*, gaming_session: GamingSession) -> SettlementRows:
    """Everything the settlement report shows, except the replay (see reports.services)."""
    table_sessions = list(
        table_models.TableSession.objects.filter(gaming_session=gaming_session)
        .select_related("table", "opened_by", "closed_by")
        .order_by("table__number", "opened_at", "pk")
    )
    ts_ids = [ts.pk for ts in table_sessions]
    assignments = list(
        _of_table_sessions(
            table_models.CroupierAssignment, ts_ids, "table_session_id", "assigned_at", "pk"
        ).values(
            "table_session_id",
            "role",
            "assigned_at",
            "released_at",
            "staff__username",
            "assigned_by__username",
            "released_by__username",
        )
    )
    kind = table_models.EventKind
    pauses = list(
        _journal_events(ts_ids, kind.INTERRUPT, kind.RESUME).values(
            "table_session_id", "seq", "kind", "recorded_at", "reason", "recorded_by__username"
        )
    )
    corrections = list(
        _journal_events(ts_ids, kind.UNDO, kind.VOID).values(
            "table_session_id",
            "seq",
            "kind",
            "sets_aside",
            "recorded_at",
            "reason",
            "outcome",
            "recorded_by__username",
        )
    )
    coups = list(
        _settled_coups(ts_ids).values(
            "table_session_id",
            "number",
            "outcome",
            "banker",
            "cagnotte_chips",
            "settled_seq",
            "settled_at",
            "is_voided",
        )
    )
    tenures = list(
        _of_table_sessions(table_models.BankTenure, ts_ids, "table_session_id", "seq").values(
            "table_session_id",
            "seq",
            "how",
            "first_coup_number",
            "started_at",
            "player__member_number",
            "player__name",
        )
    )
    void_requests = list(
        _of_table_sessions(
            table_models.VoidRequest, ts_ids, "requested_at", "pk", via="coup__table_session_id"
        ).values(
            "coup__table_session_id",
            "coup__number",
            "coup__settled_seq",
            "requested_at",
            "requested_by__username",
            "reason",
            "decision__decided_at",
            "decision__decided_by__username",
            "decision__approved",
            "decision__note",
            "decision__event__seq",
        )
    )
    levy_charges = list(
        _of_table_sessions(table_models.LevyCharge, ts_ids, "charged_at", "pk").values(
            "table_session_id",
            "levy_model",
            "period_start",
            "period_end",
            "amount",
            "charged_at",
            "player__member_number",
            "player__name",
        )
    )
    accounts = settlement_accounts_values(gaming_session_id=gaming_session.pk)
    return SettlementRows(
        gaming_session=gaming_session,
        table_sessions=table_sessions,
        assignments=assignments,
        pauses=pauses,
        corrections=corrections,
        coups=coups,
        tenures=tenures,
        void_requests=void_requests,
        accounts=accounts,
        totals=settlement_totals_list(
            account_ids=accounts,
            table_sessions=places_get(gaming_session_id=gaming_session.pk).table_sessions,
        ),
        levy_charges=levy_charges,
    )


# -- Reconciliation: what a table session's replay is compared with ------------------
# Each read takes a list of table sessions, so the night's report fetches what its tables need in
# the same few queries whether it reconciles one table or fifty, ten coups or fifty thousand.


def reconciliation_events_list(
    *, table_session_ids: Iterable[int]
) -> QuerySet[table_models.TableEvent, Any]:
    """The journals as `(table session, seq, kind, action, sets_aside, postings)` rows, in order:
    only what the replay needs (the `postings` keys of each event's outcome, not the outcome).
    The three JSON values come as JSON text, for the caller to decode in one go per row
    (`journal_rows`): a quarter of a million events are read at a session's close."""
    return (
        table_models.TableEvent.objects.filter(table_session_id__in=list(table_session_ids))
        .annotate(
            action_json=Cast("action", TextField()),
            aside_json=Cast("sets_aside", TextField()),
            postings_json=Cast(KeyTransform("postings", "outcome"), TextField()),
        )
        .order_by("table_session_id", "seq")
        .values_list(
            "table_session_id", "seq", "kind", "action_json", "aside_json", "postings_json"
        )
    )


def journal_rows(
    rows: Iterable[tuple[int, int, str, str, str, str | None]],
) -> Iterator[tuple[int, int, str, Any, Any, Any]]:
    """`reconciliation_events_list` rows with their JSON decoded."""
    loads = json.loads
    for ts_id, seq, kind, action, aside, postings in rows:
        decoded = loads(f"[{action},{aside},{postings or 'null'}]")
        yield ts_id, seq, kind, decoded[0], decoded[1], decoded[2]


def reconciliation_coups_list(
    *, table_session_ids: Iterable[int]
) -> QuerySet[table_models.Coup, Any]:
    """The coups as `(table session, number, outcome, banker, transfers, levy, voided)` rows."""
    return _settled_coups(table_session_ids).values_list(
        "table_session_id",
        "number",
        "outcome",
        "banker",
        "transfers",
        "cagnotte_chips",
        "is_voided",
    )


def reconciliation_transactions_list(
    *, table_session_ids: Iterable[int]
) -> Iterator[tuple[Any, ...]]:
    """The tables' transactions as `(table session, id, idempotency key, reverses id)`."""
    places = session_places_get(table_session_ids=table_session_ids)
    rows = (
        Transaction.objects.filter(place__in=list(places))
        .order_by("pk")
        .values_list("place", "pk", "idempotency_key", "reverses_id")
    )
    for place, *rest in rows.iterator(chunk_size=5000):
        yield (places[place], *rest)


def reconciliation_levies_list(*, table_session_ids: Iterable[int]) -> Iterator[tuple[Any, ...]]:
    """The fees the tables charged from their seating (docs/rules/levy.md, LV-3) as `(table
    session, transaction id, player, levy model, amount)`."""
    rows = (
        table_models.LevyCharge.objects.filter(table_session_id__in=list(table_session_ids))
        .order_by("pk")
        .values_list(
            "table_session_id", "transaction_id", "player__member_number", "levy_model", "amount"
        )
    )
    yield from rows.iterator(chunk_size=5000)


def reconciliation_legs_list(*, table_session_ids: Iterable[int]) -> Iterator[tuple[Any, ...]]:
    """The entries of the tables' transactions as `(table session, entry id, transaction id,
    account id, side, reason, amount)`."""
    places = session_places_get(table_session_ids=table_session_ids)
    rows = (
        Entry.objects.filter(transaction__place__in=list(places))
        .order_by("transaction_id", "pk")
        .values_list(
            "transaction__place",
            "pk",
            "transaction_id",
            "account_id",
            "side",
            "reason",
            "amount",
        )
    )
    for place, *rest in rows.iterator(chunk_size=10000):
        yield (places[place], *rest)


def ledger_mark(count: int, total: int, last: int) -> str:
    """What a reconciliation saw of a table's entries on the session's accounts: their count,
    sum and highest id (entries are never changed or deleted, so the same mark is the same
    entries)."""
    return f"{count}:{total}:{last}"


def ledger_marks_from_totals(
    totals: Iterable[Mapping[str, Any]], table_session_ids: Iterable[int]
) -> dict[int, str]:
    """Each table session's ledger mark, from the report's aggregation (no further query)."""
    count: dict[int, int] = defaultdict(int)
    total: dict[int, int] = defaultdict(int)
    last: dict[int, int] = defaultdict(int)
    for row in totals:
        ts_id = row["table_session_id"]
        count[ts_id] += int(row["entries"])
        total[ts_id] += int(row["total"])
        last[ts_id] = max(last[ts_id], int(row["last"]))
    return {
        ts_id: ledger_mark(count[ts_id], total[ts_id], last[ts_id]) for ts_id in table_session_ids
    }


def last_seqs_get(*, table_session_ids: Iterable[int]) -> dict[int, int]:
    """Per table session, the number of its last journal event (0 without any)."""
    ids = list(table_session_ids)
    found = dict(
        table_models.TableEvent.objects.filter(table_session_id__in=ids)
        .values("table_session_id")
        .annotate(last=Max("seq"))
        .order_by()
        .values_list("table_session_id", "last")
    )
    return {ts_id: int(found.get(ts_id) or 0) for ts_id in ids}


def unreconciled_table_session_ids(*, gaming_session_id: int) -> list[int]:
    """The gaming session's table sessions without a reconciliation stored for their journal as
    it is, the longest journal first."""
    ids = list(
        table_models.TableSession.objects.filter(gaming_session_id=gaming_session_id)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    seqs = last_seqs_get(table_session_ids=ids)
    stored = set(
        TableReconciliation.objects.filter(table_session_id__in=ids).values_list(
            "table_session_id", "last_seq"
        )
    )
    pending = [pk for pk in ids if (pk, seqs[pk]) not in stored]
    return sorted(pending, key=lambda pk: -seqs[pk])


def table_reconciliation_list(*, table_session_ids: Iterable[int]) -> list[TableReconciliation]:
    """Stored reconciliations of these table sessions (deferred summary: read only if used)."""
    return list(
        TableReconciliation.objects.filter(table_session_id__in=list(table_session_ids))
        .defer("summary")
        .order_by("table_session_id", "last_seq")
    )


def table_reconciliation_summaries_get(*, pks: Iterable[int]) -> dict[int, str]:
    """The summaries of the stored reconciliations the report uses, by primary key."""
    return dict(TableReconciliation.objects.filter(pk__in=list(pks)).values_list("pk", "summary"))


@dataclass(frozen=True)
class LedgerChecks:
    """The session's transactions outside its tables (each table checks its own)."""

    transactions: int  # every transaction of the session
    stray: list[str]  # of the session but of none of its table sessions
    stray_legs: list[tuple[str, int, str, int]]  # their entries: (key, account id, side, amount)


def settlement_ledger_checks_get(
    *, gaming_session: GamingSession, table_session_ids: Iterable[int]
) -> LedgerChecks:
    """How many transactions the session has, and those that belong to none of its tables with
    their entries (normally none)."""
    transactions = Transaction.objects.filter(gaming_session=gaming_session)
    places = session_places_get(table_session_ids=table_session_ids)
    outside = transactions.exclude(place__in=list(places))
    stray = list(outside.order_by("pk").values_list("idempotency_key", flat=True))
    stray_legs: list[tuple[str, int, str, int]] = []
    if stray:
        stray_legs = list(
            Entry.objects.filter(transaction__in=outside)
            .order_by("transaction_id", "pk")
            .values_list("transaction__idempotency_key", "account_id", "side", "amount")
        )
    return LedgerChecks(transactions=transactions.count(), stray=stray, stray_legs=stray_legs)


def settlement_report_get(*, public_id: Any) -> SettlementReport | None:
    return (
        SettlementReport.objects.filter(public_id=public_id)
        .select_related("gaming_session", "sign_off__signed_by")
        .first()
    )


def settlement_report_list() -> QuerySet[SettlementReport]:
    """Every report, newest session first (the auditor's list)."""
    return SettlementReport.objects.select_related("gaming_session").order_by(
        "-gaming_session__opened_at", "pk"
    )


def cagnotte_count_list(*, report: SettlementReport) -> QuerySet[CountedCagnotte]:
    return (
        CountedCagnotte.objects.filter(report=report)
        .select_related("table", "table_session", "counted_by", "witness")
        .order_by("table__number")
    )


def unsettled_session_list(*, closed_before: datetime, stale_before: datetime) -> list[int]:
    """Closed gaming sessions that still have no report: none at all, one still queued or
    failed, or one claimed by a worker before `stale_before` (that worker died)."""
    missing = SettlementReport.objects.filter(gaming_session=OuterRef("pk"))
    waiting = SettlementReport.objects.filter(gaming_session=OuterRef("pk")).filter(
        Q(status__in=[ReportStatus.PENDING, ReportStatus.FAILED])
        | Q(status=ReportStatus.BUILDING, started_at__lt=stale_before)
    )
    return list(
        GamingSession.objects.filter(closed_at__isnull=False, closed_at__lt=closed_before)
        .filter(~Exists(missing) | Exists(waiting))
        .order_by("closed_at", "pk")
        .values_list("pk", flat=True)
    )


def report_without_pdf_list(*, generated_before: datetime) -> list[int]:
    """Stored reports whose PDF as closed is still missing (its message was lost)."""
    pdf = ReportFile.objects.filter(report=OuterRef("pk"), name="settlement.pdf")
    return list(
        SettlementReport.objects.filter(
            status=ReportStatus.READY, generated_at__lt=generated_before
        )
        .filter(~Exists(pdf))
        .order_by("pk")
        .values_list("pk", flat=True)
    )


def open_gaming_session_list() -> list[GamingSession]:
    """Gaming sessions still open (the manager closes one to settle it)."""
    return list(
        GamingSession.objects.filter(closed_at__isnull=True)
        .select_related("opened_by")
        .order_by("opened_at", "pk")
    )
