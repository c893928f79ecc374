"""The croupier console: one URL per action, serving the page or its swapped parts (htmx).

Every view parses its form, calls one service or selector, and renders (STYLE.md rule 1). Refusals
come back through `establishment.http.errors.error_body`, the one mapping: a rule refused is a 422
partial in place, a stale screen a 409 with the table redrawn and a notice, 403/404 what the user
may not do or see.

Only the parts of the table screen that changed are sent back (issue 5: under 2 KB an action,
whatever the length of the session): every region is rendered, its digest compared with the
digest the screen posted (`screen`), and only the differing regions go out, as out-of-band
swaps, with the screen's meta (the next sequence number, a fresh idempotency key, the digests).
A settled coup arrives as its own row, prepended to the last coups.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from functools import partial, wraps
from typing import Any, Concatenate, ParamSpec
from uuid import UUID

from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.template.context import make_context
from django.template.loader import get_template, render_to_string
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRefresh, trigger_client_event
from django_htmx.middleware import HtmxDetails

from establishment.errors import DomainError, PermissionDeniedError
from establishment.http.errors import error_body
from establishment.models import GamingSession, Player, StaffPreference
from establishment.roles import SUPERVISORS, Role
from establishment.services import gaming_session_open
from establishment.staff import roles_of
from tables.console import regions as regions_cache
from tables.console.access import (
    is_inspector,
    may_record,
    on_duty_remember,
    sees_floor,
    table_session_get,
    table_session_reference,
)
from tables.console.forms import (
    ActionForm,
    AssignForm,
    CorrectionForm,
    LanguageForm,
    PauseForm,
    TableOpenForm,
    VoidDecisionForm,
    VoidRequestForm,
)
from tables.console.screen import RECENT_COUPS, new_key, screen_build
from tables.engine import game_get
from tables.models import AssignmentRole, Table, TableSession
from tables.selectors import (
    coup_list,
    recent_coup_list,
    table_state_get,
    void_request_pending_list,
)
from tables.services import (
    Recorded,
    StaleSequenceError,
    gaming_session_close,
    record,
    staff_assign,
    table_interrupt,
    table_resume,
    table_session_close,
    table_session_open,
    undo,
    void_decide,
    void_request,
    void_request_get,
)
from tables.services.journal import last_seq_get
from tables.words import say

TABLE = "console/table.html"
FLOOR = "console/floor.html"
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

P = ParamSpec("P")
_FIRST_TAG = re.compile(r"^\s*<([a-z]+)")


class ConsoleRequest(HttpRequest):
    """A request through `HtmxMiddleware` (STYLE-NOTES.md 3.1, typed request)."""

    htmx: HtmxDetails


@dataclass(frozen=True)
class Problem:
    """A refusal shown in place: which control it concerns, the code and the rules' words.

    `params` are the engine's parameters of a rule refused (`RuleRefusedError`): the screen
    says it again with the players by name (`tables.words.say`)."""

    type: str
    code: str
    message: str
    params: Mapping[str, Any] | None = None


def _staff(request: ConsoleRequest) -> User:
    """The logged-in user itself, not the lazy wrapper `request.user` is: the services ask
    `type(user).objects`, which the wrapper's type does not have."""
    user = request.user
    wrapped = getattr(user, "_wrapped", user)
    assert isinstance(wrapped, User)
    return wrapped


def _client(request: ConsoleRequest) -> str:
    return f"console {request.META.get('REMOTE_ADDR', '')}".strip()


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


