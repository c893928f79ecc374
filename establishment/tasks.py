"""Celery tasks of the establishment: thin, by id, idempotent (docs/conventions.md, rule 9).

`exclusions_import` is sent by `establishment.exclusions.exclusion_import` once the uploaded
file is committed; it runs `exclusion_import_run`, which leaves a finished import alone and goes
on from the last committed batch of one that died, so a message delivered twice imports
nothing twice.
"""

from __future__ import annotations

from celery import shared_task

from establishment.exclusions import exclusion_import_run
from establishment.retry import RETRIED


@shared_task(name="establishment.exclusions_import", **RETRIED)
def exclusions_import(import_id: int) -> None:
    """Import a stored file of the exclusion list (`ExclusionImport`), batch by batch."""
    exclusion_import_run(import_id=import_id)
