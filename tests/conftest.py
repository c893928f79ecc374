"""Shared test setup: Hypothesis profiles and the `postgres` marker.

Hypothesis: the "ci" profile (chosen when CI=true) runs more examples; "dev" stays quick.
Override with HYPOTHESIS_PROFILE.

Note for transactional tests on SQLite (`django_db(transaction=True)`): the ledger's append-only
triggers refuse the DELETE that Django's flush uses between such tests, so transactional tests
that write ledger rows are PostgreSQL-only (mark them `postgres`); PostgreSQL flushes with
TRUNCATE, which row triggers do not see.
"""

from __future__ import annotations

import os

import pytest
from django.db import connection
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", max_examples=50, deadline=None)
settings.load_profile(
    os.environ.get(
        "HYPOTHESIS_PROFILE",
        "ci" if os.environ.get("CI", "").lower() in {"1", "true", "yes"} else "dev",
    )
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if connection.vendor == "postgresql":
        return
    skip = pytest.mark.skip(reason="needs PostgreSQL (set DATABASE_URL)")
    for item in items:
        if "postgres" in item.keywords:
            item.add_marker(skip)
