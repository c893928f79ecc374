"""What the demo commands of every floor share (`demo_data`, `demo_settlement`): they write demo
data, so they run only with DEBUG on, or when told to (tests)."""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.contrib.auth.models import Group, User
from django.core.management.base import BaseCommand, CommandError, CommandParser

from establishment.door import exclusion_add
from establishment.models import ExclusionEntry, Player

if TYPE_CHECKING:
    from establishment.roles import Role


def demo_password(username: str) -> str:
    """Every demo account's password (README, "Using it")."""
    return f"{username}-demo"


def demo_user(username: str, *roles: Role) -> User:
    """A demo staff member with `roles`, with the demo's password when created here (the
    demo_data command sets it again on every run)."""
    user, created = User.objects.get_or_create(
        username=username, defaults={"first_name": username.capitalize()}
    )
    if created:
        user.set_password(demo_password(username))
        user.save()
    for role in roles:
        user.groups.add(Group.objects.get_or_create(name=role)[0])
    return user


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

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEBUG and not options["allow_without_debug"]:
            raise CommandError(self.refusal)
        self.demo()

    def demo(self) -> None:
        raise NotImplementedError
