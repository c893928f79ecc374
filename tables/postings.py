"""How the table floor names its money in the books: places, posting keys, owners' accounts.

The books know players and gaming sessions, not tables (docs/ledger.md): a table's accounts and
transactions carry a *place*, a name made here, ``table:<public id>`` or
``table-session:<public id>``. Every writer and reader of the table's money uses this module:
the recording service (tables/services/books.py), the reconciliation and the settlement report
(reports/), and bench/.

Posting keys. The transactions of one journal line are keyed
``table-session:<public id>:event:<seq>:<what>``, where ``<what>`` is ``coup:<n>`` (a coup's
settlement), ``coup:<n>:after`` (money a later action moved for a settled coup, COM-10.5) or
``session`` (money moved outside coups): the key names the line, so the same line books once.
The house's fees outside the coups (docs/rules/levy.md, LV-3) name the player and the period
instead (`levy_charge_key`): a time fee ``table-session:<public id>:levy:time_fee:<player>:<period
start>``, the participation fee, the house's per day, ``levy:participation_fee:<player>:<day's
start>``, so that it books once whichever table charges it.

Owners. The engine names who holds money (COM-5.2): a player's id (his position in the gaming
session), ``cagnotte`` and ``reserve_fund`` (the table's, in the gaming session) and
``reliquat:<player id>`` (the banker's reliquat at the table session).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

from ledger.models import AccountKind
from tables.engine.settlement import CAGNOTTE, RELIQUAT_PREFIX, RESERVE_FUND

TABLE = "table"
TABLE_SESSION = "table-session"

# The owners of the table itself, and the kind of their accounts.
TABLE_OWNERS: Mapping[str, AccountKind] = {
    CAGNOTTE: AccountKind.CAGNOTTE,
    RESERVE_FUND: AccountKind.RESERVE_FUND,
}


# The kinds of the accounts that belong to an owner the engine names.
OWNER_KINDS = frozenset(
    {
        AccountKind.PLAYER_POSITION,
        AccountKind.CAGNOTTE,
        AccountKind.RESERVE_FUND,
        AccountKind.RELIQUAT,
    }
)


# -- places ----------------------------------------------------------------------------------


def table_place(table_public_id: UUID | str) -> str:
    return f"{TABLE}:{table_public_id}"


def table_session_place(table_session_public_id: UUID | str) -> str:
    return f"{TABLE_SESSION}:{table_session_public_id}"


# -- posting keys ----------------------------------------------------------------------------


def posting_base(table_session_public_id: UUID | str, seq: int) -> str:
    """What every transaction of the journal line `seq` has in its key."""
    return f"{table_session_place(table_session_public_id)}:event:{seq}"


def coup_posting(coup_number: int) -> str:
    return f"coup:{coup_number}"


def coup_after_posting(coup_number: int) -> str:
    return f"coup:{coup_number}:after"


SESSION_POSTING = "session"


def posting_key(base: str, what: str) -> str:
    return f"{base}:{what}"


def levy_charge_key(
    model: str,
    player: str,
    period_start: datetime,
    *,
    table_session_public_id: UUID | str | None,
) -> str:
    """The key of a fee charged from the seating record (LV-3): the séance's for a time fee,
    the house's (`table_session_public_id=None`) for the day's participation fee."""
    start = period_start.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    where = f"{table_session_place(table_session_public_id)}:" if table_session_public_id else ""
    return f"{where}levy:{model}:{player}:{start}"


def posting_seq(key: str) -> int | None:
    """The journal line whose transactions `key` names (`posting_base`), or None."""
    parts = key.split(":")
    try:
        return int(parts[parts.index("event") + 1])
    except (ValueError, IndexError):
        return None


def posting_target(key: str) -> str:
    """`...:event:12:coup:3` and `...:coup:3:after` → `coup:3`; `...:session` → `session`."""
    parts = key.split(":")
    if "coup" in parts:
        index = len(parts) - 1 - parts[::-1].index("coup")
        return coup_posting(int(parts[index + 1]))
    return parts[-1]


# -- owners and accounts ---------------------------------------------------------------------


@dataclass(frozen=True)
class AccountKey:
    """What identifies an owner's account in the books (ledger.models.ACCOUNT_KEY_FIELDS)."""

    kind: AccountKind
    member_number: str | None = None
    gaming_session_id: int | None = None
    place: str = ""

    @property
    def identity(self) -> tuple[Any, ...]:
        """The key as plain values (JSON-ready), the same for the same account."""
        return (str(self.kind), self.member_number, self.gaming_session_id, self.place)

    def lookup(self, player_ids: Mapping[str, int]) -> dict[str, Any]:
        """The account's fields, with the player's primary key from `player_ids`."""
        fields: dict[str, Any] = {"kind": self.kind, "place": self.place}
        if self.member_number is not None:
            fields["player_id"] = player_ids[self.member_number]
        if self.gaming_session_id is not None:
            fields["gaming_session_id"] = self.gaming_session_id
        return fields


def owner_account_key(
    owner: str, *, table_public_id: Any, table_session_public_id: Any, gaming_session_id: int
) -> AccountKey:
    """The account of an owner of the engine at a table session."""
    if owner in TABLE_OWNERS:
        return AccountKey(
            TABLE_OWNERS[owner],
            gaming_session_id=gaming_session_id,
            place=table_place(table_public_id),
        )
    if owner.startswith(RELIQUAT_PREFIX):
        return AccountKey(
            AccountKind.RELIQUAT,
            member_number=owner[len(RELIQUAT_PREFIX) :],
            place=table_session_place(table_session_public_id),
        )
    return AccountKey(
        AccountKind.PLAYER_POSITION, member_number=owner, gaming_session_id=gaming_session_id
    )


def account_owner(kind: str, member_number: str | None, pk: int | None = None) -> str:
    """The engine's name for the owner of an account (the inverse of `owner_account_key`)."""
    if kind == AccountKind.CAGNOTTE:
        return CAGNOTTE
    if kind == AccountKind.RESERVE_FUND:
        return RESERVE_FUND
    if kind == AccountKind.RELIQUAT:
        return f"{RELIQUAT_PREFIX}{member_number}"
    if kind == AccountKind.PLAYER_POSITION:
        return str(member_number)
    return f"{kind}#{pk}"


# The count of a séance's cagnotte box (art. 70; docs/registers.md, model 11): its difference
# and the levy from a surplus are named by the séance; the casino's cash is the house's.
HOUSE_PLACE = "house"


def count_place(table_session_public_id: UUID | str) -> str:
    return f"count:{table_session_public_id}"
