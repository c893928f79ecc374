"""Settings read from the environment for speed under load: the shared cache and its sessions,
PostgreSQL's prepared statements (docs/conventions.md, P1: the console under load) and its
planning of server-side cursors."""

from __future__ import annotations

import json

import pytest
from django.db import connection

from tests.subprocess_env import python

SHOW = (
    "import json, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'casino.settings');"
    "from django.conf import settings as s;"
    "print(json.dumps({'session': s.SESSION_ENGINE,"
    " 'cache': s.CACHES['default']['BACKEND'],"
    " 'options': s.DATABASES['default'].get('OPTIONS', {})}, default=str))"
)
BASE = {"DJANGO_DEBUG": "true"}


def _settings(**env: str) -> dict[str, object]:
    result = python(SHOW, BASE | env)
    assert result.returncode == 0, result.stderr
    shown: dict[str, object] = json.loads(result.stdout.strip().splitlines()[-1])
    return shown


def test_without_a_shared_cache_sessions_stay_in_the_database() -> None:
    shown = _settings()
    assert shown["session"] == "django.contrib.sessions.backends.db"
    assert shown["cache"] == "django.core.cache.backends.locmem.LocMemCache"


def test_a_shared_cache_serves_the_sessions_and_writes_them_through() -> None:
    shown = _settings(DJANGO_CACHE_URL="redis://127.0.0.1:6379/1")
    assert shown["session"] == "django.contrib.sessions.backends.cached_db"
    assert shown["cache"] == "django.core.cache.backends.redis.RedisCache"


def test_postgresql_prepares_repeated_statements_unless_told_not_to() -> None:
    url = "postgres://casino@127.0.0.1:5432/casino"
    prepared = _settings(DATABASE_URL=url)["options"]
    whole = "-c cursor_tuple_fraction=1"  # every server-side cursor is read to its end
    assert prepared == {"server_side_binding": True, "prepare_threshold": 5, "options": whole}
    plain = _settings(DATABASE_URL=url, DATABASE_PREPARED_STATEMENTS="false")["options"]
    assert "prepare_threshold" not in plain  # type: ignore[operator]
    assert plain == {"options": whole}
    assert _settings()["options"].get("server_side_binding") is None  # type: ignore[attr-defined]


@pytest.mark.postgres
@pytest.mark.django_db
def test_postgresql_plans_server_side_cursors_for_all_their_rows() -> None:
    """The option reaches the server (without it, one table's entries were read by a walk of all
    of the ledger's entries: bench/README.md, "The night's settlement")."""
    with connection.cursor() as cursor:
        cursor.execute("SHOW cursor_tuple_fraction")
        assert cursor.fetchone() == ("1",)
