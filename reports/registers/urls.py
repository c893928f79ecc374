"""The registers' screens (docs/registers.md, "Outputs"), the progress their workers' results are
polled by, and the seasons' archives ("Retention")."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from reports.registers import views
from reports.registers.builders import MODEL_12, MODEL_13

app_name = "registers"

urlpatterns: list[URLPattern | URLResolver] = [
    path("", views.index, name="index"),
    path("journee/<str:day>/", views.journee, name="journee"),
    path("journee/<str:day>/progress/", views.journee_progress, name="journee-progress"),
    path("journee/<str:key>/sign/", views.signing, {"kind": MODEL_12}, name="journee-sign"),
    path("seance/<uuid:table_session>/", views.seance, name="seance"),
    path("seance/<uuid:table_session>/progress/", views.seance_progress, name="seance-progress"),
    path("month/<str:month>/", views.month, name="month"),
    path("month/<str:key>/close/", views.signing, {"kind": MODEL_13}, name="month-close"),
    path("<uuid:public_id>/file.<str:kind>", views.register_file, name="file"),
    path("<uuid:public_id>/rectify/", views.rectification, name="rectify"),
    path("archives/", views.archive_request, name="archive-request"),
    path("archives/<uuid:public_id>/progress/", views.archive_progress, name="archive-progress"),
    path("archives/<uuid:public_id>/file.zip", views.archive_file, name="archive-file"),
]
