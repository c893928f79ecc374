"""The difference of a counted cagnotte box, booked (arrêté du 14 mai 2007, art. 70;
docs/registers.md, model 11): a surplus is added to the levy, a shortfall is borne by the
casino's cash, each one balanced transaction named by the séance. Tables are never offset:
each count books its own difference.

Nothing here touches the night's accounts (the cagnotte of the table, the players'
positions), so the settlement report read back from the books after a count is the report
that was signed: the count's accounts are of its own place (`tables.postings.count_place`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ledger.models import AccountKind
from ledger.services import Leg, account_get_or_create, post
from tables.postings import HOUSE_PLACE, count_place

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from tables.models import TableSession

SURPLUS = "count_surplus"
SHORTFALL = "count_shortfall"


def count_difference_post(
    *, table_session: TableSession, expected: int, counted: int, posted_by: User
) -> str:
    """Book the difference between the box counted and the levies booked, in chips; its
    idempotency key, or "" when the count is exact."""
    difference = counted - expected
    if difference == 0:
        return ""
    place = count_place(table_session.public_id)
    box = account_get_or_create(kind=AccountKind.COUNT_DIFFERENCE, place=place)
    if difference > 0:  # more in the box than the levies: added to the levy
        levy = account_get_or_create(kind=AccountKind.LEVY_SURPLUS, place=place)
        legs = [Leg.debit(box, difference, SURPLUS), Leg.credit(levy, difference, SURPLUS)]
    else:  # less in the box: the casino's cash makes the levy whole
        cash = account_get_or_create(kind=AccountKind.HOUSE_CASH, place=HOUSE_PLACE)
        legs = [Leg.debit(cash, -difference, SHORTFALL), Leg.credit(box, -difference, SHORTFALL)]
    key = f"{place}:difference"
    post(
        legs=legs,
        idempotency_key=key,
        posted_by=posted_by,
        memo=f"Table {table_session.table.number}, count of the cagnotte",
        place=place,
    )
    return key
