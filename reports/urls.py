"""Settlement reports: built by Celery at the end of a gaming session."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from reports import views

app_name = "reports"

urlpatterns: list[URLPattern | URLResolver] = [
    path("", views.report_list, name="list"),
    path("sessions/<uuid:public_id>/close/", views.session_close, name="session-close"),
    path("sessions/<uuid:public_id>/waiting/", views.session_waiting, name="waiting"),
    path("<uuid:public_id>/", views.report_detail, name="detail"),
    path("<uuid:public_id>/progress/", views.report_progress, name="progress"),
    path("<uuid:public_id>/count/", views.cagnotte_count, name="count"),
    path("<uuid:public_id>/sign-off/", views.sign_off, name="sign-off"),
    path("<uuid:public_id>/rerun/", views.rerun, name="rerun"),
    path("<uuid:public_id>/pdf/", views.report_pdf_signed, name="pdf"),
    path("<uuid:public_id>/files/<str:name>", views.report_file, name="file"),
]
