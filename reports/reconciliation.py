"""Pure reconciliation: a table session's journal replayed through the engine (COM-10.1) and
compared with its books, and the night's reconciliation that gathers every table's.

Like `reports.builders`, nothing here reads the database or the clock: the same journal and
books give the same canonical JSON, stored at a table's close or made again by the report.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ledger.models import AccountKind, Side
from reports.builders import canonical_json, sha256_hex
from reports.selectors import LedgerChecks, ledger_mark
from tables.engine.settlement import CAGNOTTE, RELIQUAT_PREFIX
from tables.models import EventKind, TableSession
from tables.postings import (
    OWNER_KINDS,
    AccountKey,
    account_owner,
    owner_account_key,
    posting_target,
)
from tables.services.journal import journal_build

TABLE_SUMMARY_FORMAT = 1

# COM-6.2: the banker's gross win from pontes, the base of the levy ("le montant du pot").
POT_REASONS = frozenset({"stake_lost", "fund_cover_lost"})

Leg = tuple[str, str, int, str]  # (owner, side, amount, reason)
Event = tuple[int, str, Any, Any, Any]  # (seq, kind, action, sets_aside, postings)
CoupRow = tuple[int, str, str, Any, int, bool]  # (number, outcome, banker, transfers, levy, voided)
TransactionRow = tuple[int, str, int | None]  # (id, idempotency key, reverses id)
LegRow = tuple[
    int, int, int, str, str, int
]  # (entry id, transaction, account, side, reason, amount)
LevyRow = tuple[int, str, str, int]  # (transaction, player, levy model, amount)


def _pot(transfers: Iterable[Mapping[str, Any]]) -> int:
    """COM-6.2 G: the stakes the banker won from pontes in the coup, before the levy."""
    return sum(int(t["amount"]) for t in transfers if t["reason"] in POT_REASONS)


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


def legs_by_transaction(
    legs: Iterable[LegRow], accounts: Mapping[int, Mapping[str, Any]]
) -> dict[int, list[Leg]]:
    """The books' entries as legs of the engine's owners (COM-5.2), by transaction."""
    legs_of: dict[int, list[Leg]] = defaultdict(list)
    for _entry, txn, account_id, side, reason, amount in legs:
        account = accounts.get(account_id)
        owner = owner_of(account) if account else f"account#{account_id}"
        legs_of[txn].append((owner, side, amount, reason))
    return legs_of


@dataclass(frozen=True)
class LegsCompared:
    """Money as the replay moves it (`expected`) against the legs the books hold (`booked`)."""

    expected: list[Leg]
    booked: list[Leg]

    @property
    def agrees(self) -> bool:
        return Counter(self.expected) == Counter(self.booked)

    def lines(self) -> list[tuple[Leg, int, int]]:
        """Each distinct leg with how many times the replay and the books hold it, in the
        replay's order, then what only the books hold."""
        replayed, booked = Counter(self.expected), Counter(self.booked)
        order = dict.fromkeys([*self.expected, *self.booked])
        return [(leg, replayed[leg], booked[leg]) for leg in order]


def legs_compare(
    transfers: Iterable[Mapping[str, Any]],
    transaction_ids: Iterable[int],
    legs_of: Mapping[int, Sequence[Leg]],
) -> LegsCompared:
    """The engine's transfers against the legs of these transactions."""
    booked = [leg for pk in transaction_ids for leg in legs_of.get(pk, [])]
    return LegsCompared(_transfer_legs(transfers), booked)


# -- reconciliation --------------------------------------------------------------------------


def table_reconcile(
    *,
    table_session: TableSession,
    events: Sequence[Event],
    coups: Sequence[CoupRow],
    transactions: Sequence[TransactionRow],
    legs: Sequence[LegRow],
    accounts: Mapping[int, Mapping[str, Any]],
    levies: Sequence[LevyRow] = (),
) -> str:
    """One table session replayed through the engine (COM-10.1) and compared with its books, as
    canonical JSON: every live coup's transfers against its ledger transactions and its stored
    row, the session movements, every void's reversal, every fee charged from the seating
    (`levies`, docs/rules/levy.md LV-3: the player's position to the cagnotte, the model's
    reason), every transaction of the table explained.

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
    legs_of = legs_by_transaction(legs, accounts)
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
            keys = postings.get(f"coup:{number}", [])
            found_ids: list[int] = []
            for key in keys:
                found = by_key.get(key)
                if found is None:
                    differ("posting_missing", coup=number, transaction=key)
                    continue
                explained.add(found)
                found_ids.append(found)
            compared = legs_compare(final["transfers"], found_ids, legs_of)
            for owner, side, amount, _reason in compared.expected:
                sign = amount if side == Side.CREDIT else -amount
                expected_balance[_account_key_of(owner, table_session)] += sign
            if compared.expected and not keys:
                differ("coup_not_booked", coup=number, expected=_legs_text(compared.expected))
            elif not compared.agrees:
                differ(
                    "coup_differs",
                    coup=number,
                    expected=_legs_text(compared.expected),
                    booked=_legs_text(compared.booked),
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
    # The fees outside the coups (LV-3): each one transaction, player → cagnotte, its own reason.
    for txn, player, model, amount in levies:
        explained.add(txn)
        fee = [(player, Side.DEBIT, amount, model), (CAGNOTTE, Side.CREDIT, amount, model)]
        for owner, side, chips, _reason in fee:
            sign = chips if side == Side.CREDIT else -chips
            expected_balance[_account_key_of(owner, table_session)] += sign
        if Counter(fee) != Counter(legs_of.get(txn, [])):
            differ(
                "levy_charge_differs",
                player=player,
                expected=_legs_text(fee),
                booked=_legs_text(legs_of.get(txn, [])),
            )
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
        """Whether the books agree, then every field (the report's `reconciliation`)."""
        return {"agrees": self.agrees, **vars(self)}


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
