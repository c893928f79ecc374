"""A night on the floor, in a real browser (issue 13): a chemin de fer table whose croupier is
relieved twice (in the middle of a coup, then between coups) and whose changeur once, each
outgoing screen turning read-only and the incoming croupier finding the table on his home; a
player registered at the door and seated; a barred person refused at the door and again when
his number is typed in at the table (arrêté art. 22, art. 58)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Error as PlaywrightError

from tests.e2e.conftest import NIGHT, screenshot
from tests.e2e.driver import demo_ids, play, settled

EXAMPLE = json.loads(Path("tests/scenarios/chemin_de_fer/examples/CF-X1.json").read_text())
ACTIONS = (EXAMPLE[0] if isinstance(EXAMPLE, list) else EXAMPLE)["actions"]
IDS = demo_ids(6, ("X", "Y"), first=1)
REFUSED = "This person cannot be admitted to play."


def _table_section(floor: Any) -> Any:
    return floor.locator(f'section[data-table="{NIGHT}"]')


def _relieve(floor: Any, role: str, by: str) -> None:
    """The inspector puts `by` on duty at the night's table from the floor."""
    row = _table_section(floor).locator(f'.duty-row[data-role="{role}"]')
    row.locator('select[name="staff"]').select_option(by)
    with floor.expect_response(lambda r: "/duty/" in r.url and r.request.method == "POST") as done:
        row.get_by_role("button", name="Relieve").click()
    assert done.value.status == 200
    settled(floor)
    assert _table_section(floor).get_by_test_id(f"on-duty-{role}").inner_text() == by


def _open_from_home(page: Any) -> None:
    tile = page.get_by_test_id("my-tables").get_by_role("link", name=re.compile(f"Table {NIGHT}"))
    tile.wait_for(timeout=10000)  # the home polls: the table appears once he is on duty
    tile.click()
    page.locator("#desk").wait_for()


def _turns_read_only(page: Any) -> None:
    page.get_by_test_id("relieved").wait_for(timeout=10000)  # at the screen's next poll
    assert page.locator("#keypad").count() == 0


def _go_home(page: Any) -> None:
    """Home, even when the screen's own poll was navigating at that moment (a relieved
    croupier's screen follows him when he is put back on a table)."""
    for attempt in range(3):
        try:
            page.goto("/")
            return
        except PlaywrightError as error:
            if "ERR_ABORTED" not in str(error) or attempt == 2:
                raise
            page.wait_for_load_state()


def test_a_night_with_reliefs_and_the_door(new_page: Any) -> None:
    first = new_page(f"croupier{NIGHT}")
    _open_from_home(first)
    for action in ACTIONS[:3]:  # a new shoe, the bank announced, banco: the coup is open
        assert play(first, action, IDS) == 200
    relief = new_page("croupier6")  # logged in: on shift, and free
    floor = new_page("inspector")
    floor.wait_for_url(re.compile("/console/floor/"))
    floor.reload()

    # First relief, in the middle of the coup: it carries on under the new croupier.
    _relieve(floor, "croupier", "croupier6")
    _turns_read_only(first)
    screenshot(first, "night-relieved")
    _open_from_home(relief)
    for action in ACTIONS[3:]:
        assert play(relief, action, IDS) == 200
    assert relief.locator('#coup-list [data-coup="1"]').is_visible()

    # The changeur relieved; then the croupier, between coups, by the first one again.
    _relieve(floor, "changeur", "changeur2")
    _relieve(floor, "croupier", f"croupier{NIGHT}")
    _turns_read_only(relief)
    _go_home(first)
    _open_from_home(first)
    assert first.locator("#keypad").count() == 1
    screenshot(floor, "night-floor")

    # The door: a player registered and seated; a barred person refused there and at the table.
    door = new_page("reception")
    door.wait_for_url(re.compile("/reception/"))
    form = door.get_by_test_id("register")
    for label, value in (
        ("Surname", "Bernard"),
        ("First names", "Lucie"),
        ("Date of birth", "1988-06-02"),
        ("Place of birth", "Lyon"),
        ("Address", "4 quai Saint-Antoine, 69002 Lyon"),
        ("Document number", "18LY00427"),
        ("Document expiry date", "2031-06-01"),
    ):
        form.get_by_label(label, exact=True).fill(value)
    form.get_by_label("Identity document").select_option("identity_card")
    form.get_by_role("button", name="Register").click()
    door.wait_for_url(re.compile("/reception/players/[0-9a-f-]+/"))
    member = re.search(r"M-\d{6}", door.content())
    assert member is not None
    door.goto("/reception/")
    form = door.get_by_test_id("register")
    for label, value in (
        ("Surname", "Martin"),
        ("First names", "Paul"),
        ("Date of birth", "1975-03-14"),
        ("Place of birth", "Paris"),
        ("Address", "1 rue de Rivoli, 75001 Paris"),
        ("Document number", "75PA12345"),
        ("Document expiry date", "2030-01-01"),
    ):
        form.get_by_label(label, exact=True).fill(value)
    form.get_by_label("Identity document").select_option("identity_card")
    form.get_by_role("button", name="Register").click()
    door.get_by_test_id("problem").wait_for()
    assert door.get_by_test_id("problem").inner_text() == REFUSED
    screenshot(door, "night-door-refused")

    standing = {"type": "add_standing", "actor": "croupier", "player": member.group(0)}
    assert play(first, standing, IDS) == 200
    barred = {"type": "add_standing", "actor": "croupier", "player": "DEMO-0099"}
    assert play(first, barred, IDS) == 422
    assert first.get_by_test_id("problem").first.inner_text() == REFUSED
    screenshot(first, "night-table-refused")

    # Every duty period of the night's table, on the inspector's duty page.
    floor.goto("/console/floor/duty/")
    periods = floor.get_by_test_id("duty-periods")
    staff = [
        periods.locator(f'tr[data-staff="{who}"]').count()
        for who in (
            f"croupier{NIGHT}",
            "croupier6",
            f"changeur{NIGHT}",
            "changeur2",
        )
    ]
    assert staff == [2, 1, 1, 1]
