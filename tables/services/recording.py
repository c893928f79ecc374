"""`record`: the one entry point for everything recorded at a table (docs/architecture.md, "How
a recorded action flows").

In one durable transaction: lock the table session's row, check who may record, check the
sequence number the screen expects and the idempotency key (`tables.services.writing`), apply
the action to the table's state through the engine, append it to the journal and — when the
engine moves money — book the transfers, write the settled coup, the register of bankers and
the seats. A `RuleError` changes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from establishment.door import player_admission_check_codes
from establishment.errors import DomainError, ErrorCode
from tables.engine import CoupRecord, GameState, RuleError, Transfer
from tables.engine.registry import NEW_PACK_ACTIONS
from tables.engine.session import ENTERING, NAMING_BANKER
from tables.models import BankTenure, Coup, EventKind, Sabot, SeatOccupancy, TableSession
from tables.postings import (
    SESSION_POSTING,
    coup_after_posting,
    coup_posting,
    posting_base,
    posting_key,
)
from tables.services.books import accounts_for, players_by_code, transfers_post
from tables.services.journal import Journal, journal_advance, journal_get, last_seq_get
from tables.services.levies import fees_charge
from tables.services.stock import stock_for_new_shoe
from tables.services.writing import Recorded, journal_lock, request_payload
from tables.stock_models import StockItem
from tables.words import say

if TYPE_CHECKING:
    from django.contrib.auth.models import User


# -- errors ----------------------------------------------------------------------------------


class RuleRefusedError(DomainError):
    """The engine refused the action (a `RuleError`): `rule_code` is the code of docs/rules/,
    `extra["params"]` the values its words name; the message is those words in the language
    of the request (`tables.words.say`)."""

    code = ErrorCode.RULE_REFUSED
    http_status = 422

    def __init__(self, error: RuleError, *, game: str | None = None, **extra: Any) -> None:
        message = say(error.code, error.params, game=game)
        super().__init__(message, rule_code=error.code, params=dict(error.params), **extra)
        self.rule_code = error.code
        self.rule_params = dict(error.params)


class TableInterruptedError(DomainError):
    code = ErrorCode.TABLE_INTERRUPTED


# -- record ----------------------------------------------------------------------------------


# The door's check runs before the action's transaction (its audit row is committed on its own,
# so a refusal's row stays: `establishment.door`). Which actions bring whom into play is the
# engine's to say (`tables.engine.session.ENTERING`, `NAMING_BANKER`).
ADMISSION_WHERE = {"sit": "seat", "add_standing": "standing"}


def _row(table_session: TableSession) -> TableSession:
    """The table session's row, when given the console's reference to it (its key, public id
    and game only, `tables.console.access.table_session_reference`): the journal and the audit
    row need its settings and its gaming session."""
    if getattr(table_session, "gaming_session_id", None) is not None:
        return table_session
    return TableSession.objects.select_related("gaming_session").get(pk=table_session.pk)


def admitted_players(table_session: TableSession, action: Mapping[str, Any]) -> list[str]:
    """The member numbers `action` brings into play at this table, for the door's check."""
    kind = str(action.get("type", ""))
    if kind in ENTERING:
        player = action.get(ENTERING[kind])
        return [player] if isinstance(player, str) and player else []
    seat = action.get(NAMING_BANKER[kind]) if kind in NAMING_BANKER else None
    if not isinstance(seat, int):
        return []
    journal = journal_get(_row(table_session), last_seq_get(table_session))
    code = dict(journal.state.seating.seats).get(seat)
    return [code] if code else []


def admission_check(
    table_session: TableSession, action: Mapping[str, Any], *, user: User, client: str
) -> None:
    """Refuse a barred or under-age person sat down, standing or named banker (422
    `player_refused`, words that say nothing more), each check in the audit log."""
    kind = str(action.get("type", ""))
    if kind not in ENTERING and kind not in NAMING_BANKER:
        return
    codes = admitted_players(table_session, action)
    if codes:
        player_admission_check_codes(
            codes=codes,
            user=user,
            where=ADMISSION_WHERE.get(kind, "banker"),
            client=client,
            table=_row(table_session),
        )


