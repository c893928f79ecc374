"""A fee charged from the seating is never charged twice for one player and period, whoever
charges at the same moment (docs/rules/levy.md, LV-3), PostgreSQL.

- The participation fee is the house's, per player and day: one member sitting down at eight
  tables at the same instant (each table's croupier records `sit` in his own transaction, under
  his own table's lock) pays it once, at one of them.
- Two guards hold it: the ledger key, which names the player and the day but not the table, and
  the unique constraint of the charges. With the key made per table (the first guard removed),
  the constraint alone still lets one charge through, and the losers' postings are undone with
  their charge: no transaction is left without its charge.
- A time fee's period charged by the periodic task while the croupier records at the same table
  is charged once.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any

import pytest
from django.db import connection

from ledger.models import Transaction
from tables.models import LevyCharge, TableSession
from tables.selectors import player_position_get
from tables.services import levies
from tables.services.levies import open_seating_fees_charge
from tests.concurrency.kit import (
    UK_PONTOON,
    Croupier,
    Floor,
    floor_open,
    players_ensure,
    table_open,
)
from tests.concurrency.threads import together
from tests.factories import UserFactory

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True, serialized_rollback=True),
]

TABLES = 8
TIME_FEE = {"min_stake": 100, "cagnotte_rate_bp": 0, "levy_model": "time_fee", "fee_amount": 50}


def _tables(floor: Floor, settings: Mapping[str, Any], count: int) -> list[Croupier]:
    croupiers = []
    for index in range(count):
        user = UserFactory.create(roles=["croupier"])
        table = table_open(floor, "pontoon", settings, {1: f"T{index}-A"}, croupier=user)
        croupiers.append(Croupier(table, user))
    return croupiers


def _sit(at: Croupier, player: str) -> int:
    at.table_session = TableSession.objects.get(pk=at.table_session.pk)
    return at.do("sit", seat=2, player=player).seq


def _charged_to(code: str) -> list[LevyCharge]:
    return list(LevyCharge.objects.filter(player__member_number=code))


def test_lv3_a_member_sitting_at_eight_tables_at_once_pays_the_days_fee_once() -> None:
    floor = floor_open()
    croupiers = _tables(floor, UK_PONTOON, TABLES)
    players_ensure(["ROVER"])

    outcomes = together([partial(_sit, at, "ROVER") for at in croupiers], timeout=120)
    connection.close()

    assert [o.error for o in outcomes] == [None] * TABLES  # every table seated him
    (charge,) = _charged_to("ROVER")
    assert charge.amount == 300
    assert Transaction.objects.filter(idempotency_key__contains=":ROVER:").count() == 1
    assert player_position_get(player=charge.player, gaming_session=floor.gaming_session) == -300


def test_lv3_the_charges_constraint_holds_alone_when_the_key_names_the_table(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def per_table(model: str, player: str, start: Any, *, table_session_public_id: Any) -> str:
        return f"per-table:{model}:{player}:{start.isoformat()}:{id(object())}"

    monkeypatch.setattr(levies, "levy_charge_key", per_table)
    floor = floor_open()
    croupiers = _tables(floor, UK_PONTOON, TABLES)
    players_ensure(["ROVER"])

    outcomes = together([partial(_sit, at, "ROVER") for at in croupiers], timeout=120)
    connection.close()

    assert [o.error for o in outcomes] == [None] * TABLES
    assert len(_charged_to("ROVER")) == 1
    # The losers' postings were undone with their refused charge.
    fees = Transaction.objects.filter(
        idempotency_key__startswith="per-table:participation_fee:ROVER:"
    )
    assert fees.count() == 1
    assert fees.get().levy_charge.player.member_number == "ROVER"


def test_lv3_the_periodic_task_and_the_croupier_charge_a_time_fee_period_once() -> None:
    floor = floor_open()
    (at,) = _tables(floor, TIME_FEE, 1)
    players_ensure(["LATE"])

    outcomes = together([partial(_sit, at, "LATE"), partial(open_seating_fees_charge)], timeout=120)
    connection.close()

    assert [o.error for o in outcomes] == [None, None]
    assert len(_charged_to("LATE")) == 1
    assert len(_charged_to("T0-A")) == 1  # seated at the opening: his first period, once
