"""What a replayed coup shows (`reports.audit.coup.coup_replay_get`): plain rows the auditor's
screen and the API both render."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

# -- what the screen and the API show ---------------------------------------------------------


@dataclass(frozen=True)
class StateSummary:
    """The table after a journal line, whatever the game: its phase, who holds the bank and
    how much, the stakes, the cards on the table and what is left in the sabot."""

    phase: str
    phase_label: str
    banker: str | None
    banker_name: str
    bank: int | None
    to_cover: int | None
    stakes: list[dict[str, Any]]
    hands: list[dict[str, Any]]
    cards_left: int | None
    coups_played: int
    interrupted: bool
    error: str = ""  # the engine refused to replay the journal up to this line


@dataclass(frozen=True)
class ReplayedEvent:
    """A line of the table's journal (`tables.models.TableEvent`) and the table after it."""

    seq: int
    kind: str  # an `EventKind`: open, action, undo, void, interrupt, resume
    kind_label: str
    action: dict[str, Any]
    words: str  # the action in the table's words
    recorded_by: str
    recorded_at: datetime
    client: str
    reason: str
    sets_aside: list[int]
    set_aside_by: int | None  # the undo or void that set this action aside
    state: StateSummary


@dataclass(frozen=True)
class BookLine:
    """One leg of money (a debit or a credit of an owner): how often the engine's replay moves
    it, how often the books hold it; `differs` marks a line where they disagree."""

    side: str
    owner: str
    who: str
    amount: int
    reason: str
    reason_label: str
    replayed: int
    booked: int

    @property
    def differs(self) -> bool:
        return self.replayed != self.booked


@dataclass(frozen=True)
class BookedTransaction:
    key: str
    posted_at: datetime
    memo: str
    in_journal: bool  # a journal line names it (its outcome's postings)
    reversed_by: str  # the key of its reversal (a void), or ""


@dataclass(frozen=True)
class Books:
    lines: list[BookLine]
    transactions: list[BookedTransaction]

    @property
    def agrees(self) -> bool:
        return not any(line.differs for line in self.lines) and all(
            t.in_journal for t in self.transactions
        )


@dataclass(frozen=True)
class VoidRequestRow:
    requested_by: str
    requested_at: datetime
    reason: str
    decided_by: str
    decided_at: datetime | None
    approved: bool | None  # None while undecided
    note: str
    event_seq: int | None


@dataclass(frozen=True)
class SabotCounts:
    number: int  # the séance's shoe 1, 2, …
    stock_number: int | None  # the house's numbered sabot or pack (model 19), if numbered
    decks: int
    dealt_before: int | None  # cards dealt from the shoe before the coup
    dealt: int | None  # … once the coup was settled
    left: int | None

    @property
    def dealt_in_coup(self) -> int | None:
        if self.dealt is None or self.dealt_before is None:
            return None
        return self.dealt - self.dealt_before


@dataclass(frozen=True)
class CoupLink:
    """The coup before or after, at the same table."""

    public_id: str
    number: int
    table: int  # its number


@dataclass(frozen=True)
class CoupReplay:
    public_id: str
    number: int
    table: int
    game: str
    game_label: str
    table_session: str
    time_zone: str
    outcome: str
    outcome_label: str
    banker: str
    banker_name: str
    cagnotte_chips: int
    first_seq: int
    settled_seq: int
    settled_at: datetime
    voided: bool
    events: list[ReplayedEvent]
    books: Books
    corrections: list[ReplayedEvent]
    void_requests: list[VoidRequestRow]
    sabot: SabotCounts | None
    previous: CoupLink | None = None
    next: CoupLink | None = None
    players: dict[str, str] = field(default_factory=dict)
