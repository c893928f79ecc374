"""What to try, in two lines, on the page each demo login lands on (README.md, "Using it").

`demo_hint` is a template context processor (registered in `casino/settings.py`): with the
setting `DEMO_HINTS` on (`make demo` turns it on; off everywhere else), the landing page of a
member of staff (the one `home` sends him to: the floor for a manager or an inspector, the
desk for an auditor, the players for the reception, his tables for a croupier or a changeur) gives
`demo_hint`, the two lines of his first role in `HINTS`' order, which `templates/base.html`
draws above the page. Lazy, as the navigation: a partial never pays for it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext_lazy as _

from establishment.roles import Role
from establishment.staff import roles_of

if TYPE_CHECKING:
    from django.http import HttpRequest
    from django_stubs_ext import StrPromise

# The pages a login lands on (`tables.console.home.home` and where it redirects), by URL name.
LANDING_PAGES = frozenset({"home", "console:floor", "audit:index", "reception:players"})

# By role, in the order `home` chooses the landing page; each two lines.
HINTS: tuple[tuple[str, tuple[StrPromise, StrPromise]], ...] = (
    (
        Role.MANAGER,
        (
            _(
                "Reports: open the closed night's settlement report, enter each table's counted"
                " cagnotte and sign the report off with your password."
            ),
            _(
                "Registers: the cagnotte books and the registre de contrôle, signed and chained;"
                " Tables, House and Staff set up the house."
            ),
        ),
    ),
    (
        Role.AUDITOR,
        (
            _(
                "Reports: open a closed night, re-run its reconciliation, and follow any coup to"
                " its replay from the journal."
            ),
            _(
                "Odds audit: the recorded results against the games' exact odds; Alerts: what the"
                " nightly re-audit raised, to acknowledge."
            ),
        ),
    ),
    (
        Role.INSPECTOR,
        (
            _(
                "The floor shows every table live: relieve a croupier or a changeur, interrupt a"
                " table, open or close one."
            ),
            _(
                "Voids to decide: approve or refuse, with your password, the void a croupier"
                " asked for."
            ),
        ),
    ),
    (
        Role.RECEPTION,
        (
            _("Register a player with his identity: the exclusion list is checked at the door."),
            _("Try Paul MARTIN, born 1975-03-14: he is barred, and refused at every table too."),
        ),
    ),
    (
        Role.CROUPIER,
        (
            _(
                "Open your table and record the coup: only what the rules allow is offered, the"
                " ranks by the keypad or the keyboard."
            ),
            _(
                "Z undoes your last action; « Last coups » asks for the void of a settled coup,"
                " for the inspector to decide."
            ),
        ),
    ),
    (
        Role.CHANGEUR,
        (
            _("Your home lists the table you work at as its changeur, live."),
            _("When the inspector relieves you from the floor, the table leaves your home."),
        ),
    ),
)


def hint_for(roles: frozenset[str]) -> tuple[StrPromise, StrPromise] | None:
    """The two lines of the first of `roles` in `HINTS`' order, or None."""
    for role, lines in HINTS:
        if role in roles:
            return lines
    return None


def demo_hint(request: HttpRequest) -> dict[str, Any]:
    if not getattr(settings, "DEMO_HINTS", False):
        return {}

    def lines() -> tuple[StrPromise, StrPromise] | None:
        match = getattr(request, "resolver_match", None)
        if match is None or match.view_name not in LANDING_PAGES:
            return None
        return hint_for(roles_of(getattr(request, "user", None)))

    return {"demo_hint": SimpleLazyObject(lines)}
