"""The accounts of each kind (COM-5.2), made directly for the ledger's own tests.

Recording finds its accounts through `tables.services.books`; these build one of each kind.
"""

from __future__ import annotations

from establishment.models import GamingSession, Player
from ledger.models import Account, AccountKind
from ledger.services import account_get_or_create
from tables.models import Table, TableSession
from tables.postings import table_place, table_session_place


def player_position_account(*, player: Player, gaming_session: GamingSession) -> Account:
    return account_get_or_create(
        kind=AccountKind.PLAYER_POSITION, player=player, gaming_session=gaming_session
    )


def bank_in_play_account(*, table_session: TableSession) -> Account:
    return account_get_or_create(
        kind=AccountKind.BANK_IN_PLAY, place=table_session_place(table_session.public_id)
    )


def coup_stakes_account(*, table_session: TableSession, coup_number: int) -> Account:
    return account_get_or_create(
        kind=AccountKind.COUP_STAKES,
        place=table_session_place(table_session.public_id),
        number=coup_number,
    )


def cagnotte_account(*, table: Table, gaming_session: GamingSession) -> Account:
    return account_get_or_create(
        kind=AccountKind.CAGNOTTE, place=table_place(table.public_id), gaming_session=gaming_session
    )


def reliquat_account(*, banker: Player, table_session: TableSession) -> Account:
    return account_get_or_create(
        kind=AccountKind.RELIQUAT,
        player=banker,
        place=table_session_place(table_session.public_id),
    )


def reserve_fund_account(*, table: Table, gaming_session: GamingSession) -> Account:
    return account_get_or_create(
        kind=AccountKind.RESERVE_FUND,
        place=table_place(table.public_id),
        gaming_session=gaming_session,
    )
