"""Reads at the table level: what screens, the API and reports show (docs/conventions.md,
rule 2)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.contrib.auth.models import User
from django.db.models import Exists, OuterRef, Prefetch, QuerySet, Sum

from establishment.models import GamingSession, Player
from ledger.models import Account, AccountKind
from ledger.selectors import account_balance_get, place_balance_get
from tables.engine import LegalAction
from tables.engine.settlement import CAGNOTTE, results_of
from tables.memo import Memo
from tables.models import (
    BankTenure,
    Coup,
    CroupierAssignment,
    LevyCharge,
    Sabot,
    SeatOccupancy,
    Table,
    TableEvent,
    TableSession,
    VoidDecision,
    VoidRequest,
)
from tables.postings import table_place, table_session_place
from tables.services.inventory import house_stock_list
from tables.services.journal import (
    Journal,
    engine_start,
    journal_advance,
    journal_get,
    last_seq_get,
)
from tables.sql import recent_coups_sql, void_flags_converted
from tables.stock_models import StockAssignment, StockItem

if TYPE_CHECKING:
    from uuid import UUID


def table_list(*, active_only: bool = True) -> QuerySet[Table]:
    """Tables by number, each with its open session (if any) and who sits there."""
    open_sessions = TableSession.objects.filter(closed_at__isnull=True).prefetch_related(
        Prefetch(
            "seat_occupancies",
            queryset=SeatOccupancy.objects.filter(left_at__isnull=True).select_related("player"),
            to_attr="seated",
        )
    )
    tables = Table.objects.all()
    if active_only:
        tables = tables.filter(is_active=True)
    return tables.prefetch_related(
        Prefetch("sessions", queryset=open_sessions, to_attr="open_sessions")
    ).order_by("number")


def table_session_list(*, visible: QuerySet[TableSession]) -> QuerySet[TableSession]:
    """The table sessions of `visible` (those a caller may see), newest first, each with its
    table, its gaming session and who opened and closed it."""
    return visible.select_related("table", "gaming_session", "opened_by", "closed_by").order_by(
        "-opened_at", "-pk"
    )


def open_table_session_get(*, public_id: UUID) -> TableSession | None:
    """The open table session with this public id, else None (closed, or no such one): the
    séance an item of the house's stock or a ticket book is assigned to."""
    return TableSession.objects.filter(public_id=public_id, closed_at__isnull=True).first()


def seat_occupancy_list(*, table_session: TableSession) -> QuerySet[SeatOccupancy]:
    """Who sat where and when at a table session, in the order they sat down."""
    return (
        SeatOccupancy.objects.filter(table_session=table_session)
        .select_related("player")
        .order_by("sat_at", "seat_number", "pk")
    )


def levy_charge_list(*, table_session: TableSession) -> QuerySet[LevyCharge]:
    """The fees charged at a table session from its seating (docs/rules/levy.md, LV-3), in the
    order they were charged, each with its player and its ledger transaction."""
    return (
        LevyCharge.objects.filter(table_session=table_session)
        .select_related("player", "transaction")
        .order_by("charged_at", "pk")
    )


def sabot_list(*, table_session: TableSession) -> QuerySet[Sabot]:
    """The sabots of a table session by number, each with who brought it in."""
    return (
        Sabot.objects.filter(table_session=table_session)
        .select_related("opened_by")
        .order_by("number")
    )


@dataclass(frozen=True)
class SeatView:
    seat: int
    player_code: str | None
    player_name: str | None


@dataclass(frozen=True)
class TableState:
    """Where a table stands now: everything the table screen and the API's state show.

    `seq` is the number of the last event: a client posts `seq + 1` as the sequence number it
    expects. `legal` comes from the engine (`legal_actions`), `view` from the game's `view`.
    """

    table_session: TableSession
    seq: int
    phase: str
    banker: str | None
    interrupted: bool
    legal: tuple[LegalAction, ...]
    view: dict[str, Any]
    seats: tuple[SeatView, ...]
    standing: tuple[str, ...]
    cagnotte_chips: int
    players: dict[str, str] = field(default_factory=dict)

    @property
    def legal_types(self) -> list[str]:
        return sorted({legal.type for legal in self.legal})

    @property
    def is_open(self) -> bool:
        return self.table_session.closed_at is None


def cagnotte_balance_get(*, table: Table, gaming_session: GamingSession) -> int:
    """The cagnotte of a table in a gaming session (one statement)."""
    return place_balance_get(
        kind=AccountKind.CAGNOTTE,
        place=table_place(table.public_id),
        gaming_session_id=gaming_session.pk,
    )


def _state_cagnotte(state: Any) -> int:
    """What the engine's state put in the cagnotte (COM-6.4), net (COM-5.4): every coup of this
    table session that stands (a voided coup is not in the state) and the session's movements."""
    transfers = [t for coup in state.coups for t in coup.transfers]
    return results_of([*transfers, *state.session_transfers]).get(CAGNOTTE, 0)


# The cagnotte this table booked in the gaming session before this table session opened (a
# table closed and opened again the same night), per table session, kept a minute.
_earlier_cagnotte: Memo[int] = Memo(size=4096, lifetime=60.0)


