"""The console's views: page or partial, status codes, CSRF, permissions, corrections.

Posts carry what the screen carries: the expected sequence number and the idempotency key of
the control, read back from the rendered page as a browser would.
"""

from __future__ import annotations

import gzip
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from establishment.models import StaffPreference
from establishment.roles import Role
from tables.models import Coup, TableEvent, VoidDecision
from tests.console.conftest import Floor
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}


def table_url(floor: Floor, name: str = "table") -> str:
    return reverse(f"console:{name}", kwargs={"table_session": floor.table_session.public_id})


def screen_fields(body: str, action_type: str | None = None) -> dict[str, Any]:
    """What the drawn screen would post: its meta (the sequence, the idempotency key, the
    digests of what it shows); with `action_type`, checks the action is offered."""
    meta = body[body.index('id="screen-meta"') :]
    fields: dict[str, Any] = dict(
        re.findall(r'name="(\w+)" value="([^"]*)"', meta[: meta.index("</div>")])
    )
    if action_type is not None:
        assert f'data-type="{action_type}"' in body, f"{action_type} is not offered"
    return fields


def post_action(client: Client, floor: Floor, action_type: str, body: str, **params: Any) -> Any:
    data = {**screen_fields(body, action_type), "type": action_type, **params}
    return client.post(table_url(floor, "record"), data, headers=HX)


def ask_void(client: Client, floor: Floor, page: str, reason: str) -> Any:
    """Ask for a void of the last coup the drawn screen `page` shows."""
    data = {**screen_fields(page), "reason": reason}
    return client.post(table_url(floor, "void-request"), data, headers=HX)


def approve_void(client: Client, void: Any) -> Any:
    return client.post(
        reverse("console:void-decide", kwargs={"void": void.public_id}),
        {"approve": "yes", "password": "password"},
        headers=HX,
    )


def events(floor: Floor) -> int:
    return TableEvent.objects.filter(table_session=floor.table_session).count()


def test_full_page_without_htmx_and_screen_partial_with_it(
    floor: Floor, croupier_client: Client
) -> None:
    page = croupier_client.get(table_url(floor))
    partial = croupier_client.get(table_url(floor), headers=HX)

    assert page.status_code == partial.status_code == 200
    assert "<html" in page.content.decode()
    body = partial.content.decode()
    assert "<html" not in body
    assert 'id="table-actions"' in body and 'id="table-sabot"' in body
    assert "Nouveau sabot" in body  # chemin de fer's first action, in the table's words


def test_an_answer_is_compressed_for_a_browser_that_accepts_it(
    floor: Floor, croupier_client: Client
) -> None:
    """The same answer, gzip on the wire when asked (every browser asks), plain otherwise."""
    body = croupier_client.get(table_url(floor)).content.decode()
    data = {**screen_fields(body, "new_shoe"), "type": "new_shoe", "actor": "croupier"}
    data["cut_by"] = "1"
    zipped = croupier_client.post(
        table_url(floor, "record"), data, headers={**HX, "Accept-Encoding": "gzip, br"}
    )

    assert zipped.status_code == 200
    assert zipped["Content-Encoding"] == "gzip" and "Accept-Encoding" in zipped["Vary"]
    html = gzip.decompress(zipped.content)
    assert b'id="table-actions"' in html
    assert len(zipped.content) < len(html) / 2
    page = croupier_client.get(table_url(floor))
    assert not page.has_header("Content-Encoding")  # not asked: not compressed


def test_recorded_action_swaps_only_what_changed(floor: Floor, croupier_client: Client) -> None:
    body = croupier_client.get(table_url(floor)).content.decode()
    before = events(floor)

    response = post_action(croupier_client, floor, "new_shoe", body, actor="croupier", cut_by=1)

    assert response.status_code == 200
    answer = response.content.decode()
    assert events(floor) == before + 1
    assert answer.startswith('<div hx-swap-oob="true" id="screen-meta"')
    assert 'hx-swap-oob="true" id="table-sabot"' in answer  # the shoe is now cut
    assert 'hx-swap-oob="true" id="table-counts"' in answer
    assert 'hx-swap-oob="true" id="table-actions"' in answer  # announce the bank, now
    assert 'id="table-seats"' not in answer  # nobody moved
    assert 'id="coup-list"' not in answer and 'id="table-claims"' not in answer
    assert "<html" not in answer


