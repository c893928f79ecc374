"""How every task of the house is retried (docs/conventions.md, rule 9): acknowledged once done,
so a worker that dies mid-task leaves it for another; retried with backoff while the database is
unreachable. Used by each app's `tasks.py`; tasks stay thin and idempotent."""

from __future__ import annotations

from typing import Any

from django.db import OperationalError

RETRIED: dict[str, Any] = {
    "acks_late": True,
    "autoretry_for": (OperationalError,),
    "retry_backoff": True,
    "retry_backoff_max": 60,
    "max_retries": 5,
}
