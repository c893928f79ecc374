"""The registers' screens (docs/registers.md, "Outputs")."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from reports.registers import views

app_name = "registers"

urlpatterns: list[URLPattern | URLResolver] = [
    path("", views.index, name="index"),
    path("journee/<str:day>/", views.journee, name="journee"),
    path("journee/<str:day>/sign/", views.journee_signature, name="journee-sign"),
    path("seance/<uuid:table_session>/", views.seance, name="seance"),
    path("month/<str:month>/", views.month, name="month"),
    path("month/<str:month>/close/", views.month_closing, name="month-close"),
    path("<uuid:public_id>/file.<str:kind>", views.register_file, name="file"),
    path("<uuid:public_id>/rectify/", views.rectification, name="rectify"),
]
