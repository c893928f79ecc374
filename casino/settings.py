"""Settings for the casino back office.

Every deploy-time value comes from the environment through the small typed helpers below
(`env_str`, `env_bool`, `env_int`, `env_secret`). A secret may also be given as a file path in
`NAME_FILE` (Docker/systemd credentials). There is no local_settings.py: tests override in
tests/settings.py.

Embedded default (nothing set): SQLite under var/, Celery tasks run eagerly in-process, DEBUG off
(so SECRET_KEY is required unless DJANGO_DEBUG=true; `make demo` sets it).
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path
from typing import Any

import dj_database_url
import django_stubs_ext
from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

# Lets admin.ModelAdmin[Model], QuerySet[Model] etc. be subscripted at runtime (django-stubs).
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str = "") -> str:
    """The environment variable `name`, or `default` when it is unset."""
    return os.environ.get(name, default)


def env_bool(name: str, default: bool = False) -> bool:
    """A boolean from the environment: 1/true/yes/on or 0/false/no/off (case-insensitive)."""
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r} is not a boolean (use true or false).")


def env_int(name: str, default: int) -> int:
    """An integer from the environment."""
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not an integer.") from None


def env_list(name: str, default: str = "") -> list[str]:
    """A comma-separated list from the environment, blanks dropped."""
    return [item.strip() for item in env_str(name, default).split(",") if item.strip()]


def env_secret(name: str, default: str = "") -> str:
    """A secret from `name`, or from the file named by `name_FILE` (trailing newline stripped).

    Setting both is an error, so a stale value cannot silently win over a mounted secret.
    """
    file_name = os.environ.get(f"{name}_FILE")
    value = os.environ.get(name)
    if file_name and value:
        raise ImproperlyConfigured(f"Set {name} or {name}_FILE, not both.")
    if file_name:
        try:
            return Path(file_name).read_text(encoding="utf-8").rstrip("\r\n")
        except OSError as exc:
            raise ImproperlyConfigured(f"{name}_FILE={file_name!r} cannot be read: {exc}") from exc
    return value if value is not None else default


# --- Core -------------------------------------------------------------------------------------

DEBUG = env_bool("DJANGO_DEBUG", False)
SECRET_KEY = env_secret("DJANGO_SECRET_KEY")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "DJANGO_SECRET_KEY (or DJANGO_SECRET_KEY_FILE) is required when DJANGO_DEBUG is off."
        )
    SECRET_KEY = "insecure-development-key-only-used-with-DJANGO_DEBUG-on"

ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "rest_framework",
    "rest_framework.authtoken",  # machine tokens for the API
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI and Redoc served by the project, no CDN
    "axes",  # failed logins counted and locked out (establishment/lockout.py)
    "csp",  # the Content-Security-Policy header (docs/security.md)
    # The floors, from the ground up (docs/architecture.md).
    "establishment",
    "ledger",
    "tables",
    "reports",
    "reports.audit",  # the auditor's desk: alerts and the nightly re-audit
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Answers compressed for a browser that accepts it (every one does): a table screen's
    # answer is 0.5-1.2 KB on the wire instead of 1-7.5 KB. Django's own, with its BREACH
    # mitigation (random bytes in the gzip header). Static files: WhiteNoise, precompressed.
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "tables.console.middleware.UserLanguageMiddleware",
    # A session idle for SESSION_IDLE_MINUTES is logged out (establishment/http/idle.py).
    "establishment.http.idle.IdleSessionMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last: a login refused for a lockout gets the lockout's answer (establishment/lockout.py).
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "casino.urls"

# The door (arrêté art. 22, docs/exclusions.md): a player whose identity was never taken is
# refused at the table, as a barred or under-age person is. A house moving its members over
# from paper may admit them until their identity is taken (false); every check is audited.
ADMISSION_REQUIRES_IDENTITY = env_bool("ADMISSION_REQUIRES_IDENTITY", True)
# The demo's landing pages say in two lines what to try in each role (`make demo` sets it).
DEMO_HINTS = env_bool("DJANGO_DEMO_HINTS", False)
WSGI_APPLICATION = "casino.wsgi.application"
ASGI_APPLICATION = "casino.asgi.application"

TEMPLATES: list[dict[str, Any]] = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "establishment.http.navigation.navigation",
                "reports.audit.alerts.open_alerts",
                "establishment.http.demo_hints.demo_hint",
            ],
        },
    },
]

# --- Database ---------------------------------------------------------------------------------
# DATABASE_URL unset: the embedded SQLite file. Configured for several writers (the dev server's
# threads, a Celery worker): BEGIN IMMEDIATE takes the write lock up front, so a writer waits
# for `timeout` seconds (SQLite's busy timeout) instead of failing mid-transaction with
# "database is locked"; WAL lets readers go on while one writer writes.

DATABASE_URL = env_str("DATABASE_URL")
SQLITE_PATH = Path(env_str("SQLITE_PATH", str(BASE_DIR / "var" / "db.sqlite3")))
SQLITE_BUSY_TIMEOUT_SECONDS = env_int("SQLITE_BUSY_TIMEOUT_SECONDS", 20)

if DATABASE_URL:
    DATABASES: dict[str, dict[str, Any]] = {
        "default": dict(
            dj_database_url.parse(
                DATABASE_URL,
                conn_max_age=env_int("DATABASE_CONN_MAX_AGE", 60),
                conn_health_checks=True,
            )
        )
    }
    # Parameters bound by the server, and psycopg prepares each statement the fifth time a
    # connection runs it, so PostgreSQL stops planning it again: the journal's and the table
    # screen's statements are the same on every action (docs/conventions.md, P1: the console
    # under load).
    # Behind a transaction-pooling PgBouncer, set DATABASE_PREPARED_STATEMENTS=false.
    if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and env_bool(
        "DATABASE_PREPARED_STATEMENTS", True
    ):
        DATABASES["default"].setdefault("OPTIONS", {}).update(
            server_side_binding=True, prepare_threshold=5
        )
    # Every server-side cursor here (`QuerySet.iterator`) is read to its end, so the planner is
    # told to plan for all its rows, not the first tenth: for one table's entries the default
    # chose an index walk over all the ledger's entries (0.4 s instead of 14 ms; bench/README.md,
    # "The night's settlement"). Behind PgBouncer, list `options` in its
    # ignore_startup_parameters and set it on the role instead.
    if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
        DATABASES["default"].setdefault("OPTIONS", {}).setdefault(
            "options", "-c cursor_tuple_fraction=1"
        )
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": SQLITE_PATH,
            # Persistent, as for PostgreSQL: closing the last connection to a WAL database
            # checkpoints it, which cost a quarter of each console action under gunicorn.
            "CONN_MAX_AGE": env_int("DATABASE_CONN_MAX_AGE", 60),
            "OPTIONS": {
                "transaction_mode": "IMMEDIATE",
                "timeout": SQLITE_BUSY_TIMEOUT_SECONDS,
                "init_command": (
                    "PRAGMA journal_mode=WAL;PRAGMA synchronous=NORMAL;PRAGMA foreign_keys=ON;"
                ),
            },
        }
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Auth -------------------------------------------------------------------------------------

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Django's model backend, whose per-request user read also brings the roles and the language
# (establishment/staff.py).
# django-axes' backend first: a locked-out username or address is refused before its password
# is even looked at (establishment/lockout.py).
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "establishment.staff.StaffBackend",
]

# --- Failed logins (django-axes, establishment/lockout.py) --------------------------------------
# After LOGIN_FAILURE_LIMIT failures within LOGIN_LOCKOUT_MINUTES, for one username or from one
# address, logins are refused for LOGIN_LOCKOUT_MINUTES; a manager can unlock an account.
AXES_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("LOGIN_LOCKOUT_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_RESET_ON_SUCCESS = True
# A try during the lockout neither counts nor makes it longer: it ends 15 minutes after it began.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_LOCKOUT_CALLABLE = "establishment.lockout.lockout_response"
AXES_CLIENT_IP_CALLABLE = "establishment.lockout.client_address"
AXES_VERBOSE = False
# The access review flags an active account nobody has used for this many days.
ACCESS_REVIEW_UNUSED_DAYS = env_int("ACCESS_REVIEW_UNUSED_DAYS", 90)
# How many proxies stand before the application and add to X-Forwarded-For (nginx: 1).
LOGIN_TRUSTED_PROXIES = env_int("DJANGO_TRUSTED_PROXIES", 0)

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "login"

# --- Internationalisation ---------------------------------------------------------------------

LANGUAGE_CODE = env_str("DJANGO_LANGUAGE_CODE", "en")
LANGUAGES = [("en", _("English")), ("fr", _("French"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env_str("DJANGO_TIME_ZONE", "Europe/Paris")
USE_I18N = True
USE_TZ = True

# --- Static files (whitenoise serves them without nginx in the demo) ----------------------------

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]  # the console's css, js and vendored htmx
STATIC_ROOT = Path(env_str("DJANGO_STATIC_ROOT", str(BASE_DIR / "staticfiles")))
STORAGES: dict[str, dict[str, Any]] = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# --- Cache and sessions -------------------------------------------------------------------------
# With a shared cache (Redis, DJANGO_CACHE_URL=redis://host:6379/1), sessions are read from it
# and written through to the database (`cached_db`): a console action reads its session without
# a database statement, a logout or a password change still ends it everywhere. Without one,
# each process keeps its own small cache and sessions stay in the database alone.

CACHE_URL = env_str("DJANGO_CACHE_URL")
if CACHE_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": CACHE_URL,
            "KEY_PREFIX": "casino",
        }
    }
    SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"

# --- Security (production values unless DEBUG) --------------------------------------------------
# Behind nginx, which terminates TLS and sets X-Forwarded-Proto (deploy/nginx/casino.conf).

SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", not DEBUG)
SESSION_COOKIE_SECURE = env_bool("DJANGO_SECURE_COOKIES", not DEBUG)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SESSION_COOKIE_HTTPONLY = True
# A console left alone this long is logged out (0: never); the screens' polls do not count.
SESSION_IDLE_MINUTES = env_int("SESSION_IDLE_MINUTES", 30)
SECURE_HSTS_SECONDS = env_int("DJANGO_SECURE_HSTS_SECONDS", 0 if DEBUG else 31_536_000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS", not DEBUG)
# Preload asks browsers to hard-code HTTPS for the domain and its subdomains; turn it off for a
# domain that cannot commit to that.
SECURE_HSTS_PRELOAD = env_bool("DJANGO_SECURE_HSTS_PRELOAD", not DEBUG)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
# The Content-Security-Policy (django-csp, docs/security.md): scripts, styles, images and
# requests from this site only; no inline script, no eval (the console's htmx is configured
# without it, templates/base.html), no frames, forms posted here only. The API's readers add
# what their bundles need (establishment/http/urls.py).
CONTENT_SECURITY_POLICY: dict[str, Any] = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}
SILENCED_SYSTEM_CHECKS = env_list("DJANGO_SILENCED_SYSTEM_CHECKS")

# --- REST API ---------------------------------------------------------------------------------

REST_FRAMEWORK: dict[str, Any] = {
    # Tokens for machines (a surveillance room, a cage system), the session for the browsable
    # API. Token first: an unauthenticated request gets 401 with `WWW-Authenticate: Token`.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["establishment.http.permissions.IsStaff"],
    "DEFAULT_PARSER_CLASSES": ["rest_framework.parsers.JSONParser"],
    "DEFAULT_RENDERER_CLASSES": [
        "rest_framework.renderers.JSONRenderer",
        "rest_framework.renderers.BrowsableAPIRenderer",
    ],
    "DEFAULT_SCHEMA_CLASS": "establishment.http.schema.AutoSchema",
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "establishment.http.pagination.Pagination",
    "PAGE_SIZE": 50,
    # One exception handler: every error is {"code", "message", "extra"}
    # (establishment/http/errors.py).
    "EXCEPTION_HANDLER": "establishment.http.api_errors.exception_handler",
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    # Requests per user (per address without one); beyond, 429 `throttled` with Retry-After
    # (establishment/http/throttles.py).
    "DEFAULT_THROTTLE_CLASSES": [
        "establishment.http.throttles.UserThrottle",
        "establishment.http.throttles.AnonymousThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "user": env_str("API_RATE_PER_USER", "1200/min"),
        "anon": env_str("API_RATE_ANONYMOUS", "60/min"),
    },
}
SPECTACULAR_SETTINGS: dict[str, Any] = {
    "TITLE": "Casino back office API",
    "DESCRIPTION": (
        "Everything the croupier console does, for other systems and for auditors: gaming "
        "sessions, tables, seats and players, croupier assignments, sabots, the table's journal "
        "and its coups, recording actions (with the sequence number the client expects next and "
        "an `Idempotency-Key` header), undo, voids, and the books (read only). Every error is "
        '`{"code", "message", "extra"}`; `code` is the rules\' code (E_…) for a refused action.'
    ),
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SERVE_PERMISSIONS": ["rest_framework.permissions.IsAuthenticated"],
    "SCHEMA_PATH_PREFIX": r"/api/",
    "COMPONENT_SPLIT_REQUEST": True,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "establishment.http.schema.error_responses_add",
        "tables.api.links.play_links_add",
    ],
    "ENUM_NAME_OVERRIDES": {
        "AccountKindEnum": "ledger.models.AccountKind",
        "EventKindEnum": "tables.models.EventKind",
        "GameEnum": "tables.models.Game",
        "RoleEnum": "establishment.roles.Role",
        "AssignmentRoleEnum": "tables.models.AssignmentRole",
        "SideEnum": "ledger.models.Side",
        "RegisterKindEnum": "reports.models.RegisterKind",
        "StockKindEnum": "tables.stock_models.StockKind",
    },
}

# --- Celery -----------------------------------------------------------------------------------
# No broker configured: tasks run eagerly in the caller's process (the embedded default).

CELERY_BROKER_URL = env_str("CELERY_BROKER_URL")
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
if CELERY_TASK_ALWAYS_EAGER:
    CELERY_BROKER_URL = "memory://"  # nothing is sent; kombu need not look for a local broker
    # The tasks run in the process that sent them, which ran Django's system checks as it
    # started: Celery's Django fix-up would run them all again before each task (about 50 ms,
    # at every table's close and every night's settlement), as a worker does once at its start.
    os.environ.setdefault("CELERY_SKIP_CHECKS", "true")
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_TIME_LIMIT = env_int("CELERY_TASK_TIME_LIMIT", 300)
CELERY_TASK_SOFT_TIME_LIMIT = env_int("CELERY_TASK_SOFT_TIME_LIMIT", 240)
CELERY_TASK_IGNORE_RESULT = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TIMEZONE = TIME_ZONE
# Redis: a message not acknowledged within this time (its worker died) is delivered again. Keep
# it above the longest task (CELERY_TASK_TIME_LIMIT) so a running task is not started twice.
# Such messages are looked for every interval × throttle seconds (kombu's defaults: 10 × 10).
CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, Any] = {
    "visibility_timeout": env_int("CELERY_VISIBILITY_TIMEOUT", 3600),
    "unacked_restore_interval": env_int("CELERY_UNACKED_RESTORE_INTERVAL", 10),
    "unacked_restore_throttle": env_int("CELERY_UNACKED_RESTORE_THROTTLE", 10),
}
# Celery beat: closed sessions still without a settlement report, counts still without their
# model 11 and archives asked for and not built are sent again (reports.tasks).
SETTLEMENT_SWEEP_SECONDS = env_int("SETTLEMENT_SWEEP_SECONDS", 300)
# How often the open tables' time and participation fees are charged (docs/rules/levy.md, LV-3).
SEATING_FEES_SECONDS = env_int("SEATING_FEES_SECONDS", 60)
SETTLEMENT_SWEEP_GRACE_SECONDS = env_int("SETTLEMENT_SWEEP_GRACE_SECONDS", 120)
# The auditor's desk (docs/audit.md): every morning at REAUDIT_HOUR (the house's time zone)
# the nights closed in the last REAUDIT_DAYS days are replayed against their books, their
# stored reports and registers; a difference raises an alert. Alerts are also raised for a
# croupier with more than ALERT_CORRECTIONS_PER_NIGHT undos and voids in a night, and for a
# séance whose coups per hour fall outside its table's usual pace divided or multiplied by
# ALERT_PACE_FACTOR_PERCENT / 100.
REAUDIT_DAYS = env_int("REAUDIT_DAYS", 7)
REAUDIT_HOUR = env_int("REAUDIT_HOUR", 10)
ALERT_CORRECTIONS_PER_NIGHT = env_int("ALERT_CORRECTIONS_PER_NIGHT", 5)
ALERT_PACE_FACTOR_PERCENT = env_int("ALERT_PACE_FACTOR_PERCENT", 200)
CELERY_BEAT_SCHEDULE: dict[str, dict[str, Any]] = {
    "nightly-reaudit": {
        "task": "audit.reaudit",
        "schedule": crontab(hour=REAUDIT_HOUR, minute=0),
    },
    "settlement-sweep": {
        "task": "reports.settlement_sweep",
        "schedule": float(SETTLEMENT_SWEEP_SECONDS),
    },
    "registers-sweep": {
        "task": "reports.registers_sweep",
        "schedule": float(SETTLEMENT_SWEEP_SECONDS),
    },
    # docs/rules/levy.md, LV-3: a time-fee period that begins while nobody records is charged.
    "seating-fees": {
        "task": "tables.seating_fees_charge",
        "schedule": float(SEATING_FEES_SECONDS),
    },
}

# --- Logging ----------------------------------------------------------------------------------

LOGGING: dict[str, Any] = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"},
    },
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env_str("DJANGO_LOG_LEVEL", "INFO")},
}
