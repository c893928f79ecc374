"""A console session nobody uses ends (docs/security.md, "Idle sessions"): after
`SESSION_IDLE_MINUTES` (30) without a request of the person's own — the screens' polls, which
say so with `X-Poll` (static/console/console.js), do not count — the session is logged out,
and the next request goes to the login page, which brings the person back where he was.

The time of the last activity is kept in the session and written at most once a minute, so
that a croupier recording coups does not write his session at every tap.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth import logout
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django_htmx.http import HttpResponseClientRedirect

LAST_SEEN = "idle_last_seen"
WRITE_EVERY = 60  # seconds between two writes of the last activity


def idle_seconds() -> int:
    return int(getattr(settings, "SESSION_IDLE_MINUTES", 30)) * 60


class IdleSessionMiddleware:
    """Ends an authenticated session idle for longer than `SESSION_IDLE_MINUTES`; 0 turns it
    off. After the authentication and htmx middleware."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        limit = idle_seconds()
        session = getattr(request, "session", None)
        if limit and session is not None and request.user.is_authenticated:
            now = int(time.time())
            last = session.get(LAST_SEEN)
            if isinstance(last, int) and now - last > limit:
                return self._ended(request)
            is_poll = request.headers.get("X-Poll") == "1"
            if not is_poll and (not isinstance(last, int) or now - last >= WRITE_EVERY):
                session[LAST_SEEN] = now
        return self.get_response(request)

    def _ended(self, request: HttpRequest) -> HttpResponse:
        logout(request)
        if request.path.startswith("/api/"):
            return self.get_response(request)  # the API answers an anonymous request itself
        if getattr(request, "htmx", False):
            # Back to the page the region is on, not to the region's own URL.
            shown = urlsplit(request.headers.get("HX-Current-URL") or request.get_full_path())
            page = shown.path + (f"?{shown.query}" if shown.query else "")
            return HttpResponseClientRedirect(redirect_to_login(page).url)
        return redirect_to_login(request.get_full_path())
