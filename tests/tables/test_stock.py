"""The house's numbered sabots and packs (model 19, art. 58; docs/registers.md): received,
assigned to a table for a séance, used once, returned or destroyed; a number never at two
tables at once, said in words by the service and held by the database."""

from __future__ import annotations

import re

import pytest
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from establishment.errors import ErrorCode, InvalidInputError, PermissionDeniedError
from establishment.models import AuditEntry
from establishment.roles import Role
from tables.models import Sabot, TableSession
from tables.services import Recorded, record, sabot_open, table_session_close
from tables.services.journal import last_seq_get
from tables.services.stock import (
    StockBusyError,
    stock_assign,
    stock_destroy,
    stock_for_new_shoe,
    stock_receive,
    stock_return,
)
from tables.stock_models import StockAssignment, StockItem
from tests.concurrency.kit import CF_SETTINGS, Croupier, Floor, cf_table
from tests.factories import UserFactory
from tests.tables.conftest import Around

pytestmark = pytest.mark.django_db
DECKS = CF_SETTINGS["decks"]


def _receive(floor: Floor, first: int = 1, last: int = 10, decks: int = DECKS) -> None:
    stock_receive(
        kind="sabot",
        first=first,
        last=last,
        decks=decks,
        received_from="Cartes de France, bon 2026-118",
        received_by=floor.inspector,
    )


def test_numbers_are_received_once_and_a_second_delivery_of_them_is_refused(floor: Floor) -> None:
    _receive(floor)
    assert list(StockItem.objects.values_list("number", flat=True)) == list(range(1, 11))
    assert AuditEntry.objects.filter(action="stock_receive").count() == 1
    with pytest.raises(StockBusyError) as refused:
        _receive(floor, first=8, last=12)
    assert refused.value.code == ErrorCode.STOCK_UNAVAILABLE
    assert "8, 9, 10" in refused.value.message
    assert StockItem.objects.count() == 10  # nothing of the second delivery


def test_a_bad_delivery_is_refused_field_by_field(floor: Floor) -> None:
    with pytest.raises(InvalidInputError) as refused:
        stock_receive(
            kind="box",
            first="a",
            last=0,
            decks=9,
            received_from="",
            received_by=floor.inspector,
        )
    assert set(refused.value.fields) == {"kind", "first", "last", "decks", "received_from"}
    with pytest.raises(InvalidInputError) as refused:
        stock_receive(
            kind="pack",
            first=1,
            last=5000,
            decks=1,
            received_from="x",
            received_by=floor.inspector,
        )
    assert "at most 1000" in refused.value.fields["last"][0]
    with pytest.raises(PermissionDeniedError):
        stock_receive(
            kind="pack", first=1, last=2, decks=1, received_from="x", received_by=floor.croupier
        )
    assert not StockItem.objects.exists()


