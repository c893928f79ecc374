"""The auditor's desk (docs/audit.md)."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from reports.audit import views

app_name = "audit"

urlpatterns: list[URLPattern | URLResolver] = [
    path("", views.desk, name="index"),
    path("log/", views.audit_log, name="log"),
    path("log.csv", views.audit_log_csv, name="log-csv"),
    path("alerts/", views.alert_list, name="alerts"),
    path(
        "alerts/<uuid:public_id>/acknowledge/",
        views.alert_acknowledge_view,
        name="alert-acknowledge",
    ),
    path("coups/", views.coup_find, name="coup-find"),
    path("coups/<uuid:public_id>/", views.coup_replay, name="coup"),
]
