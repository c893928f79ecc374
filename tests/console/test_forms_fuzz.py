"""Every form of the screens fuzzed with Hypothesis: no post is ever a 500, and a refused post
changes nothing.

The screens are every URL of the console, the floor, the reception, the staff and house
screens, the reports and the registers (their `urls.py`), each path parameter filled with an
object that exists (a table session with a settled coup and a pending void request, its night,
a player, a member of staff, a report). Each is posted fields named as the screens' forms name
them (every `forms.Form` those screens use), with values that are random text, unicode, huge and
negative numbers, empty, lists, ids that exist and ids that do not, some fields missing — by a
member of staff holding every role, through a client that checks CSRF as a browser's request is
checked (the token from the cookie, in htmx's header), half of them as htmx.

A post answered 4xx must leave the audit log, the books and the journal as they were
(docs/conventions.md, rule 7: every change writes an audit row). Marked `slow`.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from django import forms
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils import timezone
from hypothesis import HealthCheck, given, settings, strategies as st

from establishment.models import AuditEntry
from establishment.roles import Role
from ledger.models import Entry
from tables.models import Coup, TableEvent
from tables.services import void_request
from tests.api.fixtures import open_table
from tests.api.test_play import COUP, play
from tests.factories import UserFactory
from tests.ledger.test_settlement import SESSION_SCENARIOS, close_night, play_night

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

NAMESPACES = ("console", "reception", "staff", "house", "reports", "registers")
EXAMPLES_PER_SCREEN = 12


def _screens() -> list[tuple[str, str, tuple[str, ...]]]:
    """(namespace:name, route, its parameters) of every URL of the screens."""
    found: list[tuple[str, str, tuple[str, ...]]] = []

    def walk(patterns: list[Any], prefix: str, namespace: str | None) -> None:
        for pattern in patterns:
            route = prefix + str(pattern.pattern)
            if isinstance(pattern, URLResolver):
                walk(pattern.url_patterns, route, pattern.namespace or namespace)
            elif isinstance(pattern, URLPattern) and namespace in NAMESPACES and pattern.name:
                converters = tuple(pattern.pattern.converters)
                found.append((f"{namespace}:{pattern.name}", route, converters))

    walk(get_resolver().url_patterns, "/", None)
    return found


def _field_names() -> list[str]:
    """Every field name of the forms the screens use (imported with their URLs)."""
    get_resolver().url_patterns  # noqa: B018 - imports every view and its forms

    def subclasses(cls: type) -> Iterator[type]:
        for sub in cls.__subclasses__():
            yield sub
            yield from subclasses(sub)

    names = {
        name
        for form in subclasses(forms.Form)
        if form.__module__.split(".")[0] in ("tables", "establishment", "reports")
        for name in getattr(form, "base_fields", {})
    }
    # The action form's parameters are made from the engine's specs at request time.
    names |= {"amount", "player", "seat", "cards", "ponte", "banker", "cut_by", "claims"}
    return sorted(names)


def _known(capture: Any) -> dict[str, str]:
    # A night played, closed and settled (its report is the worker's), then a table open in the
    # next one with a settled coup and a pending void request.
    night = play_night(SESSION_SCENARIOS[:1])
    report = close_night(night, capture)
    table = open_table(number=21)
    play(_api(table.croupier), table, COUP)
    coup = Coup.objects.get(table_session=table.table_session)
    asked = void_request(coup=coup, user=table.croupier, reason="fuzz")
    closed = timezone.localtime(night.gaming_session.closed_at)
    seated = table.table_session.seat_occupancies.select_related("player").first()
    assert seated is not None
    return {
        "table_session": str(table.table_session.public_id),
        "session": str(table.gaming_session.public_id),
        "gaming_session": str(table.gaming_session.public_id),
        "table": str(table.table_session.table.public_id),
        "void": str(asked.public_id),
        "player": str(seated.player.public_id),
        "report": str(report.public_id),
        "public_id": str(report.public_id),
        "username": table.croupier.username,
        "member": seated.player.member_number,
        "name": "players.csv",
        "day": closed.date().isoformat(),
        "key": closed.date().isoformat(),
        "month": closed.strftime("%Y-%m"),
        "kind": "pdf",
        "entry": str(uuid.uuid4()),
    }


def _api(user: Any) -> Any:
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
    return client


def _values(known: dict[str, str]) -> st.SearchStrategy[Any]:
    one = st.one_of(
        st.text(max_size=60),
        st.text(alphabet=st.characters(codec="utf-8"), max_size=20),
        st.integers(min_value=-(10**40), max_value=10**40).map(str),
        st.integers(min_value=-3, max_value=40).map(str),
        st.floats(allow_nan=True, allow_infinity=True).map(str),
        st.sampled_from(["", " ", "true", "false", "on", "0", "1", "null", "[]", "{}", "é"]),
        st.sampled_from(sorted(set(known.values()))),
        st.uuids().map(str),
    )
    return st.one_of(one, st.lists(one, max_size=3))


def _url(route: str, parameters: tuple[str, ...], known: dict[str, str]) -> str:
    url = route.lstrip("^").rstrip("$")
    for name in parameters:
        url = url.replace(f"<uuid:{name}>", known.get(name, str(uuid.uuid4())))
        url = url.replace(f"<str:{name}>", known.get(name, "x"))
    return url


def _counts() -> tuple[int, int, int]:
    return AuditEntry.objects.count(), Entry.objects.count(), TableEvent.objects.count()


def test_no_form_post_is_a_server_error_and_a_refused_one_changes_nothing(
    django_capture_on_commit_callbacks: Any,
) -> None:
    user = UserFactory.create(roles=list(Role))
    client = Client(enforce_csrf_checks=True, raise_request_exception=False)
    client.force_login(user)
    assert client.get("/console/floor/").status_code == 200
    csrf = client.cookies["csrftoken"].value
    known = _known(django_capture_on_commit_callbacks)
    names = _field_names()
    screens = _screens()
    assert len(screens) >= 60, screens
    posted: dict[str, set[int]] = {}

    def fuzz(screen: str, url: str) -> None:
        @given(
            data=st.dictionaries(st.sampled_from(names), _values(known), max_size=8),
            htmx=st.booleans(),
        )
        @settings(
            max_examples=EXAMPLES_PER_SCREEN,
            deadline=None,
            derandomize=True,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        def post(data: dict[str, Any], htmx: bool) -> None:
            before = _counts()
            headers = {"X-CSRFToken": csrf, **({"HX-Request": "true"} if htmx else {})}
            response = client.post(url, data, headers=headers)
            assert response.status_code < 500, (screen, url, data, response.content[:500])
            if response.status_code >= 400:
                assert _counts() == before, (screen, url, data, response.status_code)
            posted.setdefault(screen, set()).add(response.status_code)

        post()

    for screen, route, parameters in screens:
        fuzz(screen, _url(route, parameters, known))

    assert set(posted) == {screen for screen, _route, _parameters in screens}
    # The forms were reached: some posts were refused in place, some went through.
    statuses = set().union(*posted.values())
    assert 422 in statuses or 400 in statuses, statuses
    assert any(status < 400 for status in statuses), statuses
