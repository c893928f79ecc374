"""From the engine's transfers to ledger transactions (COM-5.2, docs/ledger.md).

Each owner the engine names has an account: a player's position in the gaming session, the
cagnotte and the reserve fund of the table in the gaming session, a banker's reliquat at the
table session. A transfer `from → to` is a debit of `from` and a credit of `to`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from django.db import IntegrityError, transaction
from django.db.models import Q

from establishment.errors import DomainError, ErrorCode
from establishment.models import Player
from ledger.models import Account, AccountKind, Transaction
from ledger.services import Leg, post
from tables.engine import Transfer
from tables.engine.settlement import CAGNOTTE, RELIQUAT_PREFIX, RESERVE_FUND
from tables.models import TableSession

if TYPE_CHECKING:
    from django.contrib.auth.models import User


class UnknownPlayerError(DomainError):
    code = ErrorCode.UNKNOWN_PLAYER
    http_status = 422


def players_by_code(codes: Sequence[str]) -> dict[str, Player]:
    """Players by member number (the engine's player ids), in one query."""
    wanted = set(codes)
    found = {p.member_number: p for p in Player.objects.filter(member_number__in=wanted)}
    missing = sorted(wanted - set(found))
    if missing:
        raise UnknownPlayerError(
            f"No player with member number {', '.join(missing)}; register the player first.",
            member_numbers=missing,
        )
    return found


def _key_of(owner: str, players: dict[str, Player], ts: TableSession) -> dict[str, Any]:
    if owner == CAGNOTTE:
        return {
            "kind": AccountKind.CAGNOTTE,
            "table_id": ts.table_id,
            "gaming_session_id": ts.gaming_session_id,
        }
    if owner == RESERVE_FUND:
        return {
            "kind": AccountKind.RESERVE_FUND,
            "table_id": ts.table_id,
            "gaming_session_id": ts.gaming_session_id,
        }
    if owner.startswith(RELIQUAT_PREFIX):
        banker = players[owner[len(RELIQUAT_PREFIX) :]]
        return {"kind": AccountKind.RELIQUAT, "player_id": banker.pk, "table_session_id": ts.pk}
    return {
        "kind": AccountKind.PLAYER_POSITION,
        "player_id": players[owner].pk,
        "gaming_session_id": ts.gaming_session_id,
    }


def _account_key(account: Account) -> tuple[Any, ...]:
    return (
        account.kind,
        account.player_id,
        account.gaming_session_id,
        account.table_id,
        account.table_session_id,
    )


def _lookup_key(key: dict[str, Any]) -> tuple[Any, ...]:
    return (
        key["kind"],
        key.get("player_id"),
        key.get("gaming_session_id"),
        key.get("table_id"),
        key.get("table_session_id"),
    )


def _owner_of(account: Account) -> str:
    """The engine's name for the owner of an account read by `accounts_for`."""
    if account.kind == AccountKind.CAGNOTTE:
        return CAGNOTTE
    if account.kind == AccountKind.RESERVE_FUND:
        return RESERVE_FUND
    assert account.player is not None
    if account.kind == AccountKind.RELIQUAT:
        return RELIQUAT_PREFIX + account.player.member_number
    return account.player.member_number


def accounts_for(owners: Sequence[str], ts: TableSession) -> dict[str, Account]:
    """The account of every owner, created on first use; a fixed number of queries.

    Once the accounts exist (every coup after a player's first), one statement reads them all,
    whatever the number of players (P2).
    """
    wanted = set(owners)
    bankers = [o[len(RELIQUAT_PREFIX) :] for o in wanted if o.startswith(RELIQUAT_PREFIX)]
    codes = [o for o in wanted if o not in _TABLE_KINDS and not o.startswith(RELIQUAT_PREFIX)]
    table_kinds = [k for o, k in _TABLE_KINDS.items() if o in wanted]
    condition = Q(pk__in=[])
    if codes:
        condition |= Q(
            kind=AccountKind.PLAYER_POSITION,
            player__member_number__in=codes,
            gaming_session_id=ts.gaming_session_id,
        )
    if bankers:
        condition |= Q(
            kind=AccountKind.RELIQUAT,
            player__member_number__in=bankers,
            table_session_id=ts.pk,
        )
    if table_kinds:
        condition |= Q(
            kind__in=table_kinds, table_id=ts.table_id, gaming_session_id=ts.gaming_session_id
        )
    found = {
        _owner_of(account): account
        for account in Account.objects.filter(condition).select_related("player")
    }
    if wanted <= set(found):
        return {owner: found[owner] for owner in owners}
    return _accounts_create(owners, ts)


_TABLE_KINDS = {CAGNOTTE: AccountKind.CAGNOTTE, RESERVE_FUND: AccountKind.RESERVE_FUND}


def _accounts_create(owners: Sequence[str], ts: TableSession) -> dict[str, Account]:
    """Create the missing accounts of `owners` (a player's first coup of the night)."""
    player_codes = [
        owner[len(RELIQUAT_PREFIX) :] if owner.startswith(RELIQUAT_PREFIX) else owner
        for owner in owners
        if owner not in (CAGNOTTE, RESERVE_FUND)
    ]
    players = players_by_code(player_codes) if player_codes else {}
    keys = {owner: _key_of(owner, players, ts) for owner in owners}
    condition = Q()
    for key in keys.values():
        condition |= Q(**key)
    # Each failed attempt means another writer created one of the missing accounts, so the
    # missing set shrinks every time: at most one attempt per account, and a last one.
    attempts = len(keys) + 1
    for attempt in range(attempts):
        found = {_account_key(a): a for a in Account.objects.filter(condition)}
        missing = [key for key in keys.values() if _lookup_key(key) not in found]
        if not missing:
            break
        try:
            with transaction.atomic():
                created = Account.objects.bulk_create(Account(**key) for key in missing)
            found.update({_account_key(a): a for a in created})
            break
        except IntegrityError:
            # Another table created one of them meanwhile (a player's position in the gaming
            # session), and the whole insert was undone: read again, create what is still
            # missing (this table's own cagnotte or reliquat, say).
            if attempt == attempts - 1:
                raise
    return {owner: found[_lookup_key(key)] for owner, key in keys.items()}


def transfers_post(
    *,
    transfers: Sequence[Transfer],
    accounts: dict[str, Account],
    idempotency_key: str,
    memo: str,
    table_session: TableSession,
    posted_by: User,
) -> Transaction:
    """Book the engine's transfers as one balanced transaction."""
    legs: list[Leg] = []
    for transfer in transfers:
        legs.append(Leg.debit(accounts[transfer.source], transfer.amount, transfer.reason))
        legs.append(Leg.credit(accounts[transfer.target], transfer.amount, transfer.reason))
    return post(
        legs=legs,
        idempotency_key=idempotency_key,
        posted_by=posted_by,
        memo=memo,
        gaming_session=table_session.gaming_session,
        table_session=table_session,
        key_unique_by_caller=True,  # the key names the journal line, under the table's lock
    )