def test_rule_refusal_is_a_422_partial_in_place_and_changes_nothing(
    floor: Floor, croupier_client: Client
) -> None:
    body = croupier_client.get(table_url(floor)).content.decode()
    post_action(croupier_client, floor, "new_shoe", body, actor="croupier", cut_by=1)
    body = croupier_client.get(table_url(floor)).content.decode()
    before = events(floor)

    response = post_action(croupier_client, floor, "announce_bank", body, actor="1", amount=5)

    assert response.status_code == 422
    answer = response.content.decode()
    assert 'role="alert"' in answer and 'data-type="announce_bank"' in answer
    # Nothing else changed: the meta (a fresh key) and the action panel with the refusal.
    assert re.findall(r'hx-swap-oob="true" id="([\w-]+)"', answer) == [
        "screen-meta",
        "table-actions",
    ]
    assert events(floor) == before


def test_malformed_post_is_a_422(floor: Floor, croupier_client: Client) -> None:
    body = croupier_client.get(table_url(floor)).content.decode()
    response = post_action(croupier_client, floor, "new_shoe", body, actor="croupier", cut_by="x")
    assert response.status_code == 422
    assert "cut_by" in response.content.decode()


def test_stale_screen_is_a_409_with_the_table_redrawn(
    floor: Floor, croupier_client: Client
) -> None:
    body = croupier_client.get(table_url(floor)).content.decode()
    post_action(croupier_client, floor, "new_shoe", body, actor="croupier", cut_by=1)
    second = Client()
    second.force_login(floor.inspector)
    stale = second.post(
        table_url(floor, "record"),
        {**screen_fields(body, "new_shoe"), "type": "new_shoe", "actor": "croupier", "cut_by": 1},
        headers=HX,
    )
    # Same key, same action: the earlier answer (booked once), not a conflict.
    assert stale.status_code == 200
    other = second.post(
        table_url(floor, "record"),
        {**screen_fields(body), "key": "another-key", "type": "sit", "actor": "croupier"}
        | {"player": "Z", "seat": 9},
        headers=HX,
    )
    assert other.status_code == 409
    answer = other.content.decode()
    assert 'data-testid="notice"' in answer
    assert 'hx-swap-oob="true" id="table-seats"' in answer  # everything redrawn


def test_double_submit_books_once(floor: Floor, croupier_client: Client) -> None:
    body = croupier_client.get(table_url(floor)).content.decode()
    before = events(floor)
    first = post_action(croupier_client, floor, "new_shoe", body, actor="croupier", cut_by=1)
    again = post_action(croupier_client, floor, "new_shoe", body, actor="croupier", cut_by=1)
    assert first.status_code == again.status_code == 200
    assert events(floor) == before + 1


def test_csrf_is_enforced_and_the_htmx_header_passes(floor: Floor) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(floor.croupier)
    body = client.get(table_url(floor)).content.decode()
    data = {**screen_fields(body, "new_shoe"), "type": "new_shoe", "actor": "croupier"}
    data["cut_by"] = 1

    refused = client.post(table_url(floor, "record"), data, headers=HX)
    token = re.search(r'"x-csrftoken": "([^"]+)"', body)
    assert token
    accepted = client.post(
        table_url(floor, "record"), data, headers=HX | {"X-CSRFToken": token.group(1)}
    )

    assert refused.status_code == 403
    assert accepted.status_code == 200


@pytest.mark.parametrize("who", ["other_croupier", "changeur"])
def test_who_is_not_at_this_table_gets_403(floor: Floor, who: str) -> None:
    client = Client()
    client.force_login(getattr(floor, who))
    assert client.get(table_url(floor)).status_code == 403
    assert client.post(table_url(floor, "record"), {}, headers=HX).status_code == 403


def test_unknown_table_is_404_and_get_on_a_post_url_is_405(
    floor: Floor, croupier_client: Client
) -> None:
    missing = reverse("console:table", kwargs={"table_session": _uuid()})
    assert croupier_client.get(missing).status_code == 404
    assert croupier_client.get(table_url(floor, "record")).status_code == 405


