"""What the books hash in their chain (docs/security.md, "The history's hash chains"): one
chain of every transaction, in the order they were posted; the hashing itself is
`establishment.chain`'s.

A transaction's content is its public id, idempotency key, moment, who posted it, memo, gaming
session, place, the transaction it reverses, and its entries — each as `[account, side,
amount, reason]`, sorted — so that an entry changed, added or removed changes its transaction's
hash.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from establishment.chain import canonical, moment

if TYPE_CHECKING:
    from ledger.models import Transaction

LEDGER_CHAIN = "ledger.transactions"

# An entry as hashed: account key, side, amount (chips), reason.
EntryLine = tuple[int, str, int, str]


def transaction_content(transaction: Transaction | Any, entries: Iterable[EntryLine]) -> str:
    """The content of a transaction with its `entries` (a historical model's row will do)."""
    return canonical(
        {
            "public_id": str(transaction.public_id),
            "key": transaction.idempotency_key,
            "posted_at": moment(transaction.posted_at),
            "posted_by": transaction.posted_by_id,
            "memo": transaction.memo,
            "gaming_session": transaction.gaming_session_id,
            "place": transaction.place,
            "reverses": transaction.reverses_id,
            "entries": sorted([int(a), str(s), int(n), str(r)] for a, s, n, r in entries),
        }
    )
