"""Pure builders: rows → the settlement report (a JSON-ready dict), and its reconciliation.

Nothing here reads the database or the clock: the same rows give the same report, byte for
byte once `canonical_json` has serialised it (no generation time inside). Amounts are integer
chips; codes (outcomes, reasons, how a bank changed hands) stay codes, and the renderers turn
them into words in the reader's language.

The registers this digitises (docs: DOMAIN-RESEARCH.md §2.3–2.4):
- the cagnotte book of each table and séance (arrêté du 14 mai 2007, model 11, art. 70), with
  the levy coup by coup as art. 56-1 asks of an approved machine: time, pot, levy, gain;
- the register of bankers (art. 71): each banker's operations described distinctly;
- the daily control register (model 12, art. 72): the accounts per séance and per table.
"""

from __future__ import annotations

import hashlib
import json
from bisect import bisect_left
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from ledger.models import AccountKind, Side
from reports.selectors import LedgerChecks, ledger_mark
from tables.engine.settlement import RELIQUAT_PREFIX
from tables.models import EventKind, TableSession
from tables.postings import (
    OWNER_KINDS,
    AccountKey,
    account_owner,
    owner_account_key,
    posting_target,
)
from tables.services.journal import journal_build

REPORT_FORMAT = 2

# COM-6.2: the banker's gross win from pontes, the base of the levy ("le montant du pot").
POT_REASONS = frozenset({"stake_lost", "fund_cover_lost"})

Leg = tuple[str, str, int, str]  # (owner, side, amount, reason)


def canonical_json(document: Mapping[str, Any]) -> str:
    """The one serialisation of a report: sorted keys, no spaces, UTF-8 text."""
    return json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def sha256_hex(data: str | bytes) -> str:
    return hashlib.sha256(data.encode("utf-8") if isinstance(data, str) else data).hexdigest()


def when(moment: datetime | None) -> str | None:
    """A moment as ISO 8601 in UTC to the second (renderers show local time)."""
    if moment is None:
        return None
    return moment.astimezone(UTC).replace(microsecond=0).isoformat()


# -- the replay ------------------------------------------------------------------------------


# -- owners and accounts ---------------------------------------------------------------------


def owner_of(account: Mapping[str, Any]) -> str:
    """The engine's name for the owner of an account (COM-5.2)."""
    return account_owner(account["kind"], account["player__member_number"], account["pk"])


def _account_key_of(owner: str, ts: TableSession) -> tuple[Any, ...]:
    """The account an owner of the engine books to at this table session (tables/postings.py),
    as the summary writes it."""
    return owner_account_key(
        owner,
        table_public_id=ts.table.public_id,
        table_session_public_id=ts.public_id,
        gaming_session_id=ts.gaming_session_id,
    ).identity


def _key_of_account(account: Mapping[str, Any]) -> tuple[Any, ...]:
    """The same identity read from an account's row; the table's other accounts (the bank in
    play, a coup's stakes) are no owner's and are named by their primary key."""
    kind = account["kind"]
    if kind in OWNER_KINDS:
        return AccountKey(
            kind,
            member_number=account["player__member_number"],
            gaming_session_id=account["gaming_session_id"],
            place=account["place"],
        ).identity
    return ("other", account["pk"])


def _label(account: Mapping[str, Any]) -> str:
    owner = owner_of(account)
    if account["kind"] in (AccountKind.CAGNOTTE, AccountKind.RESERVE_FUND):
        return f"{owner} (table {account['table__number']})"
    return owner


def _transfer_legs(transfers: Iterable[Mapping[str, Any]]) -> list[Leg]:
    legs: list[Leg] = []
    for t in transfers:
        legs.append((str(t["from"]), Side.DEBIT, int(t["amount"]), str(t["reason"])))
        legs.append((str(t["to"]), Side.CREDIT, int(t["amount"]), str(t["reason"])))
    return legs


def _legs_text(legs: Iterable[Leg]) -> list[str]:
    return sorted(f"{side} {owner} {amount} {reason}" for owner, side, amount, reason in legs)


# -- reconciliation --------------------------------------------------------------------------

TABLE_SUMMARY_FORMAT = 1