def _uuid() -> str:
    return "00000000-0000-4000-8000-000000000000"


def test_auditor_reads_but_cannot_record(floor: Floor) -> None:
    client = Client()
    client.force_login(floor.auditor)
    page = client.get(table_url(floor)).content.decode()
    assert "Nouveau sabot" not in page  # no controls
    data = {"type": "new_shoe", "actor": "croupier", "cut_by": 1, "expected_seq": 2, "key": "k"}
    response = client.post(table_url(floor, "record"), data, headers=HX)
    assert response.status_code == 403


def test_anonymous_is_sent_to_login(floor: Floor) -> None:
    response = Client().get(table_url(floor))
    assert response.status_code == 302
    assert reverse("login") in response["Location"]


def test_undo_sets_the_last_action_aside(floor: Floor, croupier_client: Client) -> None:
    body = croupier_client.get(table_url(floor)).content.decode()
    post_action(croupier_client, floor, "new_shoe", body, actor="croupier", cut_by=1)
    body = croupier_client.get(table_url(floor)).content.decode()
    assert 'hx-post="undo/"' in body

    response = croupier_client.post(table_url(floor, "undo"), screen_fields(body), headers=HX)

    assert response.status_code == 200
    assert 'data-type="new_shoe"' in response.content.decode()  # the shoe is to be cut again


# CF-X1's first coup up to the banker's word: banco by seat 3, the ponte draws his third card.
CF_X1_TO_THE_BANKER: list[tuple[str, dict[str, Any]]] = [
    ("new_shoe", {"actor": "croupier", "cut_by": 1}),
    ("announce_bank", {"actor": "1", "amount": 1000}),
    ("banco_call", {"actor": "croupier", "claim": "3:banco"}),
    ("deal", {"actor": "croupier", "ponte": ["7", "8"], "banker": ["K", "6"]}),
    ("ponte_draw", {"actor": "3"}),
    ("ponte_third_card", {"actor": "croupier", "rank": "9"}),
]


def _play_one_coup(client: Client, floor: Floor) -> None:
    """CF-X1's first coup: banco by seat 3, the ponte draws, the banker stands; reliquat."""
    steps = [
        *CF_X1_TO_THE_BANKER,
        ("banker_stand", {"actor": "1"}),
        ("continue_bank", {"actor": "1", "reliquat": 450}),
    ]
    for action_type, params in steps:
        body = client.get(table_url(floor)).content.decode()
        response = post_action(client, floor, action_type, body, **params)
        assert response.status_code == 200, response.content.decode()


def test_a_coup_shows_its_payouts_then_a_void_is_approved_by_an_inspector(
    floor: Floor, croupier_client: Client
) -> None:
    _play_one_coup(croupier_client, floor)
    coup = Coup.objects.get(table_session=floor.table_session)
    page = croupier_client.get(table_url(floor)).content.decode()
    # CF-X1: the banker wins 1000 less the 5 % cagnotte; the reliquat is set aside afterwards.
    assert "1 · Player S1 <b>+950</b>" in page and "3 · Player S3 <b>-1\u202f000</b>" in page
    assert "cagnotte <b>+50</b>" in page

    asked = ask_void(croupier_client, floor, page, "wrong third card recorded")
    assert asked.status_code == 200
    inspector = Client()
    inspector.force_login(floor.inspector)
    floor_page = inspector.get(reverse("console:floor")).content.decode()
    assert "wrong third card recorded" in floor_page
    void = coup.void_requests.get()
    decided = approve_void(inspector, void)
    assert decided.status_code == 200
    assert VoidDecision.objects.get(request=void).approved


def test_the_requester_cannot_decide_his_own_void(floor: Floor, croupier_client: Client) -> None:
    _play_one_coup(croupier_client, floor)
    coup = Coup.objects.get(table_session=floor.table_session)
    inspector = Client()
    inspector.force_login(floor.inspector)
    page = inspector.get(table_url(floor)).content.decode()
    ask_void(inspector, floor, page, "asked by the inspector")
    void = coup.void_requests.get()
    response = approve_void(inspector, void)
    assert response.status_code == 422
    assert not VoidDecision.objects.filter(request=void).exists()


