"""Celery tasks of the establishment: thin, by id, idempotent (docs/conventions.md, rule 9).

`exclusions_import` is sent by `establishment.services.exclusion_import` once the uploaded
file is committed; it runs `exclusion_import_run`, which leaves a finished import alone and goes
on from the last committed batch of one that died, so a message delivered twice imports
nothing twice.
"""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.db import OperationalError

from establishment.services import exclusion_import_run

RETRIED: dict[str, Any] = {
    "acks_late": True,
    "autoretry_for": (OperationalError,),
    "retry_backoff": True,
    "retry_backoff_max": 60,
    "max_retries": 5,
}


@shared_task(name="establishment.exclusions_import", **RETRIED)
def exclusions_import(import_id: int) -> None:
    """Import a stored file of the exclusion list (`ExclusionImport`), batch by batch."""
    exclusion_import_run(import_id=import_id)