def _earlier_cagnotte_get(table_session: TableSession) -> int:
    return _earlier_cagnotte.get_or_compute(
        str(table_session.public_id),
        lambda: place_balance_get(
            kind=AccountKind.CAGNOTTE,
            place=table_place(table_session.table.public_id),
            gaming_session_id=table_session.gaming_session_id,
            other_than_place=table_session_place(table_session.public_id),
        ),
    )


# Players' names by member number, per table session, kept a minute: the table screen draws
# them after every action, and names do not change during a coup.
_player_names: Memo[dict[str, str]] = Memo(size=1024, lifetime=60.0)


def _player_names_get(table_session: TableSession, codes: list[str]) -> dict[str, str]:
    return _player_names.get_or_compute(
        (str(table_session.public_id), tuple(sorted(codes))),
        lambda: dict(
            Player.objects.filter(member_number__in=codes).values_list("member_number", "name")
        ),
    )


def table_state_get(*, table_session: TableSession, last_seq: int | None = None) -> TableState:
    """The current state of a table session, replayed (or cached) through the engine.

    `last_seq` is the number of the table's last event when the caller knows it (it has just
    recorded it); otherwise it is read.
    """
    if last_seq is None:
        last_seq = last_seq_get(table_session)
    journal = journal_get(table_session, last_seq)
    state = journal.state
    codes = [code for _, code in state.seating.seats] + list(state.seating.standing)
    names = _player_names_get(table_session, codes) if codes else {}
    seats = tuple(
        SeatView(
            seat, state.seating.player_at(seat), names.get(state.seating.player_at(seat) or "")
        )
        for seat in range(1, state.seating.seat_count + 1)
    )
    closed = table_session.closed_at is not None
    legal = () if closed or journal.interrupted else journal.game.legal_actions(state)
    return TableState(
        table_session=table_session,
        seq=last_seq,
        phase=state.phase,
        banker=state.banker,
        interrupted=journal.interrupted,
        legal=tuple(legal),
        view=journal.game.view(state),
        seats=seats,
        standing=tuple(state.seating.standing),
        # The books' balance of the table's cagnotte, without reading the books on every
        # action: what this table session's coups put there (the ledger books exactly the
        # engine's transfers, INV1) plus what earlier sessions of the table did.
        cagnotte_chips=_earlier_cagnotte_get(table_session) + _state_cagnotte(state),
        players=names,
    )


def coup_list(*, table_session: TableSession) -> QuerySet[Coup]:
    """The settled coups of a table session, newest first, with their void status."""
    approved = VoidDecision.objects.filter(request__coup=OuterRef("pk"), approved=True)
    pending = VoidRequest.objects.filter(coup=OuterRef("pk"), decision__isnull=True)
    return (
        Coup.objects.filter(table_session=table_session)
        .annotate(is_voided=Exists(approved), void_pending=Exists(pending))
        .order_by("-settled_seq")
    )


def recent_coup_list(*, table_session: TableSession, limit: int) -> list[Coup]:
    """The last `limit` settled coups of a table session, newest first, with their void status
    (`is_voided`, `void_pending`) as `coup_list` gives them: the statement written out
    (`tables.sql.recent_coups_sql`), as the table screen reads it after every action."""
    return void_flags_converted(Coup.objects.raw(recent_coups_sql(), [table_session.pk, limit]))


def coup_get(*, table_session: TableSession, number: int) -> Coup | None:
    """The live (not voided) coup with this number, else the latest voided one."""
    return coup_list(table_session=table_session).filter(number=number).first()


def event_list(*, table_session: TableSession) -> QuerySet[TableEvent]:
    """The table's journal in order, with who recorded each line."""
    return (
        TableEvent.objects.filter(table_session=table_session)
        .select_related("recorded_by")
        .order_by("seq")
    )


def coup_events_get(*, coup: Coup) -> QuerySet[TableEvent]:
    """A coup's history: its actions from the first to the one that settled it, and any
    undo or void recorded in between or against it."""
    return event_list(table_session=coup.table_session).filter(
        seq__gte=coup.first_seq, seq__lte=coup.settled_seq
    )


def void_request_pending_list(
    *, gaming_session: GamingSession | None = None
) -> QuerySet[VoidRequest]:
    """Void requests waiting for an inspector's decision (the inspector's screen)."""
    requests = VoidRequest.objects.filter(decision__isnull=True).select_related(
        "coup__table_session__table", "requested_by"
    )
    if gaming_session is not None:
        requests = requests.filter(coup__table_session__gaming_session=gaming_session)
    return requests.order_by("requested_at")


def bank_tenure_list(*, table_session: TableSession) -> QuerySet[BankTenure]:
    """The register of bankers of a table session (art. 71), in order."""
    return (
        BankTenure.objects.filter(table_session=table_session)
        .select_related("player")
        .order_by("seq")
    )


def player_position_get(*, player: Player, gaming_session: GamingSession) -> int:
    """A player's result so far in the gaming session (his position account), in chips."""
    account = Account.objects.filter(
        kind=AccountKind.PLAYER_POSITION, player=player, gaming_session=gaming_session
    ).first()
    return account_balance_get(account=account) if account else 0


