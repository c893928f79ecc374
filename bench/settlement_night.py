"""The night the settlement benchmark measures (bench/settlement.py): chemin de fer coups
played through the rules engine by a small driver and written as the recording service writes
them, and the ledger entries of other sessions beside them.

Imported by bench/settlement.py once it has set Django up.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

from django.contrib.auth.models import User
from django.db import connection, transaction
from django.utils import timezone

from establishment.chain import GENESIS
from establishment.house import house_journee_of, house_settings_in_force
from establishment.models import GamingSession, Player
from establishment.rows import chain_extend
from ledger.chain import LEDGER_CHAIN, transaction_content
from ledger.models import Account, AccountKind, Entry, Side, Transaction
from tables import postings as places
from tables.chain import journal_link
from tables.engine import Action, Seating, game_get, step
from tables.engine.settlement import CAGNOTTE
from tables.models import (
    BankTenure,
    Coup,
    EventKind,
    Table,
    TableEvent,
    TableSession,
)
from tables.services.journal import Journal, journal_advance, opening_seating
from tables.services.recording import _new_money, coup_row

GAME = game_get("chemin_de_fer")
SETTINGS = GAME.settings_validate({"decks": 8, "chip_unit": 1, "min_bank": 100, "min_stake": 1}, 6)
PICTURES = ("10", "J", "Q", "K")
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", *PICTURES)


def _points(rank: str) -> int:
    return 1 if rank == "A" else 0 if rank in PICTURES else int(rank)


PAIRS = [(a, b) for a in RANKS for b in RANKS]
NATURALS = [p for p in PAIRS if (_points(p[0]) + _points(p[1])) % 10 in (8, 9)]
STANDING = [p for p in PAIRS if (_points(p[0]) + _points(p[1])) % 10 in (5, 6, 7)]


# -- a driver that plays chemin de fer coups through the engine ------------------------------


def _deal(state: Any, banker_wins: bool) -> dict[str, Any]:
    counts = dict(GAME.view(state)["pack"]["counts"])

    def fits(cards: tuple[str, ...]) -> bool:
        need: dict[str, int] = {}
        for card in cards:
            need[card] = need.get(card, 0) + 1
        return all(counts.get(card, 0) >= n for card, n in need.items())

    wins = sorted(NATURALS, key=lambda p: -(counts[p[0]] + counts[p[1]]))
    loses = sorted(STANDING, key=lambda p: -(counts[p[0]] + counts[p[1]]))
    for winner in wins:
        for loser in loses:
            if fits(winner + loser):
                ponte, banker = (loser, winner) if banker_wins else (winner, loser)
                return {
                    "type": "deal",
                    "actor": "croupier",
                    "ponte": list(ponte),
                    "banker": list(banker),
                }
    raise RuntimeError("no deal fits the shoe")


def actions_for(coups: int) -> Iterator[dict[str, Any]]:
    """Actions of a chemin de fer table playing `coups` coups, then `end_session`."""
    state = GAME.start(SETTINGS, Seating(6, tuple((i, f"seat{i}") for i in range(1, 7)), ()))
    while len(state.coups) < coups:
        legal = {la.type: la.actors for la in GAME.legal_actions(state)}
        candidates: list[dict[str, Any]] = []
        if "new_shoe" in legal:
            candidates = [
                {"type": "new_shoe", "actor": "croupier", "cut_by": s} for s in range(1, 7)
            ]
        elif "announce_bank" in legal:
            amount = GAME.view(state).get("bank") or 100
            candidates = [
                {"type": "announce_bank", "actor": legal["announce_bank"][0], "amount": amount}
            ]
        elif "banco_call" in legal:
            banker_seat = state.seating.seat_of(state.banker) if state.banker else None
            seat = next(s for s in range(1, 7) if s != banker_seat)
            candidates = [
                {
                    "type": "banco_call",
                    "actor": "croupier",
                    "claims": [{"player": seat, "kind": "banco"}],
                }
            ]
        elif "deal" in legal:
            candidates = [_deal(state, len(state.coups) % 3 != 2)]
        else:
            for kind in (
                "ponte_show_natural",
                "ponte_stand",
                "banker_show_natural",
                "banker_stand",
                "continue_bank",
                "accept_bank",
            ):
                if kind in legal:
                    action: dict[str, Any] = {"type": kind, "actor": legal[kind][0]}
                    if kind == "continue_bank":
                        action["reliquat"] = 0
                    candidates = [action]
                    break
        for action in candidates:
            try:
                state = step(GAME, state, Action.from_dict(action))
            except Exception:
                continue
            yield action
            break
        else:
            raise RuntimeError(f"the driver is stuck in {state.phase}: {sorted(legal)}")
    # The last banker keeps the bank (or, after a ponte's win, the next one takes it) until the
    # table closes.
    legal = {la.type: la.actors for la in GAME.legal_actions(state)}
    while "end_session" not in legal:
        if "continue_bank" in legal:
            action = {"type": "continue_bank", "actor": legal["continue_bank"][0], "reliquat": 0}
        elif "accept_bank" in legal:
            action = {"type": "accept_bank", "actor": legal["accept_bank"][0]}
        else:
            raise RuntimeError(f"the driver cannot close in {state.phase}: {sorted(legal)}")
        state = step(GAME, state, Action.from_dict(action))
        yield action
        legal = {la.type: la.actors for la in GAME.legal_actions(state)}
    yield {"type": "end_session", "actor": "croupier"}


# -- writing a table session as the recording service does ------------------------------------


def write_table_session(
    ts: TableSession, codes: list[str], coups: int, user: User, accounts: dict[str, Account]
) -> None:
    """The journal, coups, bankers and ledger of one table session, from the driver's actions."""
    opening = {"seats": {str(i): code for i, code in enumerate(codes, start=1)}, "standing": []}
    now = ts.opened_at
    events = [
        TableEvent(
            table_session=ts,
            seq=1,
            kind=EventKind.OPEN,
            action=opening,
            idempotency_key=f"open:{ts.public_id}",
            recorded_by=user,
            recorded_at=now,
            outcome={"state": "bank_pending", "banker": codes[0]},
        )
    ]
    journal = Journal(GAME, GAME.start(SETTINGS, opening_seating(ts, opening)), 1, False, ())
    coup_rows: list[Coup] = []
    tenures: list[BankTenure] = []
    postings: list[tuple[str, list[tuple[str, str, int, str]]]] = []
    players = {p.member_number: p for p in Player.objects.filter(member_number__in=codes)}
    # The driver's actions name seats, never players: replayed with the real seating they give
    # the same coups, with the real member numbers.
    for index, action in enumerate(actions_for(coups)):
        seq = index + 2
        before = journal
        journal = journal_advance(before, seq, EventKind.ACTION, action)
        at = now + timedelta(seconds=seq * 3)
        settled, amended, moved = _new_money(before.state, journal.state)
        keys: list[str] = []
        base = places.posting_base(ts.public_id, seq)
        for coup in settled:
            keys.append(places.posting_key(base, places.coup_posting(coup.number)))
            postings.append(
                (keys[-1], [(t.source, t.target, t.amount, t.reason) for t in coup.transfers])
            )
            coup_rows.append(coup_row(ts, coup, before=before, seq=seq, at=at))
        for coup, extra in amended:
            keys.append(places.posting_key(base, places.coup_after_posting(coup.number)))
            postings.append((keys[-1], [(t.source, t.target, t.amount, t.reason) for t in extra]))
        if moved:
            keys.append(places.posting_key(base, places.SESSION_POSTING))
            postings.append((keys[-1], [(t.source, t.target, t.amount, t.reason) for t in moved]))
        if before.state.banker != journal.state.banker:
            banker = journal.state.banker
            tenures.append(
                BankTenure(
                    table_session=ts,
                    seq=seq,
                    player=players.get(banker) if banker else None,
                    how=str(action["type"]),
                    first_coup_number=len(journal.state.coups) + 1,
                    started_at=at,
                )
            )
        events.append(
            TableEvent(
                table_session=ts,
                seq=seq,
                kind=EventKind.ACTION,
                action=action,
                idempotency_key=str(uuid.uuid4()),
                recorded_by=user,
                recorded_at=at,
                outcome={
                    "state": journal.state.phase,
                    "banker": journal.state.banker,
                    "coups": [c.number for c in settled],
                    "postings": keys,
                },
            )
        )
    # Each line chained after the one before it, as the recording service chains them.
    previous = None
    for event in events:
        event.chain_hash = previous = journal_link(event, previous)
    txns = [
        Transaction(
            idempotency_key=key,
            posted_at=now,
            posted_by=user,
            memo="bench",
            gaming_session_id=ts.gaming_session_id,
            place=places.table_session_place(ts.public_id),
        )
        for key, _legs in postings
    ]
    legs_of = [
        [
            (accounts[owner], side, amount, reason)
            for source, target, amount, reason in legs
            for owner, side in ((source, Side.DEBIT), (target, Side.CREDIT))
        ]
        for _key, legs in postings
    ]
    with transaction.atomic():
        TableEvent.objects.bulk_create(events, batch_size=5000)
        Coup.objects.bulk_create(coup_rows, batch_size=5000)
        BankTenure.objects.bulk_create(tenures, batch_size=5000)
        # Appended to the books' chain in order, with their entries (ledger/chain.py).
        contents = [
            transaction_content(txn, [(a.pk, str(side), n, r) for a, side, n, r in legs])
            for txn, legs in zip(txns, legs_of, strict=True)
        ]
        for txn, (position, hashed) in zip(txns, chain_extend(LEDGER_CHAIN, contents), strict=True):
            txn.chain_position, txn.chain_hash = position, hashed
        Transaction.objects.bulk_create(txns, batch_size=5000)
        entries = [
            Entry(transaction=txn, account=account, side=side, amount=amount, reason=reason)
            for txn, legs in zip(txns, legs_of, strict=True)
            for account, side, amount, reason in legs
        ]
        Entry.objects.bulk_create(entries, batch_size=10000)
    ts.closed_at = now + timedelta(seconds=(len(events) + 2) * 3)
    ts.closed_by = user
    ts.save(update_fields=["closed_at", "closed_by"])


