"""Transfers, coups and results (COM-5.2 to COM-5.5, COM-10.5)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

CAGNOTTE = "cagnotte"
RESERVE_FUND = "reserve_fund"
CROUPIER = "croupier"
RELIQUAT_PREFIX = "reliquat:"

# Player ids may never take these names (SCENARIOS.md).
RESERVED_IDS = frozenset({CROUPIER, CAGNOTTE, RESERVE_FUND})


def reliquat_of(player: str) -> str:
    """The owner name of banker ``player``'s reliquat (COM-5.2)."""
    return f"{RELIQUAT_PREFIX}{player}"


def is_player_owner(owner: str) -> bool:
    """True unless ``owner`` is one of the reserved names: ``RESERVED_IDS`` or ``reliquat:…``."""
    return owner not in RESERVED_IDS and not owner.startswith(RELIQUAT_PREFIX)


def is_player_id(value: object) -> bool:
    """A player id: a non-empty text that is not a reserved owner name (SCENARIOS.md)."""
    return isinstance(value, str) and value != "" and is_player_owner(value)


# COM-10.6 the transfer reasons of the game files.
REASONS = frozenset(
    {
        "stake_lost",
        "stake_won",
        "cagnotte",
        "sprinkle",
        "quadruple_paid",
        "abandonment",
        "fund_cover_lost",
        "fund_cover_won",
        "fund_contribution",
        "fund_replenishment",
        "fund_share",
        "fault_reimbursement",
        "reliquat_in",
        "reliquat_out",
        "coup_fee",
    }
)


@dataclass(frozen=True)
class Transfer:
    """Money moving between two different owners, ``amount > 0`` (COM-5.3)."""

    source: str
    target: str
    amount: int
    reason: str

    def __post_init__(self) -> None:
        if self.amount <= 0:
            raise ValueError(f"a transfer moves a positive amount, not {self.amount}")
        if self.source == self.target:
            raise ValueError(f"a transfer joins two different owners, not {self.source} twice")
        if self.reason not in REASONS:
            raise ValueError(f"unknown transfer reason {self.reason!r}")

    def as_dict(self) -> dict[str, object]:
        return {
            "from": self.source,
            "to": self.target,
            "amount": self.amount,
            "reason": self.reason,
        }


def results_of(transfers: Iterable[Transfer]) -> dict[str, int]:
    """Each owner's result: received minus paid (COM-5.4); owners at 0 are left out."""
    totals: dict[str, int] = {}
    for transfer in transfers:
        totals[transfer.source] = totals.get(transfer.source, 0) - transfer.amount
        totals[transfer.target] = totals.get(transfer.target, 0) + transfer.amount
    return {owner: amount for owner, amount in sorted(totals.items()) if amount != 0}


def zero_sum_check(transfers: Iterable[Transfer]) -> None:
    """INV-1 (COM-5.5): the results of a coup or session movement sum to zero."""
    total = sum(results_of(transfers).values())
    if total != 0:
        raise AssertionError(f"INV-1 broken: the results sum to {total}, not 0")


@dataclass(frozen=True)
class CoupRecord:
    """A settled coup as the engine returns it (COM-10.5).

    ``transfers`` are in the order of the game file; ``faults`` are the fault or irregularity
    codes in the order they happened. Money moved after the settlement about that coup's bank
    (CF reliquat, a suite taken) is appended with ``with_transfers``.
    """

    number: int
    outcome: str
    transfers: tuple[Transfer, ...] = ()
    faults: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        zero_sum_check(self.transfers)

    @property
    def results(self) -> dict[str, int]:
        return results_of(self.transfers)

    def with_transfers(self, *more: Transfer) -> CoupRecord:
        return CoupRecord(self.number, self.outcome, self.transfers + tuple(more), self.faults)

    def as_dict(self) -> dict[str, object]:
        return {
            "number": self.number,
            "outcome": self.outcome,
            "transfers": [transfer.as_dict() for transfer in self.transfers],
            "results": self.results,
            "faults": list(self.faults),
        }
