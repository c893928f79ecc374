"""Celery tasks of the table floor: thin, idempotent (each calls one service, which may run
twice).

`seating_fees_charge` runs from Celery beat: at a table on a time fee, a period begins while
the players stay seated and nobody records anything; the task charges it (docs/rules/levy.md,
LV-3). The recording service charges the same periods with each action and the close charges
what is left, so a late or lost run delays a charge and never doubles one (the charge's key and
unique constraints, tables/services/levies.py).
"""

from __future__ import annotations

from celery import shared_task

from establishment.retry import RETRIED
from tables.services.levies import open_seating_fees_charge


@shared_task(name="tables.seating_fees_charge", **RETRIED)
def seating_fees_charge() -> int:
    """Charge what the seating of every open table on a time or participation fee owes by now;
    the number of charges made."""
    return open_seating_fees_charge()
