"""A coup, replayed for the auditor: every journal line of it, the table's state after each, the
money the engine moves against what the books hold, the corrections that touch it and the
sabot's counts. The screen (`reports/audit/views.py`) and the API (`reports/api/audit.py`)
render the same `CoupReplay` (its rows in `reports/audit/replayed.py`).

The state after a line is the engine's fold of the journal as it stood once that line was
written (`tables.services.journal.journal_build` over the lines up to it): an action later
undone or voided shows the state the croupier saw then, and the undo or void the state it
brought back. The transfers are compared with the books by the reconciliation's own comparison
(`reports.reconciliation.legs_compare`, COM-10.1). Words come from the engine's catalogue in
the reader's language (`tables/words.py`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Q

from establishment.models import Player
from ledger.models import Account, Entry, Transaction
from reports.audit.replayed import (
    BookedTransaction,
    BookLine,
    Books,
    CoupLink,
    CoupReplay,
    ReplayedEvent,
    SabotCounts,
    StateSummary,
    VoidRequestRow,
)
from reports.reconciliation import LegRow, legs_by_transaction, legs_compare
from tables.engine import RuleError, Seating
from tables.models import Coup, EventKind, Sabot, TableEvent, TableSession, VoidRequest
from tables.postings import coup_posting, posting_seq, posting_target, table_session_place
from tables.services.journal import BETWEEN_COUPS, Journal, journal_advance, journal_build
from tables.words import chips_text, say_label, table_word

CROUPIER = "croupier"
# The parameters of an action that name a person: a seat, a member number or the croupier.
PEOPLE = frozenset({"actor", "cut_by", "seat", "to", "player", "successor"})
CARDS_IN_A_PACK = 52
Row = tuple[int, str, Any, Any]  # (seq, kind, action, sets_aside), as journal_build reads them


# -- words ------------------------------------------------------------------------------------


class _Words:
    """The table's words for who and what, players by name (`names`: member number → name)."""

    def __init__(self, game: str, names: Mapping[str, str]) -> None:
        self.game = game
        self.names = names

    def who(self, value: Any, seating: Seating | None = None) -> str:
        if value == CROUPIER:
            return table_word("owner", CROUPIER)
        if isinstance(value, int) and not isinstance(value, bool):
            code = seating.player_at(value) if seating else None
            return f"{value} · {self.names.get(code, code)}" if code else str(value)
        text = str(value)
        if text.startswith("reliquat:"):
            code = text.partition(":")[2]
            name = self.names.get(code, code)
            return say_label("owner.reliquat", player=name) or f"reliquat {name}"
        if text in ("cagnotte", "reserve_fund"):
            return table_word("owner", text)
        return f"{self.names[text]} ({text})" if text in self.names else text

    def value(self, name: str, value: Any, seating: Seating | None) -> str:
        if name in PEOPLE:
            return self.who(value, seating)
        if isinstance(value, list):
            return " ".join(self.claim(item, seating) for item in value)
        if isinstance(value, bool):
            return "✓" if value else "✗"
        if isinstance(value, int):
            return chips_text(value)
        return str(value)

    def claim(self, item: Any, seating: Seating | None) -> str:
        """An item of a list parameter: a rank, or a chemin de fer claim (CF-4.2)."""
        if not isinstance(item, Mapping):
            return str(item)
        parts = [self.who(item.get("player"), seating), str(item.get("kind", ""))]
        if item.get("amount") is not None:
            parts.append(chips_text(item["amount"]))
        return "[" + " ".join(part for part in parts if part) + "]"

    def action(self, action: Mapping[str, Any], seating: Seating | None) -> str:
        """An engine action as the table says it: its label, who, then its parameters."""
        if not action.get("type"):
            return ""
        text = table_word("action", str(action["type"]), self.game)
        if "actor" in action and action["actor"] != CROUPIER:
            text += f" — {self.who(action['actor'], seating)}"
        params = [
            f"{name} {self.value(name, value, seating)}"
            for name, value in action.items()
            if name not in ("type", "actor")
        ]
        return f"{text} ({'; '.join(params)})" if params else text


