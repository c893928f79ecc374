"""What the demo's loaders share on the table floor (`demo_data`, reports/demo_nights.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tables.models import Table
from tables.services import table_create

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def demo_table(*, number: int, game: str, created_by: User, **fields: Any) -> Table:
    """The demo's table `number` in service, created with `fields` (`settings`, `name`,
    `seat_count`) when there is none."""
    table = Table.objects.filter(number=number, is_active=True).first()
    if table is None:
        table = table_create(number=number, game=game, created_by=created_by, **fields)
    return table