def test_floor_is_for_inspectors_and_polls(floor: Floor, croupier_client: Client) -> None:
    inspector = Client()
    inspector.force_login(floor.inspector)
    page = inspector.get(reverse("console:floor"))
    partial = inspector.get(reverse("console:floor"), headers=HX)

    assert page.status_code == 200 and "<html" in page.content.decode()
    assert partial.status_code == 200 and "<html" not in partial.content.decode()
    assert 'hx-trigger="every 3s' in partial.content.decode()
    assert croupier_client.get(reverse("console:floor")).status_code == 403


def test_inspector_interrupts_and_resumes_a_table(floor: Floor) -> None:
    inspector = Client()
    inspector.force_login(floor.inspector)
    page = inspector.get(reverse("console:floor")).content.decode()
    seq = re.search(rf'{floor.table_session.public_id}/interrupt/".*?value="(\d+)"', page, re.S)
    assert seq
    response = inspector.post(
        table_url(floor, "interrupt"),
        {"expected_seq": seq.group(1), "key": "pause-1"},
        headers=HX,
    )
    assert response.status_code == 200
    assert "Resume play" in response.content.decode()


def test_croupier_cannot_interrupt(floor: Floor, croupier_client: Client) -> None:
    response = croupier_client.post(
        table_url(floor, "interrupt"), {"expected_seq": 2, "key": "k"}, headers=HX
    )
    assert response.status_code == 403


def test_home_sends_each_role_to_its_screen(floor: Floor, croupier_client: Client) -> None:
    home = croupier_client.get(reverse("home")).content.decode()
    assert table_url(floor) in home
    assert str(floor.other_session.public_id) not in home
    inspector = Client()
    inspector.force_login(floor.inspector)
    assert inspector.get(reverse("home"))["Location"] == reverse("console:floor")
    auditor = Client()
    auditor.force_login(UserFactory.create(roles=[Role.AUDITOR]))
    assert auditor.get(reverse("home"))["Location"] == reverse("audit:index")


def test_language_is_chosen_per_user(floor: Floor, croupier_client: Client) -> None:
    response = croupier_client.post(reverse("console:language"), {"language": "fr", "next": "/"})
    assert response.status_code == 302
    assert StaffPreference.objects.get(user=floor.croupier).language == "fr"
    page = croupier_client.get(table_url(floor)).content.decode()
    assert '<html lang="fr">' in page
    assert "Nouveau sabot" in page  # the game's words stay French in both languages
    assert "Places" in page and "Derniers coups" in page  # the rest is in French
    other = Client()
    other.force_login(floor.inspector)
    assert '<html lang="en">' in other.get(table_url(floor)).content.decode()


def test_poll_is_204_until_the_table_moves_then_sends_what_changed(
    floor: Floor, croupier_client: Client
) -> None:
    body = croupier_client.get(table_url(floor)).content.decode()
    fields = screen_fields(body)

    still = croupier_client.get(table_url(floor, "poll"), fields, headers=HX)
    assert still.status_code == 204

    other = Client()
    other.force_login(floor.inspector)
    page = other.get(table_url(floor)).content.decode()
    post_action(other, floor, "new_shoe", page, actor="croupier", cut_by=1)
    moved = croupier_client.get(table_url(floor, "poll"), fields, headers=HX)

    assert moved.status_code == 200
    answer = moved.content.decode()
    assert 'hx-swap-oob="true" id="table-sabot"' in answer
    assert 'id="table-seats"' not in answer  # only what changed
    assert f'name="expected_seq" value="{int(fields["expected_seq"]) + 1}"' in answer


