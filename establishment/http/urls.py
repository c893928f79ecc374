"""The API's schema and its two readers, served by the project (drf-spectacular-sidecar, no CDN).

One URL per resource and per action on it: lists are GET on the collection, each write its own
POST URL named after what it does. Public identifiers are UUIDs.
"""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView

urlpatterns: list[URLPattern | URLResolver] = [
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api:schema"), name="docs"),
    path("redoc/", SpectacularRedocView.as_view(url_name="api:schema"), name="redoc"),
]
