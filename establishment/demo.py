"""What the demo commands of every floor share (`demo_data`, `demo_settlement`): they write demo
data, so they run only with DEBUG on, or when told to (tests)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, date, datetime, timedelta
from typing import TYPE_CHECKING, Any
from unittest import mock

from django.conf import settings
from django.contrib.auth.hashers import PBKDF2PasswordHasher, get_hasher
from django.contrib.auth.models import Group, User
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.test.utils import override_settings
from django.utils import timezone

from establishment.door import exclusion_add
from establishment.models import ExclusionEntry, Player

if TYPE_CHECKING:
    from establishment.roles import Role


def demo_password(username: str) -> str:
    """Every demo account's password (README, "Using it")."""
    return f"{username}-demo"


# The demo's passwords are public (README, "Using it"), and its loaders confirm the demo staff's
# identity hundreds of times (every count, witness, signature and approval of a month), each a
# full PBKDF2 (about 0.4 s) otherwise: they are kept hashed with fewer iterations. Django hashes
# a password again with its full iterations at the first login (the hasher's `must_update`).
DEMO_HASH_ITERATIONS = 1_000


def demo_password_set(user: User) -> None:
    """Give `user` the demo's password (`demo_password`), hashed cheaply (not saved)."""
    password = demo_password(user.username)
    hasher = get_hasher()
    if isinstance(hasher, PBKDF2PasswordHasher):
        user.password = hasher.encode(password, hasher.salt(), iterations=DEMO_HASH_ITERATIONS)
    else:
        user.set_password(password)


def demo_user(username: str, *roles: Role) -> User:
    """A demo staff member with `roles`, with the demo's password when created here (the
    demo_data command sets it again on every run)."""
    user, created = User.objects.get_or_create(
        username=username, defaults={"first_name": username.capitalize()}
    )
    if created:
        demo_password_set(user)
        user.save()
    for role in roles:
        user.groups.add(Group.objects.get_or_create(name=role)[0])
    return user


class DemoClock:
    """The demo's clock: what `timezone.now` answers while `running`, so that every row the
    services write while a demo night is played carries the night's time. Only the demo
    commands use it, never a server."""

    def __init__(self, moment: datetime) -> None:
        self.moment = moment

    def now(self) -> datetime:
        return self.moment.astimezone(UTC)  # as Django's own `now`, in UTC

    def at(self, moment: datetime) -> None:
        """On to `moment`, never back."""
        self.moment = max(self.moment, moment)

    def tick(self, seconds: float) -> None:
        self.moment += timedelta(seconds=seconds)

    @contextmanager
    def running(self) -> Iterator[DemoClock]:
        with mock.patch.object(timezone, "now", self.now):
            yield self


# README, "Using it": a member registered years ago, barred since (art. 22).
BARRED = ("MARTIN", "Paul", date(1975, 3, 14))
BARRED_MEMBER = "DEMO-0099"


def barred_member_register(added_by: User) -> Player:
    """The demo's barred member: registered, and on the list of art. 22, so that the door
    refuses him again and so does a table if his number is typed in."""
    player, _created = Player.objects.get_or_create(
        member_number=BARRED_MEMBER,
        defaults={
            "name": f"{BARRED[1]} {BARRED[0].capitalize()}",
            "surname": BARRED[0],
            "first_names": BARRED[1],
            "birth_date": BARRED[2],
        },
    )
    if not ExclusionEntry.objects.filter(surname=BARRED[0], birth_date=BARRED[2]).exists():
        exclusion_add(
            surname=BARRED[0],
            first_names=BARRED[1],
            birth_date=BARRED[2],
            source="ministry",
            reference="demo",
            added_by=added_by,
        )
    return player


class DemoCommand(BaseCommand):
    """A command that writes demo data: refused (`refusal`) unless DEBUG is on or
    `--allow-without-debug` is given; then `demo` does the work."""

    allow_help = "Run even when DEBUG is off (tests)."
    refusal = "This command writes demo data: run it with DJANGO_DEBUG=true."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--allow-without-debug", action="store_true", help=self.allow_help)

    @staticmethod
    def add_count(parser: CommandParser, option: str, default: int, help: str) -> None:
        """A whole-number option of the demo (how many nights or coups, the simulator's seed);
        `help` shows its default where it says `%(default)s`."""
        parser.add_argument(option, type=int, default=default, help=help)

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEBUG and not options["allow_without_debug"]:
            raise CommandError(self.refusal)
        self.options = options  # what `demo` reads of the command line
        # The loaders write hundreds of thousands of rows: not into the query log that Django
        # keeps while DEBUG is on.
        with override_settings(DEBUG=False):
            self.demo()

    def demo(self) -> None:
        raise NotImplementedError
