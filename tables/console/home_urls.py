"""The home page: each member of staff sent where his role works."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from tables.console import home

urlpatterns: list[URLPattern | URLResolver] = [path("", home.home, name="home")]
