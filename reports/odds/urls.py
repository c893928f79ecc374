"""The statistical audit's screen and its CSV (docs/odds.md, "The audit")."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from reports.odds import views

app_name = "odds"

urlpatterns: list[URLPattern | URLResolver] = [
    path("audit/", views.audit, name="audit"),
    path("audit/rows.csv", views.audit_file, name="csv"),
]