def _summary(journal: Journal, words: _Words) -> StateSummary:
    state = journal.state
    view = journal.game.view(state)
    pack = view.get("pack") or {}
    banker = state.banker
    return StateSummary(
        phase=state.phase,
        phase_label=table_word("phase", state.phase, words.game),
        banker=banker,
        banker_name=words.who(banker) if banker else "",
        bank=view.get("bank") if isinstance(view.get("bank"), int) else None,
        to_cover=view.get("to_cover") if isinstance(view.get("to_cover"), int) else None,
        stakes=[
            {
                "player": stake.get("player"),
                "who": words.who(stake.get("player")),
                "amount": stake.get("amount"),
            }
            for stake in view.get("stakes") or []
            if isinstance(stake, Mapping)
        ],
        hands=[
            {
                "who": hand.get("who"),
                "player": hand.get("player"),
                "cards": list(hand.get("cards") or []),
                "total": hand.get("total"),
            }
            for hand in view.get("hands") or []
            if hand.get("cards")
        ],
        cards_left=int(pack["left"]) if isinstance(pack.get("left"), int) else None,
        coups_played=len(state.coups),
        interrupted=journal.interrupted,
    )


def _refused_summary(error: RuleError | None) -> StateSummary:
    """No state: the engine refused the journal up to here (shown with the rules' code)."""
    code = error.code if error else "E_REPLAY"
    return StateSummary("", "", None, "", None, None, [], [], None, 0, False, error=code)


# -- the fold ---------------------------------------------------------------------------------


def _aside_by(events: Sequence[TableEvent]) -> dict[int, int]:
    """seq of an action → seq of the undo or void that set it aside."""
    found: dict[int, int] = {}
    for event in events:
        if event.kind in (EventKind.UNDO, EventKind.VOID):
            for seq in event.sets_aside:
                found.setdefault(int(seq), event.seq)
    return found


def _window(
    coup: Coup, events: Sequence[TableEvent], previous_settled: int, void_seq: int | None
) -> set[int]:
    """The lines of the coup: from its first action to the one that settled it; the void that
    set it aside; and the attempts at its start undone before it (an undo after the coup
    before, with the action it set aside, when that action was no seating or new shoe)."""
    seqs = set(range(coup.first_seq, coup.settled_seq + 1))
    if void_seq is not None:
        seqs.add(void_seq)
    by_seq = {event.seq: event for event in events}
    for event in events:
        if not previous_settled < event.seq < coup.first_seq or event.kind != EventKind.UNDO:
            continue
        targets = [by_seq[int(s)] for s in event.sets_aside if int(s) in by_seq]
        if all(str(t.action.get("type", "")) not in BETWEEN_COUPS for t in targets):
            seqs.add(event.seq)
            seqs.update(t.seq for t in targets)
    return seqs


_PAUSES = (EventKind.INTERRUPT, EventKind.RESUME)


@dataclass
class _Fold:
    replayed: list[ReplayedEvent]
    before: Journal | None  # the journal just before the coup's first line
    before_void: Journal | None  # … just before its void


def _fold(
    table_session: TableSession,
    events: Sequence[TableEvent],
    window: set[int],
    void_seq: int | None,
    words: _Words,
) -> _Fold:
    """Each line of the window with the table's state once it was written."""
    aside_by = _aside_by(events)
    rows: list[Row] = []
    journal: Journal | None = None
    error: RuleError | None = None
    out = _Fold([], None, None)
    last = max(window)
    for event in events:
        if event.seq > last:
            break
        if event.seq in window and out.before is None:
            out.before = journal
        if event.seq == void_seq:
            out.before_void = journal
        seating = journal.state.seating if journal is not None else None
        rows.append((event.seq, event.kind, event.action, event.sets_aside))
        if error is None:
            try:
                if journal is None or event.kind not in (EventKind.ACTION, *_PAUSES):
                    journal = journal_build(table_session, rows)
                else:
                    journal = journal_advance(journal, event.seq, event.kind, event.action)
            except RuleError as refused:  # a journal the engine refuses: shown, never a crash
                error = refused
        if event.seq not in window:
            continue
        if error is None and journal is not None:
            state = _summary(journal, words)
        else:
            state = _refused_summary(error)
        out.replayed.append(
            ReplayedEvent(
                seq=event.seq,
                kind=event.kind,
                kind_label=str(EventKind(event.kind).label),
                action=dict(event.action),
                words=words.action(event.action, seating) if event.kind == EventKind.ACTION else "",
                recorded_by=event.recorded_by.get_username(),
                recorded_at=event.recorded_at,
                client=event.client,
                reason=event.reason,
                sets_aside=[int(s) for s in event.sets_aside],
                set_aside_by=aside_by.get(event.seq),
                state=state,
            )
        )
    return out


# -- the books --------------------------------------------------------------------------------


