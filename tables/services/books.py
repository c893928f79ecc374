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

from casino.errors import DomainError, ErrorCode
from casino.models import Player
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


def accounts_for(owners: Sequence[str], ts: TableSession) -> dict[str, Account]:
    """The account of every owner, created on first use; a fixed number of queries."""
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
    found = {_account_key(a): a for a in Account.objects.filter(condition)}
    missing = [key for key in keys.values() if _lookup_key(key) not in found]
    if missing:
        try:
            with transaction.atomic():
                created = Account.objects.bulk_create(Account(**key) for key in missing)
            found.update({_account_key(a): a for a in created})
        except IntegrityError:
            # Another table created one of them meanwhile (the shared cagnotte of a session):
            # read them again.
            found = {_account_key(a): a for a in Account.objects.filter(condition)}
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
    )
