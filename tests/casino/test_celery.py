from __future__ import annotations

import os

import pytest
from django.conf import settings

from casino.celery import app
from tests.subprocess_env import python


def test_the_celery_app_reads_django_settings() -> None:
    assert app.main == "casino"
    assert app.conf.task_always_eager is settings.CELERY_TASK_ALWAYS_EAGER
    assert app.conf.task_acks_late is True


@pytest.mark.skipif(
    not os.environ.get("CELERY_BROKER_URL", "").startswith("redis://"),
    reason="needs a Redis broker in CELERY_BROKER_URL (CI)",
)
def test_the_configured_broker_is_reachable() -> None:
    result = python(
        "from casino.celery import app\n"
        "with app.connection_for_write() as connection:\n"
        "    connection.ensure_connection(max_retries=2)\n"
        "print('connected')\n",
        {
            "DJANGO_SECRET_KEY": "celery-test-secret",
            "CELERY_BROKER_URL": os.environ["CELERY_BROKER_URL"],
        },
    )
    assert result.returncode == 0, result.stderr
    assert "connected" in result.stdout
