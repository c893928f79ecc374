"""casino/settings.py: environment-driven, checked in fresh interpreters."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from casino.settings import env_bool, env_int, env_secret
from tests.subprocess_env import ROOT, python, run

PRINT_SETTINGS = """
import json
from casino import settings as s
db = s.DATABASES["default"]
print(json.dumps({
    "engine": db["ENGINE"], "name": str(db["NAME"]), "options": db.get("OPTIONS", {}),
    "eager": s.CELERY_TASK_ALWAYS_EAGER, "broker": s.CELERY_BROKER_URL, "debug": s.DEBUG,
    "secret": s.SECRET_KEY, "languages": [code for code, _ in s.LANGUAGES],
}))
"""

SECRET = "a-production-like-secret-key-" + "x" * 40


def _settings(env: dict[str, str]) -> dict[str, object]:
    result = python(PRINT_SETTINGS, env)
    assert result.returncode == 0, result.stderr
    loaded: dict[str, object] = json.loads(result.stdout)
    return loaded


def test_the_embedded_default_is_sqlite_with_eager_celery() -> None:
    loaded = _settings({"DJANGO_SECRET_KEY": SECRET})

    assert loaded["engine"] == "django.db.backends.sqlite3"
    assert loaded["name"] == str(ROOT / "var" / "db.sqlite3")
    options = loaded["options"]
    assert isinstance(options, dict)
    assert options["transaction_mode"] == "IMMEDIATE"
    assert options["timeout"] > 0
    assert "journal_mode=WAL" in options["init_command"]
    assert loaded["eager"] is True
    assert loaded["debug"] is False
    assert loaded["languages"] == ["en", "fr"]


def test_database_url_and_broker_come_from_the_environment() -> None:
    loaded = _settings(
        {
            "DJANGO_SECRET_KEY": SECRET,
            "DATABASE_URL": "postgres://casino:pw@db.internal:5432/casino",
            "CELERY_BROKER_URL": "redis://broker:6379/0",
        }
    )
    assert loaded["engine"] == "django.db.backends.postgresql"
    assert loaded["name"] == "casino"
    assert loaded["eager"] is False
    assert loaded["broker"] == "redis://broker:6379/0"


def test_secret_key_is_required_without_debug() -> None:
    result = python("import casino.settings", {})
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY" in result.stderr


def test_secret_key_may_come_from_a_file(tmp_path: Path) -> None:
    secret_file = tmp_path / "secret"
    secret_file.write_text(SECRET + "\n")
    loaded = _settings({"DJANGO_SECRET_KEY_FILE": str(secret_file)})
    assert loaded["secret"] == SECRET


def test_check_deploy_is_clean_with_production_values(tmp_path: Path) -> None:
    result = run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        {
            "DJANGO_SECRET_KEY": SECRET,
            "DJANGO_ALLOWED_HOSTS": "casino.example.org",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
            "CELERY_BROKER_URL": "redis://127.0.0.1:6379/0",
        },
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_env_bool(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FLAG", "Yes")
    assert env_bool("FLAG") is True
    monkeypatch.setenv("FLAG", "off")
    assert env_bool("FLAG", True) is False
    monkeypatch.delenv("FLAG")
    assert env_bool("FLAG", True) is True
    monkeypatch.setenv("FLAG", "maybe")
    with pytest.raises(ImproperlyConfigured):
        env_bool("FLAG")


def test_env_int(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NUMBER", "42")
    assert env_int("NUMBER", 1) == 42
    monkeypatch.setenv("NUMBER", "forty-two")
    with pytest.raises(ImproperlyConfigured):
        env_int("NUMBER", 1)


def test_env_secret_refuses_both_value_and_file(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    (tmp_path / "s").write_text("from-file")
    monkeypatch.setenv("TOKEN", "inline")
    monkeypatch.setenv("TOKEN_FILE", str(tmp_path / "s"))
    with pytest.raises(ImproperlyConfigured):
        env_secret("TOKEN")
    monkeypatch.delenv("TOKEN")
    assert env_secret("TOKEN") == "from-file"