def record(
    *,
    table_session: TableSession,
    action: Mapping[str, Any],
    expected_seq: int,
    user: User,
    idempotency_key: str,
    client: str = "",
    stock_number: int | None = None,
) -> Recorded:
    """Record one action at a table (a card, a stake, a decision, a session action).

    `action` is the engine's form: `{"type": ..., "actor": ..., <parameters>}`.
    `expected_seq` is the number this action will get (the last one the screen saw plus one).
    A person brought into play is checked at the door first (`admission_check`). A new shoe or
    pack is formed from one of the house's numbered sabots or packs at the table
    (`stock_number`, model 19) when the séance has any (`stock_for_new_shoe`).
    """
    admission_check(table_session, action, user=user, client=client)
    with transaction.atomic(durable=True):
        # The shared steps of `tables.services.writing`, at no cost to the hot path: the lock, the
        # head and the tail in one round trip (`journal_lock`), the line and its audit row in one
        # more (`JournalWrite.append`).
        write = journal_lock(
            table_session=table_session,
            user=user,
            expected_seq=expected_seq,
            idempotency_key=idempotency_key,
            payload=request_payload(EventKind.ACTION, action),
            client=client,
            read_tail=True,
        )
        if write.earlier is not None:
            return write.replayed()
        locked, seq = write.table_session, write.seq
        journal = journal_get(locked, write.last_seq, write.tail)
        if journal.interrupted:
            raise TableInterruptedError("Play is interrupted at this table; restart it first.")
        try:
            after = journal_advance(journal, seq, EventKind.ACTION, action)
        except RuleError as error:
            raise RuleRefusedError(error, game=locked.game, state=journal.state.phase) from error
        how = str(action.get("type", ""))
        stock_item = stock_for_new_shoe(locked, stock_number) if how in NEW_PACK_ACTIONS else None
        if action.get("type") in ("sit", "add_standing"):
            players_by_code([action["player"]])  # the engine knows ids; the house knows players
        outcome = consequences_book(
            table_session=locked,
            before=journal,
            after=after,
            seq=seq,
            user=user,
            how=how,
            action=action,
            stock_item=stock_item,
        )
        # LV-3: at a table on a time or participation fee, what the seating owes by now (a
        # player who sat down owes his period at once) is charged with the action; at any
        # other table, nothing (the séance's settings say so, no query).
        fees_charge(locked, user=user, seats=after.state.seating.seats)
        write.append(
            EventKind.ACTION,
            after=after,
            outcome=outcome,
            action=action,
            audit="record",
            details={"seq": seq, "recorded": dict(action), "state": outcome["state"]},
        )
        return write.recorded(outcome)


# -- what an event changes besides the journal -----------------------------------------------


def _new_money(
    before: GameState, after: GameState
) -> tuple[list[CoupRecord], list[tuple[CoupRecord, tuple[Transfer, ...]]], list[Transfer]]:
    """Coups settled, transfers added to an already settled coup, and session transfers."""
    settled = list(after.coups[len(before.coups) :])
    amended: list[tuple[CoupRecord, tuple[Transfer, ...]]] = []
    for old, new in zip(before.coups, after.coups, strict=False):
        if new is not old and new.transfers != old.transfers:
            amended.append((new, new.transfers[len(old.transfers) :]))
    moved = list(after.session_transfers[len(before.session_transfers) :])
    return settled, amended, moved


def coup_row(
    table_session: TableSession, coup: CoupRecord, *, before: Journal, seq: int, at: Any
) -> Coup:
    """The row of a coup the engine settled at line `seq` (unsaved); `before` is the journal
    without that line. The benchmarks' night (bench/settlement_night.py) builds its rows here
    too, so that it writes what the recording service writes."""
    return Coup(
        table_session=table_session,
        number=coup.number,
        outcome=coup.outcome,
        banker=before.state.banker or "",
        transfers=[t.as_dict() for t in coup.transfers],
        results=coup.results,
        faults=list(coup.faults),
        cagnotte_chips=sum(t.amount for t in coup.transfers if t.reason == "cagnotte"),
        first_seq=before.first_coup_action(seq),
        settled_seq=seq,
        settled_at=at,
    )


