"""The numbered sabots in a real browser (docs/registers.md, model 19; art. 58): the inspector
receives sabots and assigns two of them to a table on the floor's stock page; the croupier
forms the new shoe from one of them, one tap on its number; the stock page then shows it used
at that table. The ticket books of a house that tears them (arts. 59, 82-83): received and
assigned on the same page; after the banker's winning coup the croupier's screen says the levy
and the tickets to detach."""

from __future__ import annotations

from typing import Any

from tables.management.commands.demo_data import DEMO_TABLES
from tests.e2e.conftest import STOCK_TABLE, TICKETS_TABLE, screenshot
from tests.e2e.driver import demo_ids, open_table, play, settled
from tests.e2e.test_console import example

DECKS = DEMO_TABLES[0].settings["decks"]


def test_a_new_shoe_from_a_numbered_sabot_at_the_table(new_page: Any) -> None:
    floor = new_page("inspector")
    floor.goto("/console/floor/stock/")
    receive = floor.get_by_test_id("stock-receive")
    receive.locator('input[name="first"]').fill("301")
    receive.locator('input[name="last"]').fill("303")
    receive.locator('input[name="decks"]').fill(str(DECKS))
    receive.locator('input[name="received_from"]').fill("Cartes de France")
    receive.get_by_role("button", name="Receive").click()
    floor.locator('tr[data-number="303"]').wait_for()
    assign = floor.get_by_test_id("stock-assign")
    assign.locator('select[name="table_session"]').select_option(
        label=f"Table {STOCK_TABLE} · Chemin de fer"
    )
    assign.locator('input[name="numbers"]').fill("301, 302")
    assign.get_by_role("button", name="Assign").click()
    settled(floor)
    assert f"at table {STOCK_TABLE}" in floor.locator('tr[data-number="302"]').inner_text()
    # A number is at one table at a time: assigning 302 again is refused in place.
    assign = floor.get_by_test_id("stock-assign")
    assign.locator('input[name="numbers"]').fill("302")
    assign.get_by_role("button", name="Assign").click()
    floor.get_by_test_id("problem").wait_for()
    assert f"table {STOCK_TABLE}" in floor.get_by_test_id("problem").inner_text()

    croupier = new_page(f"croupier{STOCK_TABLE}")
    open_table(croupier, STOCK_TABLE)
    shoe = croupier.locator('#desk form[data-type="new_shoe"]')
    numbers = shoe.locator('input[name="sabot"]')
    assert [numbers.nth(i).get_attribute("value") for i in range(numbers.count())] == ["301", "302"]
    screenshot(croupier, "stock-new-shoe")
    ids = demo_ids(6)
    assert play(croupier, {"type": "new_shoe", "sabot": 302, "cut_by": 1}, ids) == 200

    floor.reload()
    row = floor.locator('tr[data-number="302"]').inner_text()
    assert f"at table {STOCK_TABLE}" in row and "used" in row
    screenshot(floor, "stock-after-the-shoe")


def test_the_tickets_to_detach_after_the_bankers_winning_coup(new_page: Any) -> None:
    floor = new_page("inspector")
    floor.goto("/console/floor/stock/")
    for face, first in (("10", "1"), ("100", "1")):  # 0,10 € and 1 €, a book of each
        receive = floor.get_by_test_id("tickets-receive")
        receive.locator('select[name="face"]').select_option(face)
        receive.locator('input[name="first"]').fill(first)
        receive.locator('input[name="books"]').fill("1")
        receive.locator('input[name="received_from"]').fill("Imprimerie du cercle")
        receive.get_by_role("button", name="Receive").click()
        floor.locator(f'tr[data-face="{face}"][data-first="{first}"]').wait_for()
        assign = floor.get_by_test_id("tickets-assign")
        assign.locator('select[name="table_session"]').select_option(
            label=f"Table {TICKETS_TABLE} · Chemin de fer"
        )
        assign.locator('select[name="face"]').select_option(face)
        assign.locator('input[name="first_serials"]').fill(first)
        assign.get_by_role("button", name="Assign").click()
        settled(floor)
        row = floor.locator(f'tr[data-face="{face}"][data-first="{first}"]').inner_text()
        assert f"at table {TICKETS_TABLE}" in row
    screenshot(floor, "stock-ticket-books")

    croupier = new_page(f"croupier{TICKETS_TABLE}")
    open_table(croupier, TICKETS_TABLE)
    ids = demo_ids(6, ("X", "Y"), first=1)
    for action in example("chemin_de_fer", "CF-X1")["actions"][:7]:  # the bank wins coup 1
        assert play(croupier, action, ids) == 200
    tickets = croupier.get_by_test_id("tickets").first.inner_text().replace("\xa0", " ")
    # 5 % of the 1 000 won: 50 chips, 0,50 € at a cent a chip: five tickets of 0,10 €.
    assert tickets == "Levy 0,50 € · Tickets to detach: 5 × 0,10 €"
    screenshot(croupier, "table-tickets-to-detach")
