"""The language of each member of staff, whatever the device: chosen once, kept at the next login.

After `AuthenticationMiddleware`: a logged-in user with a saved preference gets his language;
everyone else keeps what `LocaleMiddleware` chose (the browser's). The preference comes with
the user's own row (`establishment.staff.StaffBackend`): no query of its own.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import translation

from establishment.staff import language_of


class UserLanguageMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            language = language_of(user)
            if language:
                translation.activate(language)
                request.LANGUAGE_CODE = language
        return self.get_response(request)
