"""Test settings: the project's settings with fast, deterministic overrides.

`DATABASE_URL` still chooses the database, so the same suite runs on SQLite (default) and on
PostgreSQL (CI).
"""

from __future__ import annotations

import os

os.environ.setdefault(
    "DJANGO_SECRET_KEY", "tests-only-secret-key-not-for-production-use-0123456789"
)

from casino.settings import *  # noqa: F403
from casino.settings import DATABASES

DEBUG = False
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
SECURE_SSL_REDIRECT = False
SESSION_COOKIE_SECURE = False
CSRF_COOKIE_SECURE = False
SECURE_HSTS_SECONDS = 0
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.InMemoryStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
LANGUAGE_CODE = "en"
# The suite's players are made with a name and a member number only (tests/factories.py, the
# scenarios); the door's tests take identities and set this back (tests/establishment/).
ADMISSION_REQUIRES_IDENTITY = False
# Static files are not collected for tests; autorefresh mode does not look for STATIC_ROOT.
WHITENOISE_AUTOREFRESH = True

# The API's throttles stay in place, with rates no test reaches by accident (the suite's users
# share primary keys from test to test); tests/establishment/test_lockout.py sets its own.
REST_FRAMEWORK = {
    **REST_FRAMEWORK,  # noqa: F405
    "DEFAULT_THROTTLE_RATES": {"user": "1000000/min", "anon": "1000000/min"},
}

CELERY_BROKER_URL = "memory://"
CELERY_TASK_ALWAYS_EAGER = True
CELERY_TASK_EAGER_PROPAGATES = True

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # An in-memory test database; WAL does not apply to it.
    DATABASES["default"]["TEST"] = {"NAME": ":memory:"}
    DATABASES["default"]["OPTIONS"].pop("init_command", None)
    DATABASES["default"]["OPTIONS"]["init_command"] = "PRAGMA foreign_keys=ON;"
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "root": {"handlers": [], "level": "WARNING"},
}
