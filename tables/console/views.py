"""The croupier console's table screen: one URL per action, serving the page or its swapped parts
(htmx), and the recording of an action.

Every view parses its form, calls one service or selector, and renders (docs/conventions.md,
rule 1); the floor's views are in `tables/console/floor.py`, the corrections (undo, voids) in
`tables/console/corrections.py`. Refusals come back through the one mapping
(`establishment.http.console`): a rule refused is a 422 partial in place, a stale screen a 409
with the table redrawn and a notice, 403/404 what the user may not do or see.

Only the parts of the table screen that changed are sent back (under 2 KB an action, whatever
the length of the session): every region is rendered, its digest compared with the digest the
screen posted (`screen`), and only the differing regions go out, as out-of-band swaps, with the
screen's meta (the next sequence number, a fresh idempotency key, the digests). A settled coup
arrives as its own row, prepended to the last coups.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from typing import TYPE_CHECKING, Any
from uuid import UUID

from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.template.context import make_context
from django.template.loader import get_template
from django.urls import reverse
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRefresh, trigger_client_event

from establishment.errors import DomainError, PermissionDeniedError
from establishment.http.console import (
    Problem,
    client_of,
    console_view,
    form_problem,
    page_or_part,
    staff_of,
)
from establishment.http.errors import error_body
from establishment.models import Player
from tables.console import regions as regions_cache
from tables.console.access import (
    is_inspector,
    may_record,
    on_duty_remember,
    table_session_get,
    table_session_reference,
)
from tables.console.forms import ActionForm, stock_number_of
from tables.console.screen import RECENT_COUPS, STOCK_PARAM, new_key, screen_build
from tables.engine import game_get
from tables.models import AssignmentRole, TableSession
from tables.selectors import (
    duty_period_list,
    recent_coup_list,
    relief_get,
    staff_free_list,
    table_state_get,
    void_request_pending_list,
)
from tables.services import ReasonedWriter, Recorded, record
from tables.services.journal import last_seq_get
from tables.words import say

if TYPE_CHECKING:
    from establishment.http.console import ConsoleRequest

TABLE = "console/table.html"
# The swappable regions of the table screen (element id `table-<name>`); the coups are rows of
# their own (`coup-<settled seq>`, named `c<settled seq>` among the digests).
REGIONS = (
    "state",
    "facts",
    "cards",
    "sabot",
    "counts",
    "actions",
    "claims",
    "seats",
    "stakes",
    "voids",
)

_FIRST_TAG = re.compile(r"^\s*<([a-z]+)")


def _digest(html: str) -> str:
    return hashlib.blake2b(html.encode(), digest_size=3).hexdigest()


def _posted(request: ConsoleRequest) -> Any:
    return request.POST if request.method == "POST" else request.GET


def _digests_text(digests: dict[str, str]) -> str:
    """What the meta carries: the regions' digests in `REGIONS` order, then `c<seq>:digest`
    for each coup row shown."""
    regions = [digests[name] for name in REGIONS]
    rows = [f"{name}:{digest}" for name, digest in digests.items() if _is_row(name)]
    return " ".join(regions + rows)


def _sent_digests(request: ConsoleRequest) -> dict[str, str] | None:
    """The digests of what the screen showed when it posted (see `_digests_text`), or None
    when it did not say (then everything is sent)."""
    raw = _posted(request).get("screen")
    if raw is None:
        return None
    items = str(raw).split()
    sent = dict(zip(REGIONS, (item for item in items if ":" not in item), strict=False))
    pairs = (item.partition(":") for item in items if ":" in item)
    return sent | {name: digest for name, _sep, digest in pairs if _is_row(name)}


def _oob(html: str, how: str = "true") -> str:
    """Mark a rendered region (one element with an id) as an out-of-band swap."""
    return _FIRST_TAG.sub(rf'<\1 hx-swap-oob="{how}"', html, count=1)


# -- the table screen ------------------------------------------------------------------------


@dataclass
class Drawn:
    """The table screen rendered region by region, with the digest of each part."""

    context: dict[str, Any]
    regions: dict[str, SafeString]
    rows: list[tuple[str, SafeString]]  # ("c<settled seq>", html), newest first
    digests: dict[str, str]
    meta: SafeString


def _draw(
    request: ConsoleRequest,
    table_session: TableSession,
    *,
    problem: Problem | None = None,
    notice: str = "",
    recorded: Recorded | None = None,
) -> Drawn:
    """Every region of the table screen and its last coups, rendered once, and the meta.

    `recorded` is what this request has just recorded: then the last sequence number is known,
    and the pending voids are read only when one of the last coups has one (a void is asked
    of the last coup; the screen's poll compares the count and redraws if one was missed).
    """
    seq = recorded.seq if recorded is not None else None
    state = table_state_get(table_session=table_session, last_seq=seq)
    if problem is not None and problem.params is not None:
        message = say(problem.code, problem.params, state.players, game=table_session.game)
        problem = replace(problem, message=message)
    coups = recent_coup_list(table_session=table_session, limit=RECENT_COUPS)
    recorder = may_record(request.user, table_session)
    voids_known_none = recorded is not None and not any(
        getattr(coup, "void_pending", True) for coup in coups
    )
    screen = screen_build(state, coups=coups, may_record=recorder)
    context: dict[str, Any] = {
        "screen": screen,
        # A refusal is shown at its control when the action panel draws one for it; else above
        # the panel (a seat or session action, whose panel is drawn on demand; the door's).
        "problem_above": problem is not None
        and problem.type not in {control.type for control in screen.controls},
        "table_session": table_session,
        "table": table_session.table,
        "may_record": recorder,
        "inspector": is_inspector(request.user),
        "pending_voids": []
        if voids_known_none
        else list(void_request_pending_list().filter(coup__table_session=table_session)),
        "problem": problem,
        "notice": notice,
    }
    # One template context for every part (the context processors run once, not per part).
    # A region whose inputs were drawn before (in this language) is not drawn again.
    with _Parts(context, request) as part:
        regions = {name: _region(part, name, context) for name in REGIONS}
        rows = [
            (
                f"c{row.coup.settled_seq}",
                regions_cache.rendered.get_or_render(
                    "coup-row", regions_cache.row_inputs(row), partial(part, "coup-row", row=row)
                ),
            )
            for row in context["screen"].coups
        ]
        digests = {name: _digest(html) for name, html in regions.items()}
        digests |= {name: _digest(html) for name, html in rows}
        context |= {"key": new_key(), "digests": _digests_text(digests)}
        meta = part("screen-meta", key=context["key"], digests=context["digests"])
    return Drawn(context, regions, rows, digests, meta)


def _region(part: Callable[..., SafeString], name: str, context: dict[str, Any]) -> SafeString:
    inputs = regions_cache.INPUTS[name]
    draw = partial(part, f"table-{name}")
    if inputs is None:
        return draw()
    return regions_cache.rendered.get_or_render(name, inputs(context), draw)


class _Parts:
    """Render the named partials of the table screen in one request context: the context
    processors run once for all the parts (they ran once per part, fifteen times an action)."""

    def __init__(self, context: dict[str, Any], request: ConsoleRequest) -> None:
        self.context = make_context(context, request)
        self.page = get_template(TABLE).template  # type: ignore[attr-defined]
        self.bound: Any = None

    def __enter__(self) -> Callable[..., SafeString]:
        self.bound = self.context.bind_template(self.page)
        self.bound.__enter__()
        return self.render

    def __exit__(self, *exc: Any) -> None:
        self.bound.__exit__(*exc)

    def render(self, name: str, **extra: Any) -> SafeString:
        partial = get_template(f"{TABLE}#{name}").template  # type: ignore[attr-defined]
        with self.context.push(extra):
            return SafeString(partial.render(self.context))


def _is_row(name: str) -> bool:
    return name[:1] == "c" and name[1:].isdigit()


def _row_parts(drawn: Drawn, sent: dict[str, str] | None) -> list[str]:
    """The coups the screen lacks, prepended; those that changed, replaced; those no longer
    among the last ones, deleted. A screen that did not say what it shows gets the list."""
    shown = {name: digest for name, digest in (sent or {}).items() if _is_row(name)}
    newest_shown = max((int(name[1:]) for name in shown), default=0)
    new = [(name, html) for name, html in drawn.rows if name not in shown]
    if sent is None or any(int(name[1:]) < newest_shown for name, _html in new):
        rows = "".join(html for _name, html in drawn.rows)
        return [f'<div id="coup-list" hx-swap-oob="true">{rows}</div>']
    parts = []
    if new:
        rows = "".join(html for _name, html in new)
        parts.append(f'<div hx-swap-oob="afterbegin:#coup-list">{rows}</div>')
    parts += [
        _oob(html)
        for name, html in drawn.rows
        if name in shown and shown[name] != drawn.digests[name]
    ]
    kept = {name for name, _html in drawn.rows}
    parts += [
        f'<article id="coup-{name[1:]}" hx-swap-oob="delete"></article>'
        for name in shown
        if name not in kept
    ]
    return parts


def _players_absent(present: dict[str, str]) -> list[Player]:
    """Players who may sit down or stand: the club's members not at this table (for a picker)."""
    return list(Player.objects.exclude(member_number__in=list(present)).order_by("name")[:300])


def table_answer(
    request: ConsoleRequest,
    table_session: TableSession,
    *,
    status: int = 200,
    problem: Problem | None = None,
    notice: str = "",
    changed_only: bool = True,
    recorded: Recorded | None = None,
) -> HttpResponse:
    """The answer of every write at a table: the meta plus the regions that changed, each an
    out-of-band swap (the screen swaps nothing in place), so an action sends what it changed."""
    if not request.htmx and status == 200:
        return HttpResponseRedirect(
            reverse("console:table", kwargs={"table_session": table_session.public_id})
        )
    drawn = _draw(request, table_session, problem=problem, notice=notice, recorded=recorded)
    if not request.htmx:
        return _page(request, drawn, status=status)
    sent = _sent_digests(request) if changed_only else None
    # Regions the screen has drawn before, and keeps by digest (console.js): a coup repeats the
    # phases, panels and facts of the last one, so these go out as a stub naming the digest.
    kept = set(str(_posted(request).get("cached", "")).split()) if sent is not None else set()
    parts = [_oob(drawn.meta)]
    for name in REGIONS:
        digest = drawn.digests[name]
        if sent is not None and sent.get(name) == digest:
            continue
        if digest in kept:
            parts.append(f'<div id="table-{name}" hx-swap-oob="true" data-cached="{digest}"></div>')
        else:
            parts.append(_oob(drawn.regions[name]))
    parts += _row_parts(drawn, sent)
    response = HttpResponse("".join(parts), status=status)
    if status < 300:
        # The seats-and-session panel, when open, draws itself again (hx-trigger "moved").
        trigger_client_event(response, "moved")
    return response


def _page(request: ConsoleRequest, drawn: Drawn, *, status: int = 200) -> HttpResponse:
    """The whole table screen: the page, or (htmx) the screen without the page around it."""
    context = drawn.context | {
        "regions": drawn.regions,
        "rows": [html for _name, html in drawn.rows],
        "meta": drawn.meta,
        "region_names": " ".join(REGIONS),
    }
    if not request.htmx and context["may_record"]:
        context["players"] = _players_absent(context["screen"].state.players)
    if not request.htmx:
        table_session = drawn.context["table_session"]
        periods = list(duty_period_list(table_session=table_session))
        context["duty"] = [p for p in periods if p.released_at is None]
        context["duty_ended"] = [p for p in periods if p.released_at is not None]
        if not context["may_record"] and table_session.closed_at is None:
            context["relieved"] = relief_get(table_session=table_session, user=request.user)
        if context["inspector"] and table_session.closed_at is None:
            session = table_session.gaming_session
            context["free"] = {
                role: staff_free_list(role=role, gaming_session=session) for role in AssignmentRole
            }
    return page_or_part(request, TABLE, "screen", context, status=status)


@require_GET
@console_view
def table_screen(request: ConsoleRequest, table_session: UUID) -> HttpResponse:
    """The table screen: the whole page, or (htmx) the screen without the page around it."""
    return _page(request, _draw(request, table_session_get(request.user, table_session)))


@require_GET
@console_view
def table_poll(request: ConsoleRequest, table_session: UUID) -> HttpResponse:
    """Whether the table moved since the screen was drawn (another device recorded, a void was
    asked or decided): 204 when it did not, else the regions that changed.

    Two small queries when nothing moved: the last sequence number and the pending voids."""
    found = table_session_get(request.user, table_session)
    posted = request.GET
    duty = "1" if may_record(request.user, found) else "0"
    if posted.get("duty", duty) != duty:
        # Relieved, or put on duty, since the screen was drawn: the whole page again, read-only
        # or with its controls, and saying why.
        return HttpResponseClientRefresh()
    seq = last_seq_get(found)
    voids = void_request_pending_list().filter(coup__table_session=found).count()
    if posted.get("expected_seq") == str(seq + 1) and posted.get("voids") == str(voids):
        return HttpResponse(status=204)
    return table_answer(request, found)


@require_GET
@console_view
def session_controls(request: ConsoleRequest, table_session: UUID) -> HttpResponse:
    """The seats-and-session actions (sit, leave, a standing player, the end), drawn when the
    croupier opens that panel, so the panel does not weigh on every action's answer."""
    found = table_session_get(request.user, table_session)
    state = table_state_get(table_session=found)
    recorder = may_record(request.user, found)
    context = {
        "screen": screen_build(state, coups=(), may_record=recorder),
        "table_session": found,
    }
    return render(request, f"{TABLE}#session-controls", context)


def table_refusal(
    request: ConsoleRequest, table_session: TableSession, error: DomainError, action_type: str
) -> HttpResponse:
    """A service's refusal at the table: a stale screen (409) redrawn whole with a notice, any
    other refusal shown in place of control `action_type`."""
    body = error_body(error)
    if body.status == 409:
        # Another screen recorded first (or the table was paused or closed meanwhile): show
        # where the table stands now; nothing was recorded from this screen.
        notice = _(
            "The table has moved on since this screen was drawn; nothing was recorded. "
            "Here is where it stands now."
        )
        if body.code != "stale_sequence":
            notice = body.message
        return table_answer(request, table_session, status=409, notice=notice, changed_only=False)
    params = getattr(error, "rule_params", None)
    problem = Problem(action_type, body.code, body.message, params)
    return table_answer(request, table_session, status=body.status, problem=problem)


def table_event(
    service: ReasonedWriter,
    request: ConsoleRequest,
    table_session: TableSession,
    form: Any,
) -> Recorded:
    """Write an event the screen asks for besides an action, from its valid form: `service` is
    `undo`, `table_interrupt` or `table_resume`, sequenced and keyed like an action."""
    return service(
        table_session=table_session,
        expected_seq=form.cleaned_data["expected_seq"],
        user=staff_of(request),
        idempotency_key=form.cleaned_data["key"],
        reason=form.cleaned_data["reason"],
        client=client_of(request),
    )


def table_write(
    request: ConsoleRequest,
    table_session: TableSession,
    action_type: str,
    write: Callable[[], object],
) -> HttpResponse:
    """A write from the table screen other than an action (a correction, a pause): the regions
    it changed, or its refusal shown in place of control `action_type`."""
    try:
        write()
    except DomainError as error:
        return table_refusal(request, table_session, error, action_type)
    return table_answer(request, table_session)


@require_POST
@console_view
def action_record(request: ConsoleRequest, table_session: UUID) -> HttpResponse:
    """Record one action through `tables.services.record` (the one entry point).

    A valid form goes straight to the service, which locks the table, checks that this user
    may record there (else 403, and nothing of the table is shown) and returns the table's
    row: the screen is drawn from it. The table is read on its own only for a refusal.
    """
    reference = table_session_reference(table_session)
    form = ActionForm(request.POST, specs=game_get(reference.game).actions)
    action_type = str(request.POST.get("type", ""))
    if not form.is_valid():
        found = table_session_get(request.user, table_session)
        return table_answer(request, found, status=422, problem=form_problem(action_type, form))
    user = staff_of(request)
    try:
        done = record(
            table_session=reference,
            action=form.action(),
            expected_seq=form.cleaned_data["expected_seq"],
            user=user,
            idempotency_key=form.cleaned_data["key"],
            client=client_of(request),
            stock_number=stock_number_of(request.POST.get(STOCK_PARAM)),
        )
    except PermissionDeniedError:
        if request.htmx and relief_get(table_session=reference, user=user) is not None:
            # A croupier relieved since his screen was drawn: the page again, which says so,
            # read-only (nothing was recorded).
            return HttpResponseClientRefresh()
        raise
    except DomainError as error:
        found = table_session_get(request.user, table_session)
        return table_refusal(request, found, error, action_type)
    locked = done.table_session
    on_duty_remember(locked, user, getattr(locked, "on_duty", False))
    return table_answer(request, locked, recorded=done)
