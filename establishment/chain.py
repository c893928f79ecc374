"""The hash chains of the history (docs/security.md, "The history's hash chains"): what every
floor shares to chain its rows, and what the audit log hashes.

Each row of a chain carries `chain_hash`, the SHA-256 (lowercase hex) of the previous row's
hash followed by the row's content:

    chain_hash = sha256_hex(previous_hash + content)         (`link`)

over UTF-8, the previous hash being 64 hex characters, so that where one ends and the other
begins is never in doubt. The first row's previous hash is `GENESIS`, 64 zeros. The content is
the row's canonical serialisation (`canonical`): a JSON object with sorted keys, no spaces,
UTF-8 characters as they are; moments in UTC to the microsecond (`moment`); JSON fields as the
database gives them back (`stored_json`). Each floor names what it hashes in one module: the
audit log here (`audit_content`), the books in `ledger/chain.py`, the journal in
`tables/chain.py`.

A chain's head (`ChainHead`, one row per chain) holds its last position and hash: the row
that orders and locks the chain's writers, and the end the verification expects
(`reports/history.py`). Rows are appended by `establishment.rows`.

This module imports nothing of the establishment's models (they import it).
"""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from django.db import models
from django.db.models.functions import Length
from django.db.models.lookups import Exact
from django.utils.translation import gettext_lazy as _

if TYPE_CHECKING:
    from establishment.models import AuditEntry

GENESIS = "0" * 64  # the previous hash of every chain's first row
HASH_LENGTH = 64
AUDIT_CHAIN = "establishment.audit"  # the audit log: one chain


def canonical(document: Any) -> str:
    """The one serialisation of hashed content: sorted keys, no spaces, UTF-8 characters."""
    return json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def moment(value: datetime | None) -> str | None:
    """A moment as hashed: ISO 8601 in UTC to the microsecond (what both databases keep)."""
    if value is None:
        return None
    return value.astimezone(UTC).isoformat(timespec="microseconds")


def stored_json(value: Any) -> Any:
    """A JSON field's value as the database gives it back (tuples as lists, keys as text), so
    that a row hashes the same before it is written and once read back."""
    return json.loads(json.dumps(value))


def link(previous: str, content: str) -> str:
    """The hash of a row whose content is `content`, following a row hashed `previous`."""
    return hashlib.sha256((previous + content).encode("utf-8")).hexdigest()


def link_sql(previous: str, content: str) -> str:
    """`link` in PostgreSQL's SQL, of two SQL text expressions (SQLite is given `link` itself
    as the function `chain_link`, `establishment.rows`)."""
    return f"encode(sha256(convert_to({previous} || {content}, 'UTF8')), 'hex')"


class ChainHead(models.Model):
    """The end of a chain: its last position and hash, moved in the same transaction as every
    row appended to it. The audit log's and the books' heads are locked by each writer
    (`establishment.rows.chained_insert`); a journal's head follows its lines (a trigger)."""

    name = models.CharField(_("chain"), max_length=100, primary_key=True)
    position = models.PositiveBigIntegerField(_("last position"), default=0)
    last_hash = models.CharField(_("last hash"), max_length=HASH_LENGTH, default=GENESIS)

    class Meta:
        verbose_name = _("chain head")
        verbose_name_plural = _("chain heads")

    def __str__(self) -> str:
        return f"{self.name} #{self.position} {self.last_hash[:12]}"


def chain_hash_field() -> models.CharField[str, str]:
    """A row's hash in its chain (`link`), set as the row is written."""
    return models.CharField(_("chain hash"), max_length=HASH_LENGTH, editable=False)


def chain_position_field() -> models.PositiveBigIntegerField[int, int]:
    """A row's place in a chain that is not otherwise numbered: 1, 2, …, unique."""
    return models.PositiveBigIntegerField(_("chain position"), unique=True, editable=False)


def chain_hash_valid(prefix: str) -> models.CheckConstraint:
    """A row is refused without its hash (64 characters), whoever writes it."""
    return models.CheckConstraint(
        condition=Exact(Length("chain_hash"), HASH_LENGTH), name=f"{prefix}_chain_hash_set"
    )


# -- what the audit log hashes ---------------------------------------------------------------


def audit_content(entry: AuditEntry) -> str:
    """An audit row's content: who (`actor`), what (`action`, `data`), on what (the gaming and
    table sessions), from where (`client`), when (`at`), and the row's public id."""
    return canonical(
        {
            "public_id": str(entry.public_id),
            "at": moment(entry.at),
            "actor": entry.actor_id,
            "action": entry.action,
            "client": entry.client,
            "gaming_session": entry.gaming_session_id,
            "table_session": entry.table_session_id,
            "data": stored_json(entry.data),
        }
    )
