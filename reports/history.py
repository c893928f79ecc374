"""The history read back link by link (docs/security.md, "The history's hash chains"): every
chain recomputed from its rows — the audit log, the books, each table session's journal — and
the first broken link of each named.

`history_verify()` is what `manage.py history_verify` prints and what the auditor's nightly
re-audit calls. A chain breaks where:

- `changed`: a row's content no longer gives its stored hash after the row before it (a
  value edited, or an entry of a transaction changed, added or removed);
- `gap`: a position is missing (a row deleted), at the row after the gap;
- `reordered`: the row's content hashes as it should, but after another row of the chain (two
  rows' contents, or their positions, exchanged);
- `truncated`: the rows end before the chain's head (the last rows deleted, or all of them);
- `extended`: rows after the head (rows added without moving the head);
- `head_missing`: rows without a head;
- `rewritten`: the row at a position noted earlier (`anchors`, e.g. the heads printed by the
  previous night's run) no longer holds the hash noted then: the chain was recomputed from
  there on, which only a copy of the head kept elsewhere can show.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from itertools import groupby
from typing import Any

from establishment.chain import AUDIT_CHAIN, GENESIS, ChainHead, audit_content, link
from establishment.models import AuditEntry
from ledger.chain import LEDGER_CHAIN, EntryLine, transaction_content
from ledger.models import Entry, Transaction
from tables.chain import JOURNAL_CHAIN_PREFIX, journal_at, journal_chain, journal_content
from tables.models import TableEvent

BATCH = 2000
WINDOW = 50  # how far from a broken link a moved row is looked for


@dataclass(frozen=True, slots=True)
class Link:
    """A row of a chain as read back: its key, position, stored hash and content."""

    row: int
    position: int
    stored: str
    content: str


@dataclass(frozen=True)
class ChainBreak:
    """The first broken link of a chain: what kind, where (position and row key), the hash
    expected there and the one stored."""

    chain: str
    kind: str
    position: int | None
    row: int | None
    expected: str | None
    stored: str | None
    detail: str

    def __str__(self) -> str:
        where = f"position {self.position}" if self.position is not None else "its end"
        row = f" (row {self.row})" if self.row is not None else ""
        return (
            f"{self.chain}: {self.kind} at {where}{row}: {self.detail}; "
            f"expected {self.expected or '-'}, stored {self.stored or '-'}"
        )


@dataclass
class ChainCheck:
    """One chain read back: how many rows, its head, its last row, and its first break."""

    chain: str
    rows: int = 0
    head_position: int | None = None
    head_hash: str | None = None
    last_position: int | None = None
    last_hash: str | None = None
    broken: ChainBreak | None = None

    @property
    def ok(self) -> bool:
        return self.broken is None


@dataclass
class HistoryCheck:
    """Every chain of the history, read back."""

    chains: list[ChainCheck] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(chain.ok for chain in self.chains)

    @property
    def breaks(self) -> list[ChainBreak]:
        return [chain.broken for chain in self.chains if chain.broken is not None]

    @property
    def heads(self) -> dict[str, tuple[int | None, str | None]]:
        """Each chain's head as stored: what to note elsewhere, for `anchors` later."""
        return {c.chain: (c.head_position, c.head_hash) for c in self.chains}

    def as_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "rows": sum(chain.rows for chain in self.chains),
            "chains": [{**asdict(chain), "ok": chain.ok} for chain in self.chains],
            "breaks": [asdict(b) for b in self.breaks],
        }


# -- one chain -------------------------------------------------------------------------------


Window = Callable[[int, int], Sequence[Link]]
# A row's content as if it stood at another position (the journal hashes its line's number).
Relocate = Callable[[str, int], str]


def _moved(item: Link, nearby: Sequence[Link], relocate: Relocate | None) -> bool:
    """Whether `item`'s content belongs after another row near it: its hash, or another row's,
    is its content (at that row's position) linked to some stored hash around it (a row moved,
    or two rows' contents exchanged)."""
    stored = {other.stored for other in nearby} | {item.stored}
    positions = {other.position for other in nearby} if relocate else {item.position}
    for position in positions:
        content = relocate(item.content, position) if relocate else item.content
        if any(link(previous, content) in stored for previous in stored | {GENESIS}):
            return True
    return False


def chain_check(
    name: str,
    links: Iterable[Link],
    head: tuple[int, str] | None,
    window: Window,
    anchor: tuple[int, str] | None = None,
    relocate: Relocate | None = None,
) -> ChainCheck:
    """Recompute the chain `name` from its `links` (in position order) and compare its end with
    its `head`; `window(low, high)` reads the rows between two positions again, to tell a moved
    row from a changed one (`relocate`: for a chain whose content holds the position); `anchor`
    is a (position, hash) noted earlier."""
    check = ChainCheck(name, head_position=head[0] if head else None)
    check.head_hash = head[1] if head else None

    def broke(kind: str, item: Link | None, expected: str | None, detail: str) -> ChainCheck:
        check.broken = ChainBreak(
            name,
            kind,
            item.position if item else check.last_position,
            item.row if item else None,
            expected,
            item.stored if item else check.last_hash,
            detail,
        )
        return check

    previous, wanted = GENESIS, 1
    for item in links:
        check.rows += 1
        expected = link(previous, item.content)
        if item.position != wanted:
            kind = "gap" if item.position > wanted else "reordered"
            return broke(kind, item, expected, f"position {wanted} expected, {item.position} found")
        if expected != item.stored:
            nearby = window(item.position - WINDOW, item.position + WINDOW)
            if _moved(item, nearby, relocate):
                return broke("reordered", item, expected, "the row belongs elsewhere in the chain")
            return broke("changed", item, expected, "its content does not give its hash")
        if anchor is not None and anchor[0] == item.position and anchor[1] != item.stored:
            return broke("rewritten", item, anchor[1], "not the hash noted for this position")
        previous, wanted = item.stored, wanted + 1
        check.last_position, check.last_hash = item.position, item.stored
    return _end_check(check, head, anchor, broke)