Event = tuple[int, str, Any, Any, Any]  # (seq, kind, action, sets_aside, postings)
CoupRow = tuple[int, str, str, Any, int, bool]  # (number, outcome, banker, transfers, levy, voided)
TransactionRow = tuple[int, str, int | None]  # (id, idempotency key, reverses id)
LegRow = tuple[
    int, int, int, str, str, int
]  # (entry id, transaction, account, side, reason, amount)


def table_reconcile(
    *,
    table_session: TableSession,
    events: Sequence[Event],
    coups: Sequence[CoupRow],
    transactions: Sequence[TransactionRow],
    legs: Sequence[LegRow],
    accounts: Mapping[int, Mapping[str, Any]],
) -> str:
    """One table session replayed through the engine (COM-10.1) and compared with its books, as
    canonical JSON: every live coup's transfers against its ledger transactions and its stored
    row, the session movements, every void's reversal, every transaction of the table explained.

    The summary keeps what the night's report needs of the replay (each coup's pot and bank
    result, the balances the engine expects per account, the final phase) and every difference
    found. The same journal and books give the same text, stored at the table's close or made
    again by the report.
    """
    table = table_session.table.number
    differences: list[dict[str, Any]] = []

    def differ(kind: str, **data: Any) -> None:
        differences.append({"kind": kind, "table": table, **data})

    aside: set[int] = set()
    for _seq, kind, _action, sets_aside, _postings in events:
        if kind in (EventKind.UNDO, EventKind.VOID):
            aside.update(sets_aside)
    postings: dict[str, list[str]] = defaultdict(list)
    aside_postings: list[str] = []
    for seq, kind, _action, _sets_aside, keys in events:
        if kind == EventKind.ACTION and seq in aside:
            aside_postings.extend(keys or ())
        else:
            for key in keys or ():
                postings[posting_target(key)].append(key)
    error: str | None = None
    phase = ""
    engine_coups: dict[int, Any] = {}
    session_transfers: list[dict[str, Any]] = []
    try:
        journal = journal_build(table_session, (e[:4] for e in events))
    except Exception as failure:  # a journal the engine refuses is a difference, not a crash
        error = repr(failure)
    else:
        phase = journal.state.phase
        engine_coups = {coup.number: coup for coup in journal.state.coups}
        session_transfers = [t.as_dict() for t in journal.state.session_transfers]

    by_key = {key: pk for pk, key, _rev in transactions}
    reversal_of = {rev: pk for pk, _key, rev in transactions if rev is not None}
    legs_of: dict[int, list[Leg]] = defaultdict(list)
    for _entry, txn, account_id, side, reason, amount in legs:
        account = accounts.get(account_id)
        owner = owner_of(account) if account else f"account#{account_id}"
        legs_of[txn].append((owner, side, amount, reason))
    live_rows = {row[0]: row for row in coups if not row[5]}
    explained: set[int] = set()
    expected_balance: Counter[tuple[Any, ...]] = Counter()
    replayed = 0
    finals: dict[int, dict[str, Any]] = {}
    if error is not None:
        differ("replay_failed", error=error)
    else:
        for number, coup in sorted(engine_coups.items()):
            replayed += 1
            final = finals[number] = coup.as_dict()
            expected = _transfer_legs(final["transfers"])
            for owner, side, amount, _reason in expected:
                sign = amount if side == Side.CREDIT else -amount
                expected_balance[_account_key_of(owner, table_session)] += sign
            keys = postings.get(f"coup:{number}", [])
            booked: list[Leg] = []
            for key in keys:
                found = by_key.get(key)
                if found is None:
                    differ("posting_missing", coup=number, transaction=key)
                    continue
                explained.add(found)
                booked.extend(legs_of.get(found, []))
            if expected and not keys:
                differ("coup_not_booked", coup=number, expected=_legs_text(expected))
            elif Counter(expected) != Counter(booked):
                differ(
                    "coup_differs",
                    coup=number,
                    expected=_legs_text(expected),
                    booked=_legs_text(booked),
                )
            row = live_rows.pop(number, None)
            levy = sum(int(t["amount"]) for t in final["transfers"] if t["reason"] == "cagnotte")
            if row is None:
                differ("coup_row_missing", coup=number)
            elif (
                row[1] != final["outcome"]
                or int(row[4]) != levy
                or list(row[3]) != final["transfers"][: len(row[3])]
            ):
                differ(
                    "coup_row_differs",
                    coup=number,
                    stored={"outcome": row[1], "levy": int(row[4])},
                    replayed={"outcome": final["outcome"], "levy": levy},
                )
        # Session movements (reliquats returned, reserve fund shares: COM-7.2, COM-8.2).
        moved = _transfer_legs(session_transfers)
        for owner, side, amount, _reason in moved:
            sign = amount if side == Side.CREDIT else -amount
            expected_balance[_account_key_of(owner, table_session)] += sign
        moved_booked: list[Leg] = []
        for key in postings.get("session", []):
            found = by_key.get(key)
            if found is None:
                differ("posting_missing", transaction=key)
                continue
            explained.add(found)
            moved_booked.extend(legs_of.get(found, []))
        if Counter(moved) != Counter(moved_booked):
            differ(
                "session_transfers_differ",
                expected=_legs_text(moved),
                booked=_legs_text(moved_booked),
            )
        # A voided coup's postings are each cancelled by a mirror reversal.
        for key in aside_postings:
            original = by_key.get(key)
            if original is None:
                differ("posting_missing", transaction=key)
                continue
            explained.add(original)
            reversal = reversal_of.get(original)
            if reversal is None:
                differ("void_not_reversed", transaction=key)
                continue
            explained.add(reversal)
            mirror = [
                (o, Side.CREDIT if s == Side.DEBIT else Side.DEBIT, a, r)
                for o, s, a, r in legs_of.get(original, [])
            ]
            if Counter(mirror) != Counter(legs_of.get(reversal, [])):
                differ("reversal_differs", transaction=key)
    for number in sorted(live_rows):
        differ("coup_not_replayed", coup=number)
    for pk, key, _rev in transactions:
        # Every transaction sums to zero (COM-5.5 INV-1), and the replay explains it.
        its_legs = legs_of.get(pk, [])
        imbalance = sum(a if s == Side.CREDIT else -a for _o, s, a, _r in its_legs)
        if not its_legs or imbalance != 0:
            differ("unbalanced_transaction", transaction=key, imbalance=imbalance)
        if pk not in explained:
            differ("unexplained_transaction", transaction=key)
    # The table's entries summed per account, for the balances of the night.
    entries: Counter[int] = Counter()
    for _entry, _txn, account_id, side, _reason, amount in legs:
        entries[account_id] += amount if side == Side.CREDIT else -amount

    # What the report shows of each coup: its pot (COM-6.2) and the bank's result.
    book: list[list[Any]] = []
    for number, _outcome, banker, transfers, _levy, voided in coups:
        final = None if voided else finals.get(number)
        bank_result = None
        if banker and final:
            results = final["results"]
            bank_result = int(results.get(banker, 0)) + int(
                results.get(f"{RELIQUAT_PREFIX}{banker}", 0)
            )
        book.append([number, _pot(transfers), bank_result])
    summary = {
        "format": TABLE_SUMMARY_FORMAT,
        "table": table,
        "table_session": str(table_session.public_id),
        "last_seq": max((e[0] for e in events), default=0),
        "ledger": ledger_mark_of(legs, accounts),
        "phase": phase,
        "error": error,
        "coups_replayed": replayed,
        "transactions": len(transactions),
        "coups": book,
        "balances": sorted(
            ([list(identity), amount] for identity, amount in expected_balance.items() if amount),
            key=repr,
        ),
        "entries": sorted([pk, amount] for pk, amount in entries.items()),
        "differences": differences,
    }
    return canonical_json(summary)


