"""Last under `/api/`: any other path answers a 404 in the API's own shape."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, re_path

from establishment.http.api_errors import EndpointNotFoundApi

urlpatterns: list[URLPattern | URLResolver] = [
    re_path(r"^.*$", EndpointNotFoundApi.as_view(), name="not-found"),
]