def console_view(
    view: Callable[Concatenate[ConsoleRequest, P], HttpResponse],
) -> Callable[Concatenate[ConsoleRequest, P], HttpResponse]:
    """Login required; a refusal raised before the service (reading, scoping) is answered
    with its status and message instead of a bare error page."""

    @wraps(view)
    def wrapper(request: ConsoleRequest, *args: P.args, **kwargs: P.kwargs) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except DomainError as error:
            body = error_body(error)
            return render(
                request,
                "console/_refusal.html" if request.htmx else "console/refusal.html",
                {"problem": Problem("", body.code, body.message)},
                status=body.status,
            )

    return login_required(wrapper)  # type: ignore[return-value]


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
        problem = replace(problem, message=say(problem.code, problem.params, state.players))
    coups = recent_coup_list(table_session=table_session, limit=RECENT_COUPS)
    recorder = may_record(request.user, table_session)
    voids_known_none = recorded is not None and not any(
        getattr(coup, "void_pending", True) for coup in coups
    )
    context: dict[str, Any] = {
        "screen": screen_build(state, coups=coups, may_record=recorder),
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


def _screen(
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
    if not request.htmx:
        if status == 200:
            return HttpResponseRedirect(
                reverse("console:table", kwargs={"table_session": table_session.public_id})
            )
        return _page(request, table_session, status=status, problem=problem, notice=notice)
    drawn = _draw(request, table_session, problem=problem, notice=notice, recorded=recorded)
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


def _page(
    request: ConsoleRequest,
    table_session: TableSession,
    *,
    status: int = 200,
    problem: Problem | None = None,
    notice: str = "",
) -> HttpResponse:
    """The whole table screen: the page, or (htmx) the screen without the page around it."""
    drawn = _draw(request, table_session, problem=problem, notice=notice)
    context = drawn.context | {
        "regions": drawn.regions,
        "rows": [html for _name, html in drawn.rows],
        "meta": drawn.meta,
        "region_names": " ".join(REGIONS),
    }
    if request.htmx:
        return HttpResponse(
            render_to_string(f"{TABLE}#screen", context, request=request), status=status
        )
    if context["may_record"]:
        context["players"] = _players_absent(context["screen"].state.players)
    return render(request, TABLE, context, status=status)


@require_GET
@console_view
def table_screen(request: ConsoleRequest, table_session: UUID) -> HttpResponse:
    """The table screen: the whole page, or (htmx) the screen without the page around it."""
    return _page(request, table_session_get(request.user, table_session))


@require_GET
@console_view
def table_poll(request: ConsoleRequest, table_session: UUID) -> HttpResponse:
    """Whether the table moved since the screen was drawn (another device recorded, a void was
    asked or decided): 204 when it did not, else the regions that changed (issue 5, two screens).

    Two small queries when nothing moved: the last sequence number and the pending voids."""
    found = table_session_get(request.user, table_session)
    posted = request.GET
    seq = last_seq_get(found)
    voids = void_request_pending_list().filter(coup__table_session=found).count()
    if posted.get("expected_seq") == str(seq + 1) and posted.get("voids") == str(voids):
        return HttpResponse(status=204)
    return _screen(request, found)


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


def _refused(
    request: ConsoleRequest, table_session: TableSession, error: DomainError, action_type: str
) -> HttpResponse:
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
        return _screen(request, table_session, status=409, notice=notice, changed_only=False)
    params = getattr(error, "rule_params", None)
    problem = Problem(action_type, body.code, body.message, params)
    return _screen(request, table_session, status=body.status, problem=problem)


def _form_problem(action_type: str, form: Any) -> Problem:
    messages = []
    for name, errors in form.errors.items():
        label = "" if name == "__all__" else f"{name}: "
        messages += [f"{label}{message}" for message in errors]
    return Problem(action_type, "form_invalid", " ".join(messages))


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
        return _screen(request, found, status=422, problem=_form_problem(action_type, form))
    user = _staff(request)
    try:
        done = record(
            table_session=reference,
            action=form.action(),
            expected_seq=form.cleaned_data["expected_seq"],
            user=user,
            idempotency_key=form.cleaned_data["key"],
            client=_client(request),
        )
    except PermissionDeniedError:
        raise
    except DomainError as error:
        found = table_session_get(request.user, table_session)
        return _refused(request, found, error, action_type)
    locked = done.table_session
    on_duty_remember(locked, user, getattr(locked, "on_duty", False))
    return _screen(request, locked, recorded=done)


@require_POST
@console_view
def action_undo(request: ConsoleRequest, table_session: UUID) -> HttpResponse:
    """Undo the last action of the open coup (an event; nothing is erased)."""
    found = table_session_get(request.user, table_session)
    form = CorrectionForm(request.POST)
    if not form.is_valid():
        return _screen(request, found, status=422, problem=_form_problem("undo", form))
    try:
        undo(
            table_session=found,
            expected_seq=form.cleaned_data["expected_seq"],
            user=_staff(request),
            idempotency_key=form.cleaned_data["key"],
            reason=form.cleaned_data["reason"],
            client=_client(request),
        )
    except DomainError as error:
        return _refused(request, found, error, "undo")
    return _screen(request, found)


@require_POST
@console_view
def void_ask(request: ConsoleRequest, table_session: UUID) -> HttpResponse:
    """The croupier asks for the last coup the screen shows to be voided, with a reason.

    Only the last coup of a table can be voided (the service's rule); the form is drawn once
    with the page, so the coup is the newest one settled before the screen's sequence number: a
    coup settled since (another device) makes the screen stale (409), never the wrong coup.
    """
    found = table_session_get(request.user, table_session)
    form = VoidRequestForm(request.POST)
    if not form.is_valid():
        return _screen(request, found, status=422, problem=_form_problem("void", form))
    target = coup_list(table_session=found).first()
    if target is None:
        problem = Problem("void", "no_coup", _("No coup has been settled at this table yet."))
        return _screen(request, found, status=422, problem=problem)
    try:
        if target.settled_seq >= form.cleaned_data["expected_seq"]:
            raise StaleSequenceError(
                _("Another coup was settled since this screen was drawn."),
                expected_seq=target.settled_seq + 1,
                given_seq=form.cleaned_data["expected_seq"],
            )
        void_request(
            coup=target,
            user=_staff(request),
            reason=form.cleaned_data["reason"],
            client=_client(request),
        )
    except DomainError as error:
        return _refused(request, found, error, "void")
    return _screen(request, found)


@require_POST
@console_view
def void_answer(request: ConsoleRequest, void: UUID) -> HttpResponse:
    """An inspector approves or refuses a void (from the floor or the table screen)."""
    if not sees_floor(request.user):
        raise PermissionDeniedError(_("Only a table inspector may approve or refuse a void."))
    found = void_request_get(public_id=void)
    table_session = TableSession.objects.select_related("table", "gaming_session").get(
        pk=found.coup.table_session_id
    )
    form = VoidDecisionForm(request.POST)
    problem: Problem | None = None
    if not form.is_valid():
        problem = _form_problem("void", form)
    else:
        try:
            void_decide(
                request=found,
                user=_staff(request),
                approve=form.cleaned_data["approve"],
                note=form.cleaned_data["note"],
                client=_client(request),
            )
        except DomainError as error:
            body = error_body(error)
            problem = Problem("void", body.code, body.message)
    status = 200 if problem is None else error_body_status(problem)
    if request.POST.get("from") == "table":
        return _screen(request, table_session, status=status, problem=problem)
    return _floor(request, status=status, problem=problem)


def error_body_status(problem: Problem) -> int:
    return 403 if problem.code == "permission_denied" else 422


# -- the floor -------------------------------------------------------------------------------


def _gaming_session() -> GamingSession | None:
    return GamingSession.objects.filter(closed_at__isnull=True).order_by("-opened_at").first()


def _floor_context(request: ConsoleRequest) -> dict[str, Any]:
    session = _gaming_session()
    rows = []
    if session is not None:
        open_sessions = (
            TableSession.objects.filter(gaming_session=session, closed_at__isnull=True)
            .select_related("table", "gaming_session")
            .prefetch_related("assignments__staff")
            .order_by("table__number")
        )
        for table_session in open_sessions:
            state = table_state_get(table_session=table_session)
            on_duty = [
                a.staff
                for a in table_session.assignments.all()
                if a.released_at is None and a.role == AssignmentRole.CROUPIER
            ]
            rows.append(
                {
                    "table_session": table_session,
                    "screen": screen_build(state, coups=(), may_record=False),
                    "croupiers": on_duty,
                    "pause_key": new_key(),
                }
            )
    open_tables = [ts.table_id for ts in TableSession.objects.filter(closed_at__isnull=True)]
    return {
        "gaming_session": session,
        "rows": rows,
        "closed_tables": [
            t for t in Table.objects.filter(is_active=True) if t.pk not in open_tables
        ],
        "croupiers": User.objects.filter(groups__name=Role.CROUPIER, is_active=True).order_by(
            "username"
        ),
        "pending": list(void_request_pending_list(gaming_session=session)) if session else [],
        "inspector": is_inspector(request.user),
    }


def _floor(
    request: ConsoleRequest, *, status: int = 200, problem: Problem | None = None
) -> HttpResponse:
    if not request.htmx and status == 200:
        return HttpResponseRedirect(reverse("console:floor"))
    context = _floor_context(request) | {"problem": problem}
    if request.htmx:
        return HttpResponse(
            render_to_string(f"{FLOOR}#floor", context, request=request), status=status
        )
    return render(request, FLOOR, context, status=status)


def _floor_check(request: ConsoleRequest) -> None:
    if not sees_floor(request.user):
        raise PermissionDeniedError(_("The floor view is for inspectors, auditors and managers."))


def _inspector_check(request: ConsoleRequest) -> None:
    # The services check the same set (`establishment.roles.SUPERVISORS`); asked here first, the
    # refusal is in the croupier's language and nothing of the form is read.
    if not roles_of(request.user) & SUPERVISORS:
        raise PermissionDeniedError(_("Only a table inspector or a manager may do this."))


@require_GET
@console_view
def floor(request: ConsoleRequest) -> HttpResponse:
    """Every table of the session: state, banker, bank, cagnotte; polled every few seconds."""
    _floor_check(request)
    context = _floor_context(request) | {"problem": None}
    if request.htmx:
        return render(request, f"{FLOOR}#floor", context)
    return render(request, FLOOR, context)


def _floor_write(request: ConsoleRequest, write: Callable[[], object]) -> HttpResponse:
    _inspector_check(request)
    try:
        write()
    except DomainError as error:
        body = error_body(error)
        return _floor(request, status=body.status, problem=Problem("", body.code, body.message))
    return _floor(request)


@require_POST
@console_view
def session_open(request: ConsoleRequest) -> HttpResponse:
    def write() -> object:
        if _gaming_session() is not None:
            raise DomainError(_("A gaming session is already open."))
        return gaming_session_open(opened_by=_staff(request), client=_client(request))

    return _floor_write(request, write)


@require_POST
@console_view
def session_close(request: ConsoleRequest) -> HttpResponse:
    def write() -> object:
        session = _gaming_session()
        if session is None:
            raise DomainError(_("No gaming session is open."))
        return gaming_session_close(
            gaming_session=session,
            user=_staff(request),
            client=_client(request),
        )

    return _floor_write(request, write)


@require_POST
@console_view
def table_open(request: ConsoleRequest) -> HttpResponse:
    form = TableOpenForm(request.POST)

    def write() -> object:
        session = _gaming_session()
        if session is None:
            raise DomainError(_("Open a gaming session first."))
        if not form.is_valid():
            raise DomainError(_("Choose a table to open."))
        table = Table.objects.filter(public_id=form.cleaned_data["table"]).first()
        if table is None:
            raise Http404("No such table.")
        return table_session_open(
            table=table,
            gaming_session=session,
            opened_by=_staff(request),
            client=_client(request),
        )

    return _floor_write(request, write)


@require_POST
@console_view
def table_close(request: ConsoleRequest, table_session: UUID) -> HttpResponse:
    found = table_session_get(request.user, table_session)
    return _floor_write(
        request,
        lambda: table_session_close(
            table_session=found,
            user=_staff(request),
            client=_client(request),
        ),
    )


@require_POST
@console_view
def table_pause(request: ConsoleRequest, table_session: UUID, how: str) -> HttpResponse:
    """Interrupt or resume play at a table (an incident, a break)."""
    found = table_session_get(request.user, table_session)
    form = PauseForm(request.POST)
    service = table_interrupt if how == "interrupt" else table_resume

    def write() -> object:
        if not form.is_valid():
            raise DomainError(_("The screen is out of date; reload it."))
        return service(
            table_session=found,
            expected_seq=form.cleaned_data["expected_seq"],
            user=_staff(request),
            idempotency_key=form.cleaned_data["key"],
            reason=form.cleaned_data["reason"],
            client=_client(request),
        )

    if request.POST.get("from") == "table":
        _inspector_check(request)
        try:
            write()
        except DomainError as error:
            return _refused(request, found, error, "pause")
        return _screen(request, found)
    return _floor_write(request, write)


@require_POST
@console_view
def croupier_assign(request: ConsoleRequest, table_session: UUID) -> HttpResponse:
    found = table_session_get(request.user, table_session)
    croupiers = User.objects.filter(groups__name=Role.CROUPIER, is_active=True)
    form = AssignForm(request.POST, croupiers=croupiers)

    def write() -> object:
        if not form.is_valid():
            raise DomainError(_("Choose a croupier."))
        return staff_assign(
            table_session=found,
            staff=form.cleaned_data["croupier"],
            role=AssignmentRole.CROUPIER,
            assigned_by=_staff(request),
            client=_client(request),
        )

    return _floor_write(request, write)


# -- the user's language ---------------------------------------------------------------------


@require_POST
@console_view
def language_set(request: ConsoleRequest) -> HttpResponse:
    """Save the language this member of staff works in; the page is drawn again in it."""
    staff = _staff(request)
    preference = StaffPreference.objects.filter(user=staff).first()
    form = LanguageForm(request.POST, instance=preference)
    if form.is_valid():
        saved = form.save(commit=False)
        saved.user = staff
        saved.save()
    if request.htmx:
        return HttpResponseClientRefresh()
    back = request.POST.get("next", "")
    safe = url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()})
    return HttpResponseRedirect(back if back and safe else reverse("home"))