def _end_check(
    check: ChainCheck,
    head: tuple[int, str] | None,
    anchor: tuple[int, str] | None,
    broke: Callable[[str, Link | None, str | None, str], ChainCheck],
) -> ChainCheck:
    last = check.last_position or 0
    if head is None:
        if check.rows:
            return broke("head_missing", None, None, "the chain has rows but no head")
        return check
    position, hashed = head
    if position > last:
        return broke("truncated", None, hashed, f"rows {last + 1} to {position} are missing")
    if position < last:
        return broke("extended", None, hashed, f"rows after the head's position {position}")
    if last and hashed != check.last_hash:
        return broke("changed", None, hashed, "the last row is not the one its head holds")
    if anchor is not None and anchor[0] > last:
        return broke("truncated", None, anchor[1], f"position {anchor[0]} was noted, now gone")
    return check


# -- the chains of the history ---------------------------------------------------------------


def _audit_links(rows: Iterable[AuditEntry]) -> Iterator[Link]:
    for entry in rows:
        yield Link(entry.pk, entry.chain_position, entry.chain_hash, audit_content(entry))


def _audit_window(low: int, high: int) -> list[Link]:
    rows = AuditEntry.objects.filter(chain_position__range=(low, high)).order_by("chain_position")
    return list(_audit_links(rows))


def _ledger_links(transactions: Iterable[Transaction]) -> Iterator[Link]:
    """Transactions with their entries, read a batch at a time."""
    batch: list[Transaction] = []

    def flush() -> Iterator[Link]:
        entries: dict[int, list[EntryLine]] = defaultdict(list)
        for key, *line in Entry.objects.filter(
            transaction_id__in=[t.pk for t in batch]
        ).values_list("transaction_id", "account_id", "side", "amount", "reason"):
            entries[key].append(tuple(line))  # type: ignore[arg-type]
        for posted in batch:
            content = transaction_content(posted, entries[posted.pk])
            yield Link(posted.pk, posted.chain_position, posted.chain_hash, content)
        batch.clear()

    for txn in transactions:
        batch.append(txn)
        if len(batch) >= BATCH:
            yield from flush()
    yield from flush()


def _ledger_window(low: int, high: int) -> list[Link]:
    rows = Transaction.objects.filter(chain_position__range=(low, high)).order_by("chain_position")
    return list(_ledger_links(rows))


def _journal_links(lines: Iterable[TableEvent]) -> Iterator[Link]:
    for line in lines:
        yield Link(line.pk, line.seq, line.chain_hash, journal_content(line))


def _journal_window(table_session: int) -> Window:
    def window(low: int, high: int) -> list[Link]:
        lines = TableEvent.objects.filter(table_session_id=table_session, seq__range=(low, high))
        return list(_journal_links(lines.order_by("seq")))

    return window


def _journal_checks(
    heads: dict[str, tuple[int, str]], anchors: Mapping[str, tuple[int, str]]
) -> Iterator[ChainCheck]:
    """Each table session's journal, and each journal head whose lines are all gone."""
    seen: set[str] = set()
    lines = TableEvent.objects.order_by("table_session_id", "seq").iterator(chunk_size=BATCH)
    for table_session, chain in groupby(lines, key=lambda line: line.table_session_id):
        name = journal_chain(table_session)
        seen.add(name)
        window = _journal_window(table_session)
        links = _journal_links(chain)
        yield chain_check(name, links, heads.get(name), window, anchors.get(name), journal_at)
    for name in sorted(set(heads) - seen):
        if name.startswith(JOURNAL_CHAIN_PREFIX):
            yield chain_check(name, (), heads[name], lambda low, high: [], anchors.get(name))


def history_verify(anchors: Mapping[str, Sequence[Any]] | None = None) -> HistoryCheck:
    """Every chain of the history recomputed: the audit log, the books, each journal.

    `anchors`: chain name → (position, hash) noted earlier (`HistoryCheck.heads` of an earlier
    run); the row at that position must still hold that hash."""
    noted = {
        name: (int(value[0]), str(value[1]))
        for name, value in (anchors or {}).items()
        if value and value[0] is not None
    }
    heads = {h.name: (h.position, h.last_hash) for h in ChainHead.objects.all()}
    audit_rows = AuditEntry.objects.order_by("chain_position").iterator(chunk_size=BATCH)
    ledger_rows = Transaction.objects.order_by("chain_position").iterator(chunk_size=BATCH)
    found = HistoryCheck()
    found.chains.append(
        chain_check(
            AUDIT_CHAIN,
            _audit_links(audit_rows),
            heads.get(AUDIT_CHAIN),
            _audit_window,
            noted.get(AUDIT_CHAIN),
        )
    )
    found.chains.append(
        chain_check(
            LEDGER_CHAIN,
            _ledger_links(ledger_rows),
            heads.get(LEDGER_CHAIN),
            _ledger_window,
            noted.get(LEDGER_CHAIN),
        )
    )
    found.chains.extend(_journal_checks(heads, noted))
    return found
