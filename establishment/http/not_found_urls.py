"""Last under `/api/`: any other path answers a 404 in the API's own shape.

The pattern matches any characters, line breaks included (a class of every character, not
`.`): a path with a `%0A` in it would otherwise fall through to Django's HTML page.
"""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, re_path

from establishment.http.api_errors import EndpointNotFoundApi

urlpatterns: list[URLPattern | URLResolver] = [
    re_path(r"^[\s\S]*$", EndpointNotFoundApi.as_view(), name="not-found"),
]