def test_a_number_is_never_at_two_tables_at_once(floor: Floor) -> None:
    _receive(floor)
    first = cf_table(floor)
    second = cf_table(floor, "B", croupier=UserFactory.create(roles=[Role.CROUPIER]))
    stock_assign(table_session=first, kind="sabot", numbers=[1, 2, 3], assigned_by=floor.inspector)
    with pytest.raises(StockBusyError) as refused:
        stock_assign(
            table_session=second, kind="sabot", numbers=[4, 2], assigned_by=floor.inspector
        )
    assert f"table {first.table.number}" in refused.value.message
    assert refused.value.extra["table"] == first.table.number
    # nothing of the refused assignment stands, not even number 4
    assert not StockAssignment.objects.filter(table_session=second).exists()
    # the database holds it too
    item = StockItem.objects.get(number=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        StockAssignment.objects.create(
            item=item, table_session=second, assigned_at=timezone.now(), assigned_by=floor.inspector
        )
    # returned, it may go to the other table
    stock_return(kind="sabot", number=2, returned_by=floor.inspector)
    stock_assign(table_session=second, kind="sabot", numbers=[2], assigned_by=floor.inspector)
    assert StockAssignment.objects.get(item__number=2, returned_at=None).table_session == second


def test_a_sabot_of_another_size_or_a_destroyed_one_is_refused(floor: Floor) -> None:
    _receive(floor, 1, 2)
    _receive(floor, 50, 50, decks=DECKS + 1)
    table = cf_table(floor)
    with pytest.raises(StockBusyError, match=f"this table plays with {DECKS}"):
        stock_assign(table_session=table, kind="sabot", numbers=[50], assigned_by=floor.inspector)
    stock_destroy(kind="sabot", number=2, reason="cards marked", destroyed_by=floor.inspector)
    with pytest.raises(StockBusyError, match="destroyed"):
        stock_assign(table_session=table, kind="sabot", numbers=[2], assigned_by=floor.inspector)
    with pytest.raises(StockBusyError, match="No sabot number 77"):
        stock_assign(table_session=table, kind="sabot", numbers=[77], assigned_by=floor.inspector)


def test_a_sabot_at_a_table_is_not_destroyed_and_a_destruction_needs_its_reason(
    floor: Floor,
) -> None:
    _receive(floor, 1, 1)
    table = cf_table(floor)
    stock_assign(table_session=table, kind="sabot", numbers=[1], assigned_by=floor.inspector)
    with pytest.raises(StockBusyError, match="return it first"):
        stock_destroy(kind="sabot", number=1, reason="torn", destroyed_by=floor.inspector)
    stock_return(kind="sabot", number=1, returned_by=floor.inspector)
    with pytest.raises(InvalidInputError):
        stock_destroy(kind="sabot", number=1, reason=" ", destroyed_by=floor.inspector)
    item = stock_destroy(kind="sabot", number=1, reason="torn", destroyed_by=floor.inspector)
    assert (item.destroyed_by, item.destroyed_reason) == (floor.inspector, "torn")


def test_the_new_shoe_takes_one_of_the_numbers_at_the_table(floor: Floor) -> None:
    _receive(floor, 1, 5)
    table = cf_table(floor)
    assert stock_for_new_shoe(table, None) is None  # nothing numbered at this table
    stock_assign(table_session=table, kind="sabot", numbers=[3, 4], assigned_by=floor.inspector)
    with pytest.raises(StockBusyError) as refused:
        stock_for_new_shoe(table, 5)
    assert refused.value.extra["numbers"] == [3, 4]
    assert "3, 4" in refused.value.message
    item = stock_for_new_shoe(table, 4)
    assert item is not None
    assert item.number == 4


def test_a_new_shoe_at_a_numbered_table_is_formed_from_a_number_there_once(
    floor: Floor, around: Around
) -> None:
    _receive(floor, 1, 5)
    table = cf_table(floor)
    stock_assign(table_session=table, kind="sabot", numbers=[3, 4], assigned_by=floor.inspector)
    at = Croupier(table, floor.croupier, around)
    before = last_seq_get(table)
    with pytest.raises(StockBusyError) as refused:
        at.do("new_shoe", cut_by=1)  # no number chosen
    assert refused.value.extra["numbers"] == [3, 4]
    assert last_seq_get(table) == before  # nothing recorded
    done = _new_shoe(at, table, 4)
    assert done.seq == before + 1
    sabot = Sabot.objects.get(table_session=table, closed_at=None)
    assert sabot.stock_item is not None
    assert (sabot.stock_item.number, sabot.number) == (4, 1)
    with pytest.raises(StockBusyError):
        sabot_open(table_session=table, opened_by=floor.inspector, stock_number=4)  # used
    again = sabot_open(table_session=table, opened_by=floor.inspector, stock_number=3)
    assert again.stock_item is not None
    assert (again.stock_item.number, again.number) == (3, 2)


def test_the_close_of_the_seance_returns_its_numbers(floor: Floor, around: Around) -> None:
    _receive(floor, 1, 2)
    table = cf_table(floor)
    stock_assign(table_session=table, kind="sabot", numbers=[1, 2], assigned_by=floor.inspector)
    with around():
        table_session_close(table_session=table, user=floor.inspector)
    assert not StockAssignment.objects.filter(returned_at=None).exists()
    assert set(StockAssignment.objects.values_list("returned_by", flat=True)) == {
        floor.inspector.pk
    }
    row = AuditEntry.objects.get(action="table_close", table_session_id=table.pk)
    assert row.data["stock_returned"] == [1, 2]


def _new_shoe(at: Croupier, table: TableSession, number: int) -> Recorded:
    with at.around():
        return record(
            table_session=table,
            action={"type": "new_shoe", "actor": "croupier", "cut_by": 1},
            expected_seq=last_seq_get(table) + 1,
            user=at.user,
            idempotency_key=f"shoe-{number}",
            stock_number=number,
        )


HX = {"HX-Request": "true"}


def test_the_floor_receives_assigns_takes_back_and_destroys(floor: Floor) -> None:
    table = cf_table(floor)
    inspector = Client()
    inspector.force_login(floor.inspector)
    done = inspector.post(
        reverse("console:stock-receive"),
        {"kind": "sabot", "first": "1", "last": "4", "decks": str(DECKS), "received_from": "CdF"},
        headers=HX,
    )
    assert done.status_code == 200
    assert done.content.decode().count('data-kind="sabot"') == 4
    assign = reverse("console:stock-assign")
    answer = inspector.post(
        assign,
        {"table_session": str(table.public_id), "kind": "sabot", "numbers": "1, 3-4"},
        headers=HX,
    )
    assert answer.status_code == 200
    assert sorted(StockAssignment.objects.values_list("item__number", flat=True)) == [1, 3, 4]
    for bad, status in (
        ({"table_session": str(table.public_id), "kind": "sabot", "numbers": "2, x"}, 422),
        ({"table_session": str(table.public_id), "kind": "sabot", "numbers": "4-2"}, 422),
        ({"table_session": "not-a-table", "kind": "sabot", "numbers": "2"}, 409),
        ({"table_session": str(table.public_id), "kind": "sabot", "numbers": "1"}, 409),
    ):
        refused = inspector.post(assign, bad, headers=HX)
        assert refused.status_code == status, bad
        assert 'data-testid="problem"' in refused.content.decode()
    assert StockAssignment.objects.count() == 3  # nothing of the refusals
    inspector.post(reverse("console:stock-return"), {"kind": "sabot", "number": "4"}, headers=HX)
    destroyed = inspector.post(
        reverse("console:stock-destroy"),
        {"kind": "sabot", "number": "4", "reason": "a card torn"},
        headers=HX,
    )
    assert "a card torn" in destroyed.content.decode()
    croupier = Client()
    croupier.force_login(floor.croupier)
    assert croupier.get(reverse("console:stock")).status_code == 403
    refused = croupier.post(assign, {"table_session": str(table.public_id)}, headers=HX)
    assert refused.status_code == 403


def test_the_table_screen_offers_the_numbers_at_the_table_for_the_new_shoe(floor: Floor) -> None:
    _receive(floor, 7, 9)
    table = cf_table(floor)
    stock_assign(table_session=table, kind="sabot", numbers=[7, 9], assigned_by=floor.inspector)
    croupier = Client()
    croupier.force_login(floor.croupier)
    url = reverse("console:table", kwargs={"table_session": table.public_id})
    page = croupier.get(url).content.decode()
    control = page[page.index('data-type="new_shoe"') :]
    control = control[: control.index("</form>")]
    assert 'name="sabot" value="7"' in control and 'name="sabot" value="9"' in control
    meta = page[page.index('id="screen-meta"') :]
    fields = dict(re.findall(r'name="(\w+)" value="([^"]*)"', meta[: meta.index("</div>")]))
    record_url = reverse("console:record", kwargs={"table_session": table.public_id})
    shoe = {**fields, "type": "new_shoe", "actor": "croupier", "cut_by": "1", "sabot": "9"}
    answer = croupier.post(record_url, shoe, headers=HX)
    assert answer.status_code == 200
    sabot = Sabot.objects.get(table_session=table, closed_at=None)
    assert sabot.stock_item is not None
    assert sabot.stock_item.number == 9
