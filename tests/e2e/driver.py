"""Play an engine action on the table screen as a croupier would: tap its controls.

`play(page, action, ids)` takes an action in the scenario form of docs/rules/SCENARIOS.md and
taps what the screen offers for it (the big button, the actor's chip, the amount, the keypad…),
then waits for the answer to be drawn. `ids` maps the scenario's player ids (S1, X…) to the
demo's member numbers. Scenario actors that are seats stay seats.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

SESSION_TYPES = {"sit", "leave", "add_standing", "end_session", "set_first_banker"}
_last_box: dict[str, float] = {}


def who(value: Any, ids: Mapping[str, str]) -> str:
    return str(value) if isinstance(value, int) else ids.get(str(value), str(value))


def _tap(page: Any, locator: Any) -> None:
    """Click like a finger; wait first if the last tap hit the same spot (the double-tap guard
    of console.js drops a second tap there right after a redraw)."""
    box = locator.bounding_box()
    if box:
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        if _last_box and abs(x - _last_box["x"]) < 30 and abs(y - _last_box["y"]) < 30:
            time.sleep(0.45)
        _last_box.update(x=x, y=y)
    locator.click()


def settled(page: Any) -> None:
    page.wait_for_function(
        "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"
    )


def control(page: Any, action_type: str) -> Any:
    form = page.locator(f'#desk form[data-type="{action_type}"]')
    if form.count() == 0 and action_type in SESSION_TYPES:
        panel = page.locator("#session-controls")
        if not panel.evaluate("d => d.open"):
            panel.locator("summary").click()
        form.first.wait_for()
    return form.first


def play(page: Any, action: Mapping[str, Any], ids: Mapping[str, str]) -> int:
    """Tap the controls of `action`; return the HTTP status of the answer."""
    action_type = str(action["type"])
    form = control(page, action_type)
    params = {k: v for k, v in action.items() if k not in ("type", "actor", "expect_error")}
    actor = who(action.get("actor", "croupier"), ids)
    try:
        with page.expect_response(lambda r: r.request.method == "POST") as answer:
            _submit(page, form, actor, params, ids)
    except Exception:
        from tests.e2e.conftest import screenshot

        screenshot(page, f"failed-{action_type}")  # what the croupier saw
        raise
    status: int = answer.value.status
    settled(page)
    return status


def _submit(
    page: Any, form: Any, actor: str, params: Mapping[str, Any], ids: Mapping[str, str]
) -> None:
    simple = "simple" in (form.get_attribute("class") or "")
    if simple:
        _tap(page, form.locator(f'button[name="actor"][value="{actor}"]'))
        return
    radio = form.locator(f'input[type="radio"][name="actor"][value="{actor}"]')
    if radio.count():
        radio.check()
    final: Any = None
    for name, value in params.items():
        if name == "claims":
            final = _claims(page, form, value, ids)
        elif name in ("ponte", "banker"):
            continue
        elif name == "rank":
            # The table's one keypad sends the rank with the armed control: touch it first.
            if "armed" not in (form.get_attribute("class") or ""):
                form.locator(".label").click()
            final = page.locator(f'#keypad button[data-rank="{value}"]')
        elif isinstance(value, bool):
            final = form.locator(f'button[name="{name}"][value="{"yes" if value else "no"}"]')
        else:
            text = who(value, ids) if name in ("player", "to", "seat", "cut_by") else str(value)
            button = form.locator(f'button[name="{name}"][value="{text}"]')
            radio = form.locator(f'input[type="radio"][name="{name}"][value="{text}"]')
            typed = form.locator(f'input[name="{name}__typed"]')
            if button.count():
                final = button
            elif radio.count():
                radio.check()
            elif typed.count():
                typed.fill(text)
            else:
                form.locator(f'input[name="{name}"]').fill(text)
                final = final or form.locator("button.ok")
    if "ponte" in params:
        order = [params["ponte"][0], params["banker"][0], params["ponte"][1], params["banker"][1]]
        for rank in order[:-1]:
            # As a finger: two cards of one rank are two taps on one key (console.js drops a
            # second tap there right after a redraw, as a double tap).
            _tap(page, page.locator(f'#keypad button[data-rank="{rank}"]'))
        final = page.locator(f'#keypad button[data-rank="{order[-1]}"]')
    _tap(page, final if final is not None else form.locator("button").first)


def _claims(page: Any, form: Any, claims: list[Mapping[str, Any]], ids: Mapping[str, str]) -> Any:
    """Chemin de fer's banco call: « Qui ponte ? », one claim by its own button, or several
    (the claims table, drawn once, belongs to the « Banco » form)."""
    if not claims:
        return form.locator('button[data-key="q"]')
    table = page.locator("#table-claims")
    for claim in claims:
        if "amount" in claim:
            table.locator(f'input[name="claim_amount_{who(claim["player"], ids)}"]').fill(
                str(claim["amount"])
            )
    if len(claims) == 1:
        value = f"{who(claims[0]['player'], ids)}:{claims[0]['kind']}"
        return table.locator(f'button[name="claim"][value="{value}"]')
    for claim in claims:
        value = f"{who(claim['player'], ids)}:{claim['kind']}"
        table.locator(f'select:has(option[value="{value}"])').select_option(value)
    return table.locator('button[name="claims_together"]')


def payouts(page: Any, coup: int) -> dict[str, int]:
    """The results the coups panel shows for coup `coup`, by owner."""
    lines = page.locator(f'#coup-list [data-coup="{coup}"] li[data-who]')
    return {
        lines.nth(i).get_attribute("data-who"): int(lines.nth(i).get_attribute("data-amount"))
        for i in range(lines.count())
    }


def open_table(page: Any, number: int) -> None:
    page.goto("/")
    page.get_by_role("link", name=f"Table {number}", exact=False).first.click()
    page.locator("#desk").wait_for()


def demo_ids(seated: int, standing: tuple[str, ...] = (), first: int = 1) -> dict[str, str]:
    """Scenario ids S1…Sn (seat n) and standing ids, to the demo's member numbers."""
    ids = {f"S{n}": f"DEMO-{first + n - 1:04d}" for n in range(1, seated + 1)}
    for offset, name in enumerate(standing):
        ids[name] = f"DEMO-{first + seated + offset:04d}"
    return ids


def expected_results(results: Mapping[str, int], ids: Mapping[str, str]) -> dict[str, int]:
    """A scenario's coup results with its ids turned into the demo's member numbers."""
    out = {}
    for owner, amount in results.items():
        if owner.startswith("reliquat:"):
            owner = f"reliquat:{ids.get(owner[9:], owner[9:])}"
        out[ids.get(owner, owner)] = amount
    return out
