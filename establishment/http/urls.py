"""The API's schema and its two readers, served by the project (drf-spectacular-sidecar, no CDN).

One URL per resource and per action on it: lists are GET on the collection, each write its own
POST URL named after what it does. Public identifiers are UUIDs.
"""

from __future__ import annotations

from csp.decorators import csp_update
from django.urls import URLPattern, URLResolver, path
from drf_spectacular.views import (
    SpectacularAPIView,
    SpectacularRedocView,
    SpectacularSwaggerSplitView,
)

# The readers' bundles set styles inline and Redoc runs a worker from a blob: allowed on these
# two pages only; their scripts are files of this site (the Swagger UI's set-up script too: the
# split view serves it from its own URL, so no inline script is needed).
_READER_CSP = csp_update({"style-src": ["'unsafe-inline'"], "worker-src": ["'self'", "blob:"]})

urlpatterns: list[URLPattern | URLResolver] = [
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path(
        "docs/",
        _READER_CSP(SpectacularSwaggerSplitView.as_view(url_name="api:schema")),
        name="docs",
    ),
    path("redoc/", _READER_CSP(SpectacularRedocView.as_view(url_name="api:schema")), name="redoc"),
]