def cagnotte_total_get(*, gaming_session: GamingSession) -> int:
    """The levy booked by every coup of the gaming session (sum of the coups' cagnotte)."""
    total = (
        Coup.objects.filter(table_session__gaming_session=gaming_session)
        .exclude(void_requests__decision__approved=True)
        .aggregate(total=Sum("cagnotte_chips"))
    )
    return int(total["total"] or 0)


@dataclass(frozen=True)
class SabotLife:
    """A shoe's life at the table (CF-3; the pack of LM-3): opened and cut by whom, cards
    drawn, when the red stop card came out, when it ended."""

    sabot: Sabot
    cards_drawn: int
    red_card_seq: int | None
    ended_seq: int | None


def sabot_life_list(*, table_session: TableSession) -> list[SabotLife]:
    """Every sabot of a table session with what its journal says happened to it."""
    sabots = list(
        Sabot.objects.filter(table_session=table_session)
        .select_related("cut_by", "opened_by")
        .order_by("number")
    )
    tracked = [s for s in sabots if s.opened_seq is not None]
    if not tracked:
        return [SabotLife(s, 0, None, None) for s in sabots]
    events = list(
        TableEvent.objects.filter(table_session=table_session)
        .order_by("seq")
        .values_list("seq", "kind", "action", "sets_aside")
    )
    drawn: dict[int, int] = {}
    red: dict[int, int] = {}
    starts = {s.opened_seq: s.pk for s in tracked}
    current: int | None = None
    size = 52 * int(table_session.settings.get("decks", 1))
    # One fold over the journal, reading the pack after each effective action.
    aside = {n for _s, kind, _a, out in events if kind in ("undo", "void") for n in out}
    opening = next((a for _s, kind, a, _o in events if kind == "open"), None)
    game, state = engine_start(table_session, opening)
    journal = Journal(game, state, 0, False, ())
    for seq, kind, action, _aside in events:
        if kind != "action" or seq in aside:
            continue
        journal = journal_advance(journal, seq, kind, action)
        if seq in starts:
            current = starts[seq]
        if current is None:
            continue
        pack = game.view(journal.state).get("pack") or {}
        if "left" in pack:
            drawn[current] = size - int(pack["left"])
        if pack.get("before_stop_card") == 0 and current not in red:
            red[current] = seq
    ends = {s.pk: n.opened_seq for s, n in zip(tracked, tracked[1:], strict=False)}
    return [SabotLife(s, drawn.get(s.pk, 0), red.get(s.pk), ends.get(s.pk)) for s in sabots]


# -- duty: who works which table (model 11, column 3 bis: docs/registers.md) -------------------


def duty_period_list(
    *, gaming_session: GamingSession | None = None, table_session: TableSession | None = None
) -> QuerySet[CroupierAssignment]:
    """Every duty period of the night (or of one table's séance): who, which role, from, until,
    who put him on duty and who ended it; by table, then time."""
    periods = CroupierAssignment.objects.select_related(
        "staff", "assigned_by", "released_by", "table_session__table"
    )
    if table_session is not None:
        periods = periods.filter(table_session=table_session)
    if gaming_session is not None:
        periods = periods.filter(table_session__gaming_session=gaming_session)
    return periods.order_by("table_session__table__number", "assigned_at", "pk")


def staff_free_list(*, role: str, gaming_session: GamingSession) -> QuerySet[User]:
    """Whom the floor offers for a duty: the active members of that role on shift tonight (they
    have logged in since the gaming session opened) who are on duty at no table now."""
    busy = CroupierAssignment.objects.filter(staff=OuterRef("pk"), released_at__isnull=True)
    return (
        User.objects.filter(
            groups__name=role, is_active=True, last_login__gte=gaming_session.opened_at
        )
        .exclude(Exists(busy))
        .distinct()
        .order_by("username")
    )


def relief_get(*, table_session: TableSession, user: Any) -> CroupierAssignment | None:
    """The duty `user` last ended at this table, if he is not on duty there now: what his
    screen says when it has turned read-only (relieved at, by whom)."""
    periods = CroupierAssignment.objects.filter(table_session=table_session, staff=user)
    if periods.filter(released_at__isnull=True).exists():
        return None
    return periods.select_related("released_by").order_by("-released_at", "-pk").first()


def stock_free_numbers(*, table_session_id: int) -> list[int]:
    """The numbered sabots and packs at a table that no shoe has used yet (model 19): what the
    croupier picks a new shoe from."""
    return list(
        StockAssignment.objects.filter(
            table_session_id=table_session_id, returned_at__isnull=True, item__sabots__isnull=True
        )
        .order_by("item__number")
        .values_list("item__number", flat=True)
    )


def stock_list(*, table_session: TableSession | None = None) -> QuerySet[StockItem]:
    """The house's numbered sabots and packs with where each is (model 19), or those that have
    been at one séance."""
    items = house_stock_list(
        StockItem.objects.all(), StockAssignment, "sabots", table_session=table_session
    )
    return items.order_by("kind", "number")
