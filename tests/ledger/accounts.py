"""The accounts of each kind (COM-5.2), made directly for the ledger's own tests.

Recording finds its accounts through `tables.services.books`; these build one of each kind.
"""

from __future__ import annotations

from establishment.models import GamingSession, Player
from ledger.models import Account, AccountKind
from ledger.services import account_get_or_create
from tables.models import Table, TableSession


def player_position_account(*, player: Player, gaming_session: GamingSession) -> Account:
    return account_get_or_create(
        kind=AccountKind.PLAYER_POSITION, player=player, gaming_session=gaming_session
    )


def bank_in_play_account(*, table_session: TableSession) -> Account:
    return account_get_or_create(kind=AccountKind.BANK_IN_PLAY, table_session=table_session)


def coup_stakes_account(*, table_session: TableSession, coup_number: int) -> Account:
    return account_get_or_create(
        kind=AccountKind.COUP_STAKES, table_session=table_session, coup_number=coup_number
    )


def cagnotte_account(*, table: Table, gaming_session: GamingSession) -> Account:
    return account_get_or_create(
        kind=AccountKind.CAGNOTTE, table=table, gaming_session=gaming_session
    )


def reliquat_account(*, banker: Player, table_session: TableSession) -> Account:
    return account_get_or_create(
        kind=AccountKind.RELIQUAT, player=banker, table_session=table_session
    )


def reserve_fund_account(*, table: Table, gaming_session: GamingSession) -> Account:
    return account_get_or_create(
        kind=AccountKind.RESERVE_FUND, table=table, gaming_session=gaming_session
    )