def _books(
    coup: Coup,
    transfers: Sequence[Mapping[str, Any]],
    events: Sequence[TableEvent],
    own_seqs: Iterable[int] | None,
    words: _Words,
) -> Books:
    """The coup's transactions in the books (every one of the séance's that names the coup,
    made by a line of this coup: `own_seqs`, or any line no correction set aside) against the
    engine's transfers, line by line."""
    place = table_session_place(coup.table_session.public_id)
    target = coup_posting(coup.number)
    aside = set(_aside_by(events))
    wanted = set(own_seqs) if own_seqs is not None else None
    found = [
        txn
        for txn in Transaction.objects.filter(
            place=place, reverses__isnull=True, idempotency_key__contains=f":{target}"
        ).order_by("pk")
        if posting_target(txn.idempotency_key) == target
        and (
            posting_seq(txn.idempotency_key) in wanted
            if wanted is not None
            else posting_seq(txn.idempotency_key) not in aside
        )
    ]
    reversals = dict(
        Transaction.objects.filter(reverses__in=found).values_list("reverses_id", "idempotency_key")
    )
    journal_keys = {key for event in events for key in event.outcome.get("postings", [])}
    legs: list[LegRow] = list(
        Entry.objects.filter(transaction__in=found)
        .order_by("transaction_id", "pk")
        .values_list("pk", "transaction_id", "account_id", "side", "reason", "amount")
    )
    accounts = {
        row["pk"]: row
        for row in Account.objects.filter(pk__in={leg[2] for leg in legs}).values(
            "pk", "kind", "player__member_number"
        )
    }
    compared = legs_compare(transfers, [t.pk for t in found], legs_by_transaction(legs, accounts))
    lines = [
        BookLine(
            side=str(side),
            owner=owner,
            who=words.who(owner),
            amount=int(amount),
            reason=reason,
            reason_label=table_word("transfer", reason),
            replayed=replayed,
            booked=booked,
        )
        for (owner, side, amount, reason), replayed, booked in compared.lines()
    ]
    return Books(
        lines=lines,
        transactions=[
            BookedTransaction(
                key=txn.idempotency_key,
                posted_at=txn.posted_at,
                memo=txn.memo,
                in_journal=txn.idempotency_key in journal_keys,
                reversed_by=reversals.get(txn.pk, ""),
            )
            for txn in found
        ],
    )


# -- the rest ---------------------------------------------------------------------------------


def _void_requests(coup: Coup) -> list[VoidRequestRow]:
    rows = []
    for request in (
        VoidRequest.objects.filter(coup=coup)
        .select_related("requested_by", "decision__decided_by", "decision__event")
        .order_by("requested_at", "pk")
    ):
        decision = getattr(request, "decision", None)
        rows.append(
            VoidRequestRow(
                requested_by=request.requested_by.get_username(),
                requested_at=request.requested_at,
                reason=request.reason,
                decided_by=decision.decided_by.get_username() if decision else "",
                decided_at=decision.decided_at if decision else None,
                approved=decision.approved if decision else None,
                note=decision.note if decision else "",
                event_seq=decision.event.seq if decision and decision.event else None,
            )
        )
    return rows


def _sabot(coup: Coup, before: StateSummary | None, after: StateSummary | None) -> SabotCounts:
    """The shoe the coup was dealt from, and its counts before and after it."""
    sabot = (
        Sabot.objects.filter(table_session=coup.table_session)
        .filter(
            Q(opened_seq__lte=coup.settled_seq)
            | Q(opened_seq__isnull=True, opened_at__lte=coup.settled_at)
        )
        .select_related("stock_item")
        .order_by("-number")
        .first()
    )
    decks = sabot.decks if sabot else int(coup.table_session.settings.get("decks", 1))
    size = CARDS_IN_A_PACK * decks

    def dealt(summary: StateSummary | None) -> int | None:
        left = summary.cards_left if summary else None
        return None if left is None else size - left

    return SabotCounts(
        number=sabot.number if sabot else 0,
        stock_number=sabot.stock_item.number if sabot and sabot.stock_item else None,
        decks=decks,
        dealt_before=dealt(before),
        dealt=dealt(after),
        left=after.cards_left if after else None,
    )


def _link(coup: Coup | None) -> CoupLink | None:
    if coup is None:
        return None
    return CoupLink(str(coup.public_id), coup.number, coup.table_session.table.number)


def _neighbours(coup: Coup) -> tuple[CoupLink | None, CoupLink | None]:
    """The coups settled before and after this one at the same table (any séance)."""
    same_table = Coup.objects.filter(table_session__table_id=coup.table_session.table_id)
    same_table = same_table.select_related("table_session__table")
    here = coup.table_session
    earlier = Q(table_session=here, settled_seq__lt=coup.settled_seq) | Q(
        table_session__opened_at__lt=here.opened_at
    )
    later = Q(table_session=here, settled_seq__gt=coup.settled_seq) | Q(
        table_session__opened_at__gt=here.opened_at
    )
    previous = same_table.filter(earlier).order_by("-table_session__opened_at", "-settled_seq")
    following = same_table.filter(later).order_by("table_session__opened_at", "settled_seq")
    return _link(previous.first()), _link(following.first())