def ledger_mark_of(legs: Sequence[LegRow], accounts: Mapping[int, Any]) -> str:
    """The mark of the entries a reconciliation saw on the session's accounts, as the report
    reads it from its aggregation (`reports.selectors.ledger_marks_from_totals`)."""
    seen = [leg for leg in legs if leg[2] in accounts]
    return ledger_mark(
        len(seen), sum(leg[5] for leg in seen), max((leg[0] for leg in seen), default=0)
    )


@dataclass
class Reconciliation:
    """What the replay and the books say together. Every difference is listed (never hidden)."""

    coups_replayed: int = 0
    transactions_checked: int = 0
    accounts_checked: int = 0
    differences: list[dict[str, Any]] = field(default_factory=list)
    tables: list[dict[str, Any]] = field(default_factory=list)

    @property
    def agrees(self) -> bool:
        return not self.differences

    def as_dict(self) -> dict[str, Any]:
        return {
            "agrees": self.agrees,
            "coups_replayed": self.coups_replayed,
            "transactions_checked": self.transactions_checked,
            "accounts_checked": self.accounts_checked,
            "differences": self.differences,
            "tables": self.tables,
        }


def reconcile(
    *,
    table_sessions: Sequence[TableSession],
    summaries: Mapping[int, Mapping[str, Any]],
    accounts: Mapping[int, Mapping[str, Any]],
    totals: Sequence[Mapping[str, Any]],
    checks: LedgerChecks,
) -> Reconciliation:
    """The night's reconciliation: each table's replay against its books (`table_reconcile`,
    stored at its close or made now: its coups, its transactions each summing to zero), the
    transactions outside the tables, and each account's balance equal to the sum of its
    entries and to what the engine says it should hold."""
    result = Reconciliation()

    def differ(kind: str, **data: Any) -> None:
        result.differences.append({"kind": kind, **data})

    result.transactions_checked = checks.transactions
    expected_balance: Counter[tuple[Any, ...]] = Counter()
    from_entries: Counter[int] = Counter()
    for ts in table_sessions:
        summary = summaries[ts.pk]
        result.coups_replayed += int(summary["coups_replayed"])
        result.differences.extend(summary["differences"])
        for identity, amount in summary["balances"]:
            expected_balance[tuple(identity)] += int(amount)
        for account_pk, amount in summary["entries"]:
            from_entries[int(account_pk)] += int(amount)
        result.tables.append(
            {
                "table": summary["table"],
                "table_session": summary["table_session"],
                "last_seq": summary["last_seq"],
                "sha256": sha256_hex(canonical_json(summary)),
            }
        )
    # Transactions of no table of the session: none is explained by a replay.
    stray_balance: Counter[str] = Counter()
    for key, account_pk, side, amount in checks.stray_legs:
        signed = amount if side == Side.CREDIT else -amount
        stray_balance[key] += signed
        from_entries[account_pk] += signed
    for key in checks.stray:
        if stray_balance[key] != 0 or key not in stray_balance:
            differ("unbalanced_transaction", transaction=key, imbalance=stray_balance[key])
        differ("unexplained_transaction", transaction=key)

    # Balances: the database's sums per account, those of the session's entries, and the replay.
    from_sql: Counter[int] = Counter()
    for row in totals:
        total = int(row["total"])
        from_sql[row["account_id"]] += total if row["side"] == Side.CREDIT else -total
    seen: set[tuple[Any, ...]] = set()
    for account_pk, account in sorted(accounts.items()):
        identity = _key_of_account(account)
        seen.add(identity)
        result.accounts_checked += 1
        booked_balance = from_sql[account_pk]
        entries = from_entries[account_pk]
        if booked_balance != entries or booked_balance != expected_balance[identity]:
            differ(
                "balance_differs",
                account=_label(account),
                balance=booked_balance,
                entries=entries,
                replayed=expected_balance[identity],
            )
    for identity, amount in sorted(expected_balance.items(), key=lambda item: repr(item[0])):
        if identity not in seen and amount != 0:
            differ("account_missing", account=repr(identity), replayed=amount)
    return result


