"""Pages of the establishment. The croupier console comes in a later change."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from tables.selectors import table_list


@require_GET
@login_required
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "casino/home.html", {"tables": table_list()})