def _names(events: Sequence[TableEvent]) -> dict[str, str]:
    codes: set[str] = set()
    for event in events:
        if event.kind == EventKind.OPEN:
            codes.update(str(code) for code in (event.action.get("seats") or {}).values())
            codes.update(str(code) for code in event.action.get("standing") or [])
        for value in event.action.values():
            if isinstance(value, str):
                codes.add(value)
    return dict(Player.objects.filter(member_number__in=codes).values_list("member_number", "name"))


def coup_replay_get(*, public_id: Any) -> CoupReplay | None:
    """The coup with this public id, replayed (None when there is none)."""
    coup = (
        Coup.objects.filter(public_id=public_id)
        .select_related("table_session__table", "table_session__house_settings")
        .first()
    )
    if coup is None:
        return None
    ts = coup.table_session
    events = list(TableEvent.objects.filter(table_session=ts).select_related("recorded_by"))
    events.sort(key=lambda event: event.seq)
    words = _Words(ts.game, _names(events))
    decision = (
        VoidRequest.objects.filter(coup=coup, decision__approved=True)
        .values_list("decision__event__seq", flat=True)
        .first()
    )
    previous_settled = (
        Coup.objects.filter(table_session=ts, settled_seq__lt=coup.settled_seq)
        .order_by("-settled_seq")
        .values_list("settled_seq", flat=True)
        .first()
    ) or 0
    window = _window(coup, events, previous_settled, decision)
    folded = _fold(ts, events, window, decision, words)
    by_seq = {event.seq: event for event in folded.replayed}
    if decision is not None and folded.before_void is not None:
        # A voided coup is no longer in the replay: its money as it stood before the void.
        replayed_coups = folded.before_void.state.coups
        own_seqs: list[int] | None = by_seq[decision].sets_aside if decision in by_seq else []
    else:
        rows = [(e.seq, e.kind, e.action, e.sets_aside) for e in events]
        try:
            replayed_coups = journal_build(ts, rows).state.coups
        except RuleError:
            replayed_coups = ()
        own_seqs = None
    engine_coup = next((c for c in replayed_coups if c.number == coup.number), None)
    transfers = [t.as_dict() for t in engine_coup.transfers] if engine_coup else []
    settled = by_seq.get(coup.settled_seq)
    before = _summary(folded.before, words) if folded.before is not None else None
    previous, following = _neighbours(coup)
    return CoupReplay(
        public_id=str(coup.public_id),
        number=coup.number,
        table=ts.table.number,
        game=ts.game,
        game_label=say_label(f"{ts.game}.title") or str(ts.get_game_display()),
        table_session=str(ts.public_id),
        time_zone=ts.house_settings.time_zone,
        outcome=coup.outcome,
        outcome_label=table_word("outcome", coup.outcome),
        banker=coup.banker,
        banker_name=words.who(coup.banker) if coup.banker else "",
        cagnotte_chips=coup.cagnotte_chips,
        first_seq=coup.first_seq,
        settled_seq=coup.settled_seq,
        settled_at=coup.settled_at,
        voided=decision is not None,
        events=folded.replayed,
        books=_books(coup, transfers, events, own_seqs, words),
        corrections=[e for e in folded.replayed if e.kind in (EventKind.UNDO, EventKind.VOID)],
        void_requests=_void_requests(coup),
        sabot=_sabot(coup, before, settled.state if settled else None),
        previous=previous,
        next=following,
        players=dict(words.names),
    )


def coup_at(*, table: int, moment: datetime) -> Coup | None:
    """The coup in play at `table` (its number) at `moment`, else the first settled after it:
    the first coup settled at or after that moment (a voided one too: it was played)."""
    return (
        Coup.objects.filter(table_session__table__number=table, settled_at__gte=moment)
        .order_by("settled_at", "settled_seq", "pk")
        .first()
    )


def coup_public_ids_get(*, table_sessions: Iterable[str]) -> dict[tuple[str, int], str]:
    """(séance public id, settled seq) → the coup's public id, for these séances (one query):
    how the settlement report, which names coups by their séance and line, links to each."""
    rows = Coup.objects.filter(table_session__public_id__in=list(table_sessions)).values_list(
        "table_session__public_id", "settled_seq", "public_id"
    )
    return {(str(ts), int(seq)): str(public_id) for ts, seq, public_id in rows}