def consequences_book(
    *,
    table_session: TableSession,
    before: Journal,
    after: Journal,
    seq: int,
    user: User,
    how: str,
    action: Mapping[str, Any] | None = None,
    stock_item: StockItem | None = None,
) -> dict[str, Any]:
    """Book what one accepted event changed: ledger, coups, bank register, seats, sabots (the
    new one formed from `stock_item`, when the house numbers them)."""
    state = after.state
    settled, amended, moved = _new_money(before.state, state)
    owners: set[str] = set()
    for coup in settled:
        owners.update(t for tr in coup.transfers for t in (tr.source, tr.target))
    for _coup, extra in amended:
        owners.update(t for tr in extra for t in (tr.source, tr.target))
    owners.update(t for tr in moved for t in (tr.source, tr.target))
    accounts = accounts_for(sorted(owners), table_session) if owners else {}
    postings: list[str] = []
    base = posting_base(table_session.public_id, seq)

    def book(transfers: tuple[Transfer, ...] | list[Transfer], suffix: str, memo: str) -> None:
        if not transfers:
            return
        key = posting_key(base, suffix)
        transfers_post(
            transfers=transfers,
            accounts=accounts,
            idempotency_key=key,
            memo=f"Table {table_session.table.number}, {memo}",
            table_session=table_session,
            posted_by=user,
        )
        postings.append(key)

    now = timezone.now()
    for coup in settled:
        book(coup.transfers, coup_posting(coup.number), f"coup {coup.number} ({coup.outcome})")
    if settled:
        Coup.objects.bulk_create(
            coup_row(table_session, coup, before=before, seq=seq, at=now) for coup in settled
        )
    for coup, extra in amended:
        book(extra, coup_after_posting(coup.number), f"coup {coup.number}, after the settlement")
    book(moved, SESSION_POSTING, "session movement")

    if before.state.banker != state.banker:
        tenure_open(table_session, state, seq, how, now)
    if before.state.seating != state.seating:
        seats_sync(table_session, state, now)
    if how in NEW_PACK_ACTIONS:
        _sabot_next(table_session, user, now, seq, before.state, action, stock_item)
    return {
        "state": state.phase,
        "banker": state.banker,
        "coups": [coup.number for coup in settled],
        "postings": postings,
    }


def tenure_open(
    table_session: TableSession, state: GameState, seq: int, how: str, now: Any
) -> None:
    """A new line in the register of bankers (art. 71): the bank changed hands."""
    player = players_by_code([state.banker])[state.banker] if state.banker else None
    BankTenure.objects.create(
        table_session=table_session,
        seq=seq,
        player=player,
        how=how if how != "leave" else "rotation",
        first_coup_number=len(state.coups) + 1,
        started_at=now,
    )


def seats_sync(table_session: TableSession, state: GameState, now: Any) -> None:
    """Keep the seat occupancies (what the floor sees) equal to the engine's seating."""
    wanted = dict(state.seating.seats)
    current = {
        occ.seat_number: occ
        for occ in SeatOccupancy.objects.filter(
            table_session=table_session, left_at__isnull=True
        ).select_related("player")
    }
    leaving = [
        occ.pk for seat, occ in current.items() if wanted.get(seat) != occ.player.member_number
    ]
    if leaving:
        SeatOccupancy.objects.filter(pk__in=leaving).update(left_at=now)
    arriving = {
        seat: code
        for seat, code in wanted.items()
        if seat not in current or current[seat].pk in leaving
    }
    if arriving:
        players = players_by_code(list(arriving.values()))
        SeatOccupancy.objects.bulk_create(
            SeatOccupancy(
                table_session=table_session,
                seat_number=seat,
                player=players[code],
                sat_at=now,
            )
            for seat, code in arriving.items()
        )


def _sabot_next(
    table_session: TableSession,
    user: User,
    now: Any,
    seq: int,
    before: GameState,
    action: Mapping[str, Any] | None,
    stock_item: StockItem | None,
) -> None:
    """A new shoe (CF-3) or a new pack (LM-3) was formed: the previous sabot is finished.

    The player who cut (`cut_by`, a seat, in chemin de fer) is kept with the sabot.
    """
    cut_seat = (action or {}).get("cut_by")
    cutter = before.seating.player_at(cut_seat) if isinstance(cut_seat, int) else None
    sabot_replace(
        table_session,
        user,
        now,
        opened_seq=seq,
        cut_by=players_by_code([cutter])[cutter] if cutter else None,
        stock_item=stock_item,
    )


def sabot_replace(
    table_session: TableSession,
    opened_by: User,
    now: Any,
    *,
    opened_seq: int | None = None,
    cut_by: Any = None,
    stock_item: StockItem | None = None,
) -> Sabot:
    """Close the sabot in play, if any, and bring the next one (numbers run 1, 2, …), with the
    decks the table's settings say."""
    Sabot.objects.filter(table_session=table_session, closed_at__isnull=True).update(closed_at=now)
    last = Sabot.objects.filter(table_session=table_session).aggregate(last=Max("number"))
    decks = table_session.settings.get("decks", 1)
    if stock_item is not None:
        decks = stock_item.decks
    return Sabot.objects.create(
        table_session=table_session,
        number=(last["last"] or 0) + 1,
        decks=decks if isinstance(decks, int) else 1,
        opened_at=now,
        opened_by=opened_by,
        opened_seq=opened_seq,
        cut_by=cut_by,
        stock_item=stock_item,
    )
