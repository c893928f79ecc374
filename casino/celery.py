"""The Celery application, configured from Django settings (CELERY_* names).

Tasks live in `<app>/tasks.py` and are found by autodiscovery. Celery's Django fix-up makes
`celery.contrib.django.task.DjangoTask` the task class, so `task.delay_on_commit(...)` sends a
task only after the surrounding transaction commits.
"""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")

app = Celery("casino")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
