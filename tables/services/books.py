"""From the engine's transfers to ledger transactions (COM-5.2, docs/ledger.md).

Each owner the engine names has an account (tables/postings.py says which): a player's position
in the gaming session, the cagnotte and the reserve fund of the table in the gaming session, a
banker's reliquat at the table session. A transfer `from → to` is a debit of `from` and a
credit of `to`.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

from django.db import IntegrityError, transaction
from django.db.models import F, Q

from establishment.errors import DomainError, ErrorCode
from establishment.models import Player
from ledger.models import Account, Transaction
from ledger.services import Leg, post
from tables.engine import Transfer
from tables.memo import Memo
from tables.models import TableSession
from tables.postings import AccountKey, account_owner, owner_account_key, table_session_place

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


def _account_key(account: Account) -> tuple[Any, ...]:
    return (account.kind, account.player_id, account.gaming_session_id, account.place)


def _lookup_key(fields: dict[str, Any]) -> tuple[Any, ...]:
    return (
        fields["kind"],
        fields.get("player_id"),
        fields.get("gaming_session_id"),
        fields.get("place", ""),
    )


def _keys_of(owners: Sequence[str], ts: TableSession) -> dict[str, AccountKey]:
    return {
        owner: owner_account_key(
            owner,
            table_public_id=ts.table.public_id,
            table_session_public_id=ts.public_id,
            gaming_session_id=ts.gaming_session_id,
        )
        for owner in owners
    }


def accounts_for(owners: Sequence[str], ts: TableSession) -> dict[str, Account]:
    """The account of every owner, created on first use; a fixed number of queries.

    Once the accounts exist (every coup after a player's first), one statement reads them all,
    whatever the number of players (P2).
    """
    seance = str(ts.public_id)
    known = _known.get(seance) or {}
    if all(owner in known for owner in owners):
        return {owner: known[owner] for owner in owners}
    keys = _keys_of(sorted(set(owners)), ts)
    # Unordered, and each with its player's member number only (not the player's row).
    rows = (
        Account.objects.filter(_accounts_condition(keys))
        .order_by()
        .annotate(member_number=F("player__member_number"))
    )
    found = {account_owner(row.kind, row.member_number): row for row in rows}
    if set(keys) <= set(found):
        accounts: dict[str, Account] = {owner: found[owner] for owner in owners}
    else:
        accounts = _accounts_create(owners, keys)
    transaction.on_commit(partial(_known.put, seance, known | accounts))
    return accounts


# The accounts of each séance's owners this process has read or created, once their
# transaction committed: an owner's account at a séance never changes (its kind, its player,
# its place and gaming session are the séance's), and its row is never edited. Keyed by the
# séance's public id (never reused).
_known: Memo[dict[str, Account]] = Memo(size=1024)


def _accounts_condition(keys: dict[str, AccountKey]) -> Q:
    """The condition that reads the accounts of `keys`: one term for each kind of account at
    its place, the players' together (the ORM builds a condition at a cost that grows with its
    terms, and this one is built at every settled coup)."""
    groups: dict[tuple[Any, ...], list[str]] = {}
    for key in keys.values():
        group = (key.kind, key.place, key.gaming_session_id, key.member_number is None)
        groups.setdefault(group, []).append(key.member_number or "")
    condition = Q(pk__in=[])
    for (kind, place, gaming_session_id, no_player), members in groups.items():
        fields: dict[str, Any] = {"kind": kind, "place": place}
        if not no_player:
            fields["player__member_number__in"] = sorted(members)
        if gaming_session_id is not None:
            fields["gaming_session_id"] = gaming_session_id
        condition |= Q(**fields)
    return condition


def account_lookups(keys: dict[str, AccountKey]) -> tuple[dict[str, dict[str, Any]], Q]:
    """The fields that find (or create) each owner's account, by owner, and the condition that
    reads them all in one statement; the players are read in one query."""
    codes = [key.member_number for key in keys.values() if key.member_number is not None]
    player_ids = {code: p.pk for code, p in players_by_code(codes).items()} if codes else {}
    lookups = {owner: key.lookup(player_ids) for owner, key in keys.items()}
    condition = Q()
    for fields in lookups.values():
        condition |= Q(**fields)
    return lookups, condition


def _accounts_create(owners: Sequence[str], keys: dict[str, AccountKey]) -> dict[str, Account]:
    """Create the missing accounts of `owners` (a player's first coup of the night)."""
    lookups, condition = account_lookups(keys)
    # Each failed attempt means another writer created one of the missing accounts, so the
    # missing set shrinks every time: at most one attempt per account, and a last one.
    attempts = len(lookups) + 1
    for attempt in range(attempts):
        found = {_account_key(a): a for a in Account.objects.filter(condition)}
        missing = [fields for fields in lookups.values() if _lookup_key(fields) not in found]
        if not missing:
            break
        try:
            with transaction.atomic():
                created = Account.objects.bulk_create(Account(**fields) for fields in missing)
            found.update({_account_key(a): a for a in created})
            break
        except IntegrityError:
            # Another table created one of them meanwhile (a player's position in the gaming
            # session), and the whole insert was undone: read again, create what is still
            # missing (this table's own cagnotte or reliquat, say).
            if attempt == attempts - 1:
                raise
    return {owner: found[_lookup_key(lookups[owner])] for owner in owners}


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
        place=table_session_place(table_session.public_id),
        key_unique_by_caller=True,  # the key names the journal line, under the table's lock
    )