def make_session(
    label: str, coups: int, tables: int, user: User, first_table: int
) -> GamingSession:
    started = time.perf_counter()
    opened = timezone.now() - timedelta(hours=12)
    session = GamingSession.objects.create(opened_at=opened, opened_by=user)
    house = house_settings_in_force()
    per_table = [coups // tables + (1 if i < coups % tables else 0) for i in range(tables)]
    for index, count in enumerate(per_table):
        number = first_table + index
        table = Table.objects.create(
            number=number, game="chemin_de_fer", settings=SETTINGS, seat_count=6, is_active=False
        )
        ts = TableSession.objects.create(
            table=table,
            gaming_session=session,
            game="chemin_de_fer",
            settings=SETTINGS,
            seat_count=6,
            opened_at=opened,
            opened_by=user,
            house_settings=house,
            journee=house_journee_of(opened, house),
        )
        codes = [f"{label}-{number}-{seat}" for seat in range(1, 7)]
        Player.objects.bulk_create(Player(name=f"Player {c}", member_number=c) for c in codes)
        accounts = {
            code: Account.objects.create(
                kind=AccountKind.PLAYER_POSITION,
                gaming_session=session,
                player=Player.objects.get(member_number=code),
            )
            for code in codes
        }
        accounts[CAGNOTTE] = Account.objects.create(
            kind=AccountKind.CAGNOTTE,
            place=places.table_place(table.public_id),
            gaming_session=session,
        )
        write_table_session(ts, codes, count, user, accounts)
    session.closed_at = timezone.now()
    session.closed_by = user
    session.save(update_fields=["closed_at", "closed_by"])
    print(
        f"  session {label}: {coups} coups on {tables} tables in "
        f"{time.perf_counter() - started:.1f} s",
        flush=True,
    )
    return session


def other_entries(count: int, user: User) -> None:
    """`count` entries of 40 other sessions, written by SQL (triggers off for the load only)."""
    if count <= 0:
        return
    started = time.perf_counter()
    # Closed nights (one gaming session is open at a time: the index casino_gamingsession_one_open).
    now = timezone.now()
    sessions = [
        GamingSession.objects.create(opened_at=now, opened_by=user, closed_at=now, closed_by=user)
        for _ in range(40)
    ]
    accounts = []
    for s_index, session in enumerate(sessions):
        codes = [f"other-{s_index}-{i}" for i in range(50)]
        Player.objects.bulk_create(Player(name=c, member_number=c) for c in codes)
        for player in Player.objects.filter(member_number__in=codes):
            accounts.append(
                Account.objects.create(
                    kind=AccountKind.PLAYER_POSITION, player=player, gaming_session=session
                ).pk
            )
    txns = count // 2
    # A load, not a history: the rows take the books' chain positions after its end (the head
    # moved past them, so that later postings follow) with a hash of their own key, not linked
    # (hashing millions of rows one after the other would be the load's whole time);
    # `history_verify` on a bench database names the books' chain broken at the first of them.
    with connection.cursor() as cursor:
        cursor.execute("SET session_replication_role = replica")
        cursor.execute(
            "INSERT INTO establishment_chainhead (name, position, last_hash) "
            "VALUES (%s, 0, %s) ON CONFLICT (name) DO NOTHING",
            [LEDGER_CHAIN, GENESIS],
        )
        cursor.execute(
            """
            WITH h AS (UPDATE establishment_chainhead SET position = position + %s
                        WHERE name = %s RETURNING position - %s AS base)
            INSERT INTO ledger_transaction (public_id, idempotency_key, posted_at, posted_by_id,
                                            memo, gaming_session_id, chain_position, chain_hash)
            SELECT gen_random_uuid(), 'other:' || g, now(), %s, 'other',
                   (%s::bigint[])[1 + g %% 40], h.base + g,
                   encode(sha256(convert_to('other:' || g, 'UTF8')), 'hex')
              FROM h, generate_series(1, %s) AS g
            """,
            [txns, LEDGER_CHAIN, txns, user.pk, [s.pk for s in sessions], txns],
        )
        cursor.execute(
            """
            INSERT INTO ledger_entry (transaction_id, account_id, side, amount, reason)
            SELECT t.id, (%s::bigint[])[1 + (t.id * 7 + leg) %% %s],
                   CASE WHEN leg = 0 THEN 'debit' ELSE 'credit' END, 1 + t.id %% 500, 'stake_lost'
              FROM ledger_transaction t CROSS JOIN generate_series(0, 1) AS leg
             WHERE t.memo = 'other'
            """,
            [accounts, len(accounts)],
        )
        cursor.execute("SET session_replication_role = origin")
        cursor.execute("ANALYZE")
    print(f"  {count} other entries in {time.perf_counter() - started:.1f} s", flush=True)
