"""One navigation per role, drawn by `templates/base.html` (issue 13, "Screens by role, a click
away").

`navigation` is a template context processor (registered in `casino/settings.py`). It gives the
page `navigation`: the links of every role the user holds, in the one order of `LINKS`, each
once, the one of the page shown marked current. A link whose URL name does not resolve is left
out (`NoReverseMatch`): several screens are built by other changes, so the navigation fills in as
they land, and no page breaks for a screen not yet there.

The links are worked out only when a template asks for them (a lazy object): the table screen's
partials, rendered on every tap with the same context processors, never pay for the navigation
(docs/conventions.md, P1). Roles come with the user (`establishment.staff.roles_of`): no query.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.urls import NoReverseMatch, reverse
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext_lazy as _

from establishment.roles import Role
from establishment.staff import roles_of

if TYPE_CHECKING:
    from django.http import HttpRequest
    from django_stubs_ext import StrPromise


@dataclass(frozen=True)
class Link:
    """A screen of the navigation: its URL name, its words, and who sees it."""

    key: str
    url_name: str
    label: StrPromise
    roles: frozenset[str]
    # Pages that are this screen's too, by the start of their path (a croupier's table screen
    # is "my table").
    also: tuple[str, ...] = ()


@dataclass(frozen=True)
class NavLink:
    """A link as the page draws it."""

    key: str
    url: str
    label: str
    current: bool


# The one order of the links, whatever the roles: a user with several sees their union in it.
LINKS: tuple[Link, ...] = (
    Link("home", "home", _("My table"), frozenset({Role.CROUPIER}), also=("/console/tables/",)),
    Link("floor", "console:floor", _("Floor"), frozenset({Role.INSPECTOR, Role.MANAGER})),
    Link("voids", "console:voids", _("Voids to decide"), frozenset({Role.INSPECTOR})),
    Link(
        "players",
        "reception:players",
        _("Players"),
        frozenset({Role.INSPECTOR, Role.RECEPTION}),
    ),
    Link("exclusions", "reception:exclusions", _("Exclusions"), frozenset({Role.RECEPTION})),
    Link("duty", "console:duty", _("Duty"), frozenset({Role.INSPECTOR})),
    Link("stock", "console:stock", _("Sabots"), frozenset({Role.INSPECTOR, Role.MANAGER})),
    Link("reports", "reports:list", _("Reports"), frozenset({Role.MANAGER, Role.AUDITOR})),
    Link("registers", "registers:index", _("Registers"), frozenset({Role.MANAGER, Role.AUDITOR})),
    Link("odds", "odds:audit", _("Odds audit"), frozenset({Role.MANAGER, Role.AUDITOR})),
    Link("audit", "audit:index", _("Audit"), frozenset({Role.AUDITOR})),
    Link("alerts", "audit:alerts", _("Alerts"), frozenset({Role.INSPECTOR, Role.MANAGER})),
    Link("staff", "staff:list", _("Staff"), frozenset({Role.MANAGER})),
    Link("tables", "console:tables-manage", _("Tables"), frozenset({Role.MANAGER})),
    Link("house", "house:index", _("House"), frozenset({Role.MANAGER})),
    Link("access", "staff:access-review", _("Access review"), frozenset({Role.AUDITOR})),
)
# Everyone's, beside the language switch and logging out (drawn by base.html itself).
PASSWORD_LINK = Link("password", "staff:password", _("Change my password"), frozenset())


def _url(name: str) -> str | None:
    try:
        return reverse(name)
    except NoReverseMatch:
        return None


def _is_current(url: str, path: str) -> bool:
    # The home page is only itself; a section is its page and the pages under it.
    return path == url if url == "/" else path.startswith(url)


def _found(user: Any) -> tuple[list[tuple[Link, str]], list[tuple[Link, str]]]:
    """The role's links and everyone's that resolve, each with its URL."""
    roles = roles_of(user)
    screens = []
    for link in LINKS:
        if link.roles & roles:
            url = _url(link.url_name)
            if url is not None:
                screens.append((link, url))
    account = []
    if getattr(user, "is_authenticated", False):
        url = _url(PASSWORD_LINK.url_name)
        if url is not None:
            account.append((PASSWORD_LINK, url))
    return screens, account


def _match(link: Link, url: str, path: str) -> int:
    """How much of `path` the link claims: the length of its URL or of the longest of its other
    pages' prefixes the path starts with; 0 when none."""
    claimed = [len(url)] if _is_current(url, path) else []
    claimed += [len(prefix) for prefix in link.also if path.startswith(prefix)]
    return max(claimed, default=0)


def navigation_both(user: Any, path: str) -> tuple[list[NavLink], list[NavLink]]:
    """The links `user` sees (his roles' in the order of `LINKS`, and everyone's); at most one
    of them all marked current: the one that claims the longest part of the path
    (/staff/password/ is the password's, not the staff screen's)."""
    screens, account = _found(user)
    claims = {link.key: _match(link, url, path) for link, url in screens + account}
    best = max(claims.values(), default=0)
    current = next((key for key, claim in claims.items() if best and claim == best), None)

    def drawn(found: list[tuple[Link, str]]) -> list[NavLink]:
        return [NavLink(link.key, url, str(link.label), link.key == current) for link, url in found]

    return drawn(screens), drawn(account)


def navigation_links(user: Any, path: str) -> list[NavLink]:
    """The links of `user`'s roles, in the order of `LINKS`, each once."""
    return navigation_both(user, path)[0]


def navigation(request: HttpRequest) -> dict[str, Any]:
    """Context processor: `navigation` (the role's links) and `account_links` (everyone's),
    worked out once, when the page draws them."""
    user = getattr(request, "user", None)
    path = request.path
    both = SimpleLazyObject(lambda: navigation_both(user, path))
    return {
        "navigation": SimpleLazyObject(lambda: both[0]),
        "account_links": SimpleLazyObject(lambda: both[1]),
    }
