"""What a table session's journal hashes in its chain (docs/security.md, "The history's hash
chains"): one chain per table session (séance), in the order of its lines (`seq`), the
hashing itself being `establishment.chain`'s.

A line's content is its table session, number, kind, the action recorded with what it sets
aside, the idempotency key, who recorded it, when, from where, the reason and what the engine
answered. The chain's head (`establishment.ChainHead`, named `journal_chain(table_session)`)
follows the lines: a trigger moves it with every line inserted (tables/migrations/0008_*.sql).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from establishment.chain import GENESIS, canonical, link, moment, stored_json

if TYPE_CHECKING:
    from tables.models import TableEvent

JOURNAL_CHAIN_PREFIX = "tables.journal."


def journal_chain(table_session_id: int) -> str:
    """The name of a table session's journal chain (its head's)."""
    return f"{JOURNAL_CHAIN_PREFIX}{table_session_id}"


def journal_content(line: TableEvent | Any) -> str:
    """The content of a journal line (a historical model's row will do)."""
    return canonical(
        {
            "table_session": line.table_session_id,
            "seq": line.seq,
            "kind": line.kind,
            "action": stored_json(line.action),
            "sets_aside": stored_json(line.sets_aside),
            "key": line.idempotency_key,
            "recorded_by": line.recorded_by_id,
            "recorded_at": moment(line.recorded_at),
            "client": line.client,
            "reason": line.reason,
            "outcome": stored_json(line.outcome),
        }
    )


def journal_at(content: str, seq: int) -> str:
    """A line's `content` as if it were line `seq` (to find where a moved line belongs)."""
    return canonical({**json.loads(content), "seq": seq})


def journal_link(line: TableEvent | Any, previous: str | None) -> str:
    """The hash of `line` after the line hashed `previous` (None: the journal's first)."""
    return link(previous or GENESIS, journal_content(line))
