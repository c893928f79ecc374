"""Settlement reports: built by Celery at the end of a gaming session."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from reports import views

app_name = "reports"

_session = "sessions/<uuid:public_id>/"  # a gaming session
_report = "<uuid:public_id>/"  # a settlement report

urlpatterns: list[URLPattern | URLResolver] = [
    path("", views.report_list, name="list"),
    path(f"{_session}close/", views.session_close, name="session-close"),
    path(f"{_session}waiting/", views.session_waiting, name="waiting"),
    path(_report, views.report_detail, name="detail"),
    path(f"{_report}progress/", views.report_progress, name="progress"),
    path(f"{_report}count/", views.cagnotte_count, name="count"),
    path(f"{_report}sign-off/", views.sign_off, name="sign-off"),
    path(f"{_report}rerun/", views.rerun, name="rerun"),
    path(f"{_report}pdf/", views.report_pdf_signed, name="pdf"),
    path(f"{_report}files/<str:name>", views.report_file, name="file"),
]