def test_a_region_the_screen_keeps_is_sent_as_a_stub(floor: Floor, croupier_client: Client) -> None:
    body = croupier_client.get(table_url(floor)).content.decode()
    post_action(croupier_client, floor, "new_shoe", body, actor="croupier", cut_by=1)
    body = croupier_client.get(table_url(floor)).content.decode()
    after = croupier_client.post(
        table_url(floor, "record"),
        {**screen_fields(body, "announce_bank"), "type": "announce_bank", "actor": "1"}
        | {"amount": 1000},
        headers=HX,
    ).content.decode()
    actions = re.search(r'(<div hx-swap-oob="true" id="table-actions">.*?</form></div>)', after)
    assert actions
    digest = re.findall(r'name="screen" value="([^"]*)"', after)[0].split()[5]

    # The same panel again (undo, then the same action) while the screen keeps that digest.
    undone = croupier_client.post(
        table_url(floor, "undo"), screen_fields(after), headers=HX
    ).content.decode()
    again = croupier_client.post(
        table_url(floor, "record"),
        {**screen_fields(undone), "type": "announce_bank", "actor": "1", "amount": 1000}
        | {"cached": f"{digest} ffffff"},
        headers=HX,
    ).content.decode()

    assert f'<div id="table-actions" hx-swap-oob="true" data-cached="{digest}"></div>' in again
    assert "data-type=" not in again


def test_a_settled_coup_arrives_as_its_own_row(floor: Floor, croupier_client: Client) -> None:
    body = croupier_client.get(table_url(floor)).content.decode()
    for action_type, params in CF_X1_TO_THE_BANKER:
        body = post_action(croupier_client, floor, action_type, body, **params).content.decode()
        assert 'id="coup-list"' not in body

    settled = post_action(croupier_client, floor, "banker_stand", body, actor="1")

    answer = settled.content.decode()
    assert '<div hx-swap-oob="afterbegin:#coup-list"><article id="coup-' in answer
    assert 'data-coup="1"' in answer
    assert "Coup 1" in answer and 'id="coup-list"' not in answer  # the row, not the list


def test_the_next_step_is_said_in_the_users_language(floor: Floor, croupier_client: Client) -> None:
    english = croupier_client.get(table_url(floor)).content.decode()
    StaffPreference.objects.create(user=floor.croupier, language="fr")
    french = croupier_client.get(table_url(floor)).content.decode()

    assert "Seat 1 cuts a new shoe" in english
    assert "La place 1 coupe un nouveau sabot" in french


def test_a_valid_action_from_a_croupier_of_another_table_is_403_and_shows_nothing(
    floor: Floor, croupier_client: Client
) -> None:
    """A valid form goes straight to the service (the table is not read first): the service's
    refusal must not draw the table's screen for someone who may not see it."""
    body = croupier_client.get(table_url(floor)).content.decode()
    other = Client()
    other.force_login(floor.other_croupier)
    before = events(floor)
    data = {**screen_fields(body, "new_shoe"), "type": "new_shoe", "actor": "croupier", "cut_by": 1}
    refused = other.post(table_url(floor, "record"), data, headers=HX)

    assert refused.status_code == 403
    assert 'id="screen-meta"' not in refused.content.decode()
    assert "Seat" not in refused.content.decode() and "S1" not in refused.content.decode()
    assert events(floor) == before


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_a_recorded_action_costs_a_fixed_number_of_statements(
    floor: Floor, croupier_client: Client
) -> None:
    """Session, user with roles and language, the table locked and read, the journal's head,
    the journal line with its audit row (one statement), the last coups: six statements for
    the post and its answer (docs/conventions.md, P2); the cagnotte comes from the
    replay (and, once per table session, what earlier sessions of the table booked). Transactional:
    the journal this process cached when the action committed is what the answer is drawn from
    (PostgreSQL only: SQLite's append-only triggers refuse the flush between transactional
    tests)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    body = croupier_client.get(table_url(floor)).content.decode()
    shoe = post_action(croupier_client, floor, "new_shoe", body, actor="croupier", cut_by=1)
    assert shoe.status_code == 200
    data = {
        **screen_fields(shoe.content.decode()),
        "type": "announce_bank",
        "actor": "1",
        "amount": 1000,
    }
    with CaptureQueriesContext(connection) as captured:
        answer = croupier_client.post(table_url(floor, "record"), data, headers=HX)

    assert answer.status_code == 200
    statements = [
        q["sql"]
        for q in captured.captured_queries
        if q["sql"].split()[0].upper() not in ("SAVEPOINT", "RELEASE", "BEGIN", "COMMIT")
    ]
    assert len(statements) == 6, "\n".join(statements)
