"""The desk's Celery task, run by beat every morning (`nightly-reaudit` in casino/settings.py):
thin, idempotent (an alert is raised once per finding; a second run adds a `Reaudit` row)."""

from __future__ import annotations

from celery import shared_task
from django.conf import settings

from reports.audit.reaudit import reaudit_recent


@shared_task(name="audit.reaudit")
def reaudit() -> int:
    """The nights closed in the last `REAUDIT_DAYS` days checked again: the alerts raised."""
    return len(reaudit_recent(days=settings.REAUDIT_DAYS).alerts)
