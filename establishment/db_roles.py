"""The two database roles of a PostgreSQL installation (docs/security.md, "History that cannot
be removed"): the owner, who owns the database and its tables and runs `migrate`, and the
application's role, which may read and add to the history and nothing more there.

The history is one list, here: every `AppendOnlyModel` (the audit log, the house's settings,
the books, the table's history, the counts, sign-offs and registers of the reports), each of
them held by triggers that refuse UPDATE, DELETE and TRUNCATE (the SQL beside the migrations).
`manage.py db_grant_app_role` and the tests read it from here.

The grants, run by the owner after each `migrate` (a new table has no grant until then):

- history tables: SELECT and INSERT only (no UPDATE, DELETE, TRUNCATE);
- every other table of the schema: SELECT, INSERT, UPDATE, DELETE (no TRUNCATE), except
  Django's record of the migrations, which the application only reads;
- sequences: USAGE and SELECT (`nextval` for a new row; never `setval`).

Everything the role held on the schema's tables and sequences is revoked first, so running the
grants again after a change gives exactly the privileges above (idempotent). The role must not
be a superuser, bypass row security, nor be (or be a member of) the owner of the database or of
any of its tables: an owner may disable or drop the triggers, a superuser may switch them off
(`session_replication_role`). Such a role is refused, with what to do.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.apps import apps
from django.db import connections, models, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.utils.translation import gettext as _

from establishment.errors import InvalidStateError
from establishment.models import AppendOnlyModel

HISTORY_PRIVILEGES = "SELECT, INSERT"
ORDINARY_PRIVILEGES = "SELECT, INSERT, UPDATE, DELETE"
SEQUENCE_PRIVILEGES = "USAGE, SELECT"
# Written by `migrate` (the owner) only.
READ_ONLY_TABLES = frozenset({"django_migrations"})


def history_models() -> list[type[models.Model]]:
    """Every concrete append-only model of the installed apps, by table name."""
    found = [
        model
        for model in apps.get_models()
        if issubclass(model, AppendOnlyModel) and not model._meta.proxy and model._meta.managed
    ]
    return sorted(found, key=lambda model: model._meta.db_table)


def history_tables() -> list[str]:
    """The tables of `history_models`: SELECT and INSERT only for the application's role."""
    return [model._meta.db_table for model in history_models()]


@dataclass(frozen=True)
class Granted:
    """What `app_role_grant` gave the role: each set of privileges and its tables."""

    role: str
    database: str
    tables: dict[str, tuple[str, ...]]


def _role_check(db: BaseDatabaseWrapper, role: str) -> None:
    """Refuse a role that does not exist or could switch the history's triggers off."""
    with db.cursor() as cursor:
        cursor.execute(
            "SELECT r.rolsuper, r.rolbypassrls, r.rolname = current_user,"
            " pg_has_role(r.oid, d.datdba, 'MEMBER'),"
            " EXISTS (SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
            "  WHERE n.nspname = current_schema() AND pg_has_role(r.oid, c.relowner, 'MEMBER'))"
            " FROM pg_roles r, pg_database d"
            " WHERE r.rolname = %s AND d.datname = current_database()",
            [role],
        )
        row = cursor.fetchone()
    if row is None:
        raise InvalidStateError(
            _(
                "There is no database role %(role)s. Expected an existing role: create it first"
                " (deploy/postgres/roles.sh)."
            )
            % {"role": role}
        )
    superuser, bypass_rls, is_self, owns_database, owns_tables = row
    if superuser or bypass_rls:
        raise InvalidStateError(
            _(
                "The role %(role)s is a superuser or bypasses row security: it could switch the"
                " history's triggers off. Expected a role with NOSUPERUSER NOBYPASSRLS."
            )
            % {"role": role}
        )
    if is_self:
        raise InvalidStateError(
            _(
                "This command runs as %(role)s itself. Expected it run as the owner (the role"
                " that runs migrate), naming the application's role."
            )
            % {"role": role}
        )
    if owns_database or owns_tables:
        raise InvalidStateError(
            _(
                "The role %(role)s owns the database or its tables (or is a member of their"
                " owner): it could disable the history's triggers. Expected a role that owns"
                " nothing, other than the one that runs migrate."
            )
            % {"role": role}
        )


def _schema_tables(db: BaseDatabaseWrapper) -> list[str]:
    with db.cursor() as cursor:
        cursor.execute(
            "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
            " WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p', 'v', 'm')"
            " ORDER BY c.relname"
        )
        return [name for (name,) in cursor.fetchall()]


def app_role_grant(role: str, *, using: str = "default") -> Granted:
    """Give `role` the application's privileges on the database of `using` (PostgreSQL only),
    as the owner who runs it; what it was given. In one transaction."""
    db = connections[using]
    if db.vendor != "postgresql":
        raise InvalidStateError(
            _(
                "Database roles are PostgreSQL's; this database is %(vendor)s. Expected"
                " DATABASE_URL to name a PostgreSQL database."
            )
            % {"vendor": db.vendor}
        )
    quote = db.ops.quote_name
    with transaction.atomic(using=using):
        _role_check(db, role)
        tables = _schema_tables(db)
        history = history_tables()
        missing = sorted(set(history) - set(tables))
        if missing:
            raise InvalidStateError(
                _("The tables %(tables)s are missing. Expected the migrations applied first.")
                % {"tables": ", ".join(missing)}
            )
        who = quote(role)
        with db.cursor() as cursor:
            cursor.execute("SELECT current_database(), current_schema()")
            database, schema = cursor.fetchone()
            cursor.execute(f"GRANT CONNECT ON DATABASE {quote(database)} TO {who}")
            cursor.execute(f"GRANT USAGE ON SCHEMA {quote(schema)} TO {who}")
            granted: dict[str, list[str]] = {}
            for table in tables:
                cursor.execute(f"REVOKE ALL ON TABLE {quote(table)} FROM {who}")
                if table in history:
                    privileges = HISTORY_PRIVILEGES
                elif table in READ_ONLY_TABLES:
                    privileges = "SELECT"
                else:
                    privileges = ORDINARY_PRIVILEGES
                cursor.execute(f"GRANT {privileges} ON TABLE {quote(table)} TO {who}")
                granted.setdefault(privileges, []).append(table)
            cursor.execute(f"REVOKE ALL ON ALL SEQUENCES IN SCHEMA {quote(schema)} FROM {who}")
            cursor.execute(
                f"GRANT {SEQUENCE_PRIVILEGES} ON ALL SEQUENCES IN SCHEMA {quote(schema)} TO {who}"
            )
    return Granted(
        role=role,
        database=database,
        tables={privileges: tuple(names) for privileges, names in granted.items()},
    )
