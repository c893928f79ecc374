"""`manage.py db_grant_app_role ROLE`: the application's role given its privileges on this
PostgreSQL database (establishment.db_roles; docs/security.md): SELECT and INSERT on the
history, ordinary reads and writes elsewhere, the sequences' USAGE. Run by the owner after each
`migrate`; running it again gives the same privileges."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

from establishment.db_roles import app_role_grant
from establishment.errors import DomainError


class Command(BaseCommand):
    help = "Grant the application's database role its privileges (PostgreSQL; run after migrate)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("role", help="The application's role, such as casino_app.")
        parser.add_argument("--database", default="default", help="The database alias.")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            granted = app_role_grant(options["role"], using=options["database"])
        except DomainError as error:
            raise CommandError(error.message) from None
        grants = "; ".join(
            _("%(privileges)s on %(count)d tables") % {"privileges": p, "count": len(tables)}
            for p, tables in granted.tables.items()
        )
        self.stdout.write(
            _("%(role)s on %(database)s: %(grants)s; USAGE, SELECT on the sequences.")
            % {"role": granted.role, "database": granted.database, "grants": grants}
        )