# -- the report ------------------------------------------------------------------------------


def _signed(row: Mapping[str, Any]) -> int:
    total = int(row["total"])
    return total if row["side"] == Side.CREDIT else -total


def _pot(transfers: Iterable[Mapping[str, Any]]) -> int:
    """COM-6.2 G: the stakes the banker won from pontes in the coup, before the levy."""
    return sum(int(t["amount"]) for t in transfers if t["reason"] in POT_REASONS)


def _pauses(rows: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Interruptions and restarts paired (art. 70: interruptions and restarts are logged)."""
    out: list[dict[str, Any]] = []
    for row in rows:
        if row["kind"] == EventKind.INTERRUPT:
            out.append(
                {
                    "from": when(row["recorded_at"]),
                    "until": None,
                    "by": row["recorded_by__username"],
                    "reason": row["reason"],
                }
            )
        elif out and out[-1]["until"] is None:
            out[-1]["until"] = when(row["recorded_at"])
    return out


def report_build(
    *,
    rows: Any,
    summaries: Mapping[int, Mapping[str, Any]],
    reconciliation: Reconciliation,
) -> dict[str, Any]:
    """The settlement report of one gaming session (a `reports.selectors.SettlementRows`), with
    each table's replay summary (`table_reconcile`)."""
    session = rows.gaming_session
    accounts: Mapping[int, Mapping[str, Any]] = rows.accounts
    names: dict[str, str] = {}
    for account in accounts.values():
        if account["player__member_number"]:
            names[account["player__member_number"]] = account["player__name"]
    for tenure in rows.tenures:
        if tenure["player__member_number"]:
            names[tenure["player__member_number"]] = tenure["player__name"]

    # Money by account and table session, summed by the database.
    by_account_ts: dict[tuple[int, int | None], int] = defaultdict(int)
    by_account_reason: dict[tuple[int, str, str], int] = defaultdict(int)
    balance: dict[int, int] = defaultdict(int)
    for row in rows.totals:
        signed = _signed(row)
        by_account_ts[(row["account_id"], row["table_session_id"])] += signed
        by_account_reason[(row["account_id"], row["reason"], row["side"])] += int(row["total"])
        balance[row["account_id"]] += signed

    # Accounts by what they belong to, once (a report may have hundreds of tables).
    special: dict[tuple[str, int], int] = {}
    reliquats_by_ts: dict[int, list[int]] = defaultdict(list)
    for pk, account in sorted(accounts.items(), key=lambda item: _sort_key(item[1])):
        kind = account["kind"]
        if kind in (AccountKind.CAGNOTTE, AccountKind.RESERVE_FUND):
            special[(str(kind), account["table_id"])] = pk
        elif kind == AccountKind.RELIQUAT:
            reliquats_by_ts[account["table_session_id"]].append(pk)
    reasons_of: dict[int, list[tuple[str, str, int]]] = defaultdict(list)
    for (account_id, reason, side), amount in sorted(by_account_reason.items()):
        reasons_of[account_id].append((reason, side, amount))
    positions_by_ts: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for (account_id, ts_id), result in by_account_ts.items():
        owner = accounts.get(account_id)
        if ts_id is not None and owner and owner["kind"] == AccountKind.PLAYER_POSITION:
            positions_by_ts[ts_id].append((account_id, result))
    staff_by_ts: dict[int, list[Mapping[str, Any]]] = defaultdict(list)
    for assignment in rows.assignments:
        staff_by_ts[assignment["table_session_id"]].append(assignment)
    pauses_by_ts: dict[int, list[Mapping[str, Any]]] = defaultdict(list)
    for pause in rows.pauses:
        pauses_by_ts[pause["table_session_id"]].append(pause)

    coups_by_ts: dict[int, list[Mapping[str, Any]]] = defaultdict(list)
    for coup in rows.coups:
        coups_by_ts[coup["table_session_id"]].append(coup)
    tenures_by_ts: dict[int, list[Mapping[str, Any]]] = defaultdict(list)
    for tenure in rows.tenures:
        tenures_by_ts[tenure["table_session_id"]].append(tenure)

    tables: list[dict[str, Any]] = []
    player_tables: dict[str, list[dict[str, Any]]] = defaultdict(list)
    cagnotte_by_table: dict[int, dict[str, Any]] = {}
    for ts in rows.table_sessions:
        number = ts.table.number
        summary = summaries.get(ts.pk)
        book = {number: (pot, bank) for number, pot, bank in summary["coups"]} if summary else {}
        coup_list: list[dict[str, Any]] = []
        for coup in coups_by_ts.get(ts.pk, []):
            banker = coup["banker"] or None
            pot, bank_result = book.get(coup["number"], (0, None))
            levy = int(coup["cagnotte_chips"])
            coup_list.append(
                {
                    "coup": coup["number"],
                    "time": when(coup["settled_at"]),
                    "outcome": coup["outcome"],
                    "banker": banker,
                    "pot": pot,
                    "levy": levy,
                    "gain": pot - levy,
                    "bank_result": bank_result,
                    "voided": bool(coup["is_voided"]),
                    "seq": coup["settled_seq"],
                }
            )
        live = [c for c in coup_list if not c["voided"]]
        expected = sum(c["levy"] for c in live)

        # The register of bankers (art. 71): each tenure, its coups and its result.
        # Live coups are in journal order: a tenure's coups are a slice of them.
        tenures = tenures_by_ts.get(ts.pk, [])
        live_seqs = [c["seq"] for c in live]
        bankers: list[dict[str, Any]] = []
        for index, tenure in enumerate(tenures):
            following = tenures[index + 1] if index + 1 < len(tenures) else None
            until = bisect_left(live_seqs, following["seq"]) if following else len(live)
            held = live[bisect_left(live_seqs, tenure["seq"]) : until]
            code = tenure["player__member_number"]
            bankers.append(
                {
                    "player": code,
                    "name": tenure["player__name"],
                    "how": tenure["how"],
                    "from": when(tenure["started_at"]),
                    "until": when(following["started_at"]) if following else when(ts.closed_at),
                    "ended": following["how"] if following else "table_closed",
                    "coups": len(held),
                    "result": sum(c["bank_result"] or 0 for c in held) if code else 0,
                    "levy": sum(c["levy"] for c in held),
                }
            )

        # Reliquats (COM-7) and the reserve fund (COM-8) of this table session.
        reliquats: list[dict[str, Any]] = []
        reserve: dict[str, int] = defaultdict(int)
        players: list[dict[str, Any]] = []
        for pk in reliquats_by_ts.get(ts.pk, []):
            code = accounts[pk]["player__member_number"]
            reliquats.append(
                {
                    "player": code,
                    "name": names.get(code, ""),
                    "set_aside": by_account_reason[(pk, "reliquat_in", Side.CREDIT)],
                    "returned": by_account_reason[(pk, "reliquat_out", Side.DEBIT)],
                    "balance": balance[pk],
                }
            )
        fund = special.get((AccountKind.RESERVE_FUND, ts.table_id))
        if fund is not None:
            for reason, side, amount in reasons_of.get(fund, []):
                if amount:
                    reserve[f"{reason}:{side}"] += amount
            reserve["balance"] = balance[fund]
        for pk, result in sorted(
            positions_by_ts.get(ts.pk, []), key=lambda item: _sort_key(accounts[item[0]])
        ):
            code = accounts[pk]["player__member_number"]
            players.append({"player": code, "name": names.get(code, ""), "result": result})
            player_tables[code].append({"table": number, "game": ts.game, "result": result})
        cagnotte = special.get((AccountKind.CAGNOTTE, ts.table_id))
        entry = cagnotte_by_table.setdefault(
            number, {"table": number, "expected": 0, "booked": balance[cagnotte] if cagnotte else 0}
        )
        entry["expected"] += expected

        staff = [
            {
                "role": a["role"],
                "staff": a["staff__username"],
                "from": when(a["assigned_at"]),
                "until": when(a["released_at"]),
            }
            for a in staff_by_ts.get(ts.pk, [])
        ]
        tables.append(
            {
                "table": number,
                "name": ts.table.name,
                "game": ts.game,
                "table_session": str(ts.public_id),
                "opened_at": when(ts.opened_at),
                "closed_at": when(ts.closed_at),
                "opened_by": ts.opened_by.get_username(),
                "closed_by": ts.closed_by.get_username() if ts.closed_by else None,
                "chip_unit": int(ts.settings.get("chip_unit", 1)),
                "cagnotte_rate_bp": int(ts.settings.get("cagnotte_rate_bp", 0)),
                "staff": staff,
                "interruptions": _pauses(pauses_by_ts.get(ts.pk, [])),
                "coups_played": len(live),
                "coups_voided": len(coup_list) - len(live),
                "coups": coup_list,
                "cagnotte_expected": expected,
                "bankers": bankers,
                "reliquats": reliquats,
                "reserve_fund": dict(sorted(reserve.items())) if reserve else None,
                "players": sorted(players, key=lambda p: p["player"]),
                "final_state": summary["phase"] if summary else None,
            }
        )

    player_rows = [
        {
            "player": code,
            "name": names.get(code, ""),
            "tables": tables_of,
            "total": sum(t["result"] for t in tables_of),
        }
        for code, tables_of in sorted(player_tables.items())
    ]
    kinds_total: dict[str, int] = defaultdict(int)
    for pk, account in accounts.items():
        kinds_total[str(account["kind"])] += balance[pk]
    return {
        "format": REPORT_FORMAT,
        "session": {
            "id": str(session.public_id),
            "opened_at": when(session.opened_at),
            "closed_at": when(session.closed_at),
            "opened_by": session.opened_by.get_username(),
            "closed_by": session.closed_by.get_username() if session.closed_by else None,
        },
        "tables": tables,
        "cagnotte": [cagnotte_by_table[n] for n in sorted(cagnotte_by_table)],
        "players": player_rows,
        "corrections": corrections_build(
            rows=rows, ts_number={t.pk: t.table.number for t in rows.table_sessions}
        ),
        "totals": dict(sorted(kinds_total.items())),
        "reconciliation": reconciliation.as_dict(),
    }


def _sort_key(account: Mapping[str, Any]) -> tuple[str, str, int]:
    return (str(account["kind"]), str(account["player__member_number"] or ""), account["pk"])


def corrections_build(*, rows: Any, ts_number: Mapping[int, int]) -> list[dict[str, Any]]:
    """Every undo and void: who asked, who approved, why (art. 68: corrections stay visible)."""
    out: list[dict[str, Any]] = []
    for event in rows.corrections:
        outcome = event["outcome"] or {}
        table = ts_number.get(event["table_session_id"])
        if event["kind"] == EventKind.UNDO:
            undone = outcome.get("undone_action") or {}
            out.append(
                {
                    "kind": "undo",
                    "table": table,
                    "seq": event["seq"],
                    "at": when(event["recorded_at"]),
                    "requested_by": event["recorded_by__username"],
                    "approved_by": None,
                    "reason": event["reason"],
                    "detail": str(undone.get("type", "")),
                    "reversed": 0,
                }
            )
        elif "voided_open_coup" in outcome:
            out.append(
                {
                    "kind": "open_coup_void",
                    "table": table,
                    "seq": event["seq"],
                    "at": when(event["recorded_at"]),
                    "requested_by": event["recorded_by__username"],
                    "approved_by": event["recorded_by__username"],
                    "reason": event["reason"],
                    "detail": ",".join(str(s) for s in outcome["voided_open_coup"]),
                    "reversed": 0,
                }
            )
    reversed_by_seq = {
        event["seq"]: len((event["outcome"] or {}).get("reversed", []))
        for event in rows.corrections
        if event["kind"] == EventKind.VOID
    }
    for request in rows.void_requests:
        approved = request["decision__approved"]
        status = "void" if approved else ("void_refused" if approved is False else "void_pending")
        out.append(
            {
                "kind": status,
                "table": ts_number.get(request["coup__table_session_id"]),
                "seq": request["decision__event__seq"] or request["coup__settled_seq"],
                "at": when(request["decision__decided_at"] or request["requested_at"]),
                "requested_by": request["requested_by__username"],
                "requested_at": when(request["requested_at"]),
                "approved_by": request["decision__decided_by__username"],
                "reason": request["reason"],
                "note": request["decision__note"] or "",
                "detail": f"coup {request['coup__number']}",
                "coup": request["coup__number"],
                "reversed": reversed_by_seq.get(request["decision__event__seq"], 0),
            }
        )
    return sorted(out, key=lambda c: (c["table"] or 0, c["seq"] or 0, c["kind"]))
