"""The house's ticket books (arts. 56-1, 59, 82–83; docs/registers.md, "Tickets"): the stock of
books of 200 tickets, cut on the hundreds, and their assignments to a table's séance."""

from __future__ import annotations

import uuid

import django.db.models.deletion
import django.db.models.expressions
import django.db.models.lookups
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0006_seance_house_and_journee"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="TicketBook",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("public_id", models.UUIDField(default=uuid.uuid4, editable=False, unique=True)),
                (
                    "face_cents",
                    models.PositiveIntegerField(
                        choices=[(10, "0,10 €"), (100, "1 €"), (1000, "10 €"), (10000, "100 €")],
                        verbose_name="face value",
                    ),
                ),
                ("first_serial", models.PositiveIntegerField(verbose_name="first serial")),
                ("received_at", models.DateTimeField(verbose_name="received at")),
                ("received_from", models.CharField(max_length=200, verbose_name="received from")),
                (
                    "destroyed_at",
                    models.DateTimeField(blank=True, null=True, verbose_name="destroyed at"),
                ),
                (
                    "destroyed_reason",
                    models.TextField(
                        blank=True, default="", verbose_name="reason for the destruction"
                    ),
                ),
                (
                    "destroyed_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="ticket_books_destroyed",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="destroyed by",
                    ),
                ),
                (
                    "received_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="ticket_books_received",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="received by",
                    ),
                ),
            ],
            options={
                "verbose_name": "ticket book",
                "verbose_name_plural": "ticket books",
                "ordering": ["face_cents", "first_serial"],
            },
        ),
        migrations.CreateModel(
            name="TicketBookAssignment",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("assigned_at", models.DateTimeField(verbose_name="assigned at")),
                (
                    "returned_at",
                    models.DateTimeField(blank=True, null=True, verbose_name="returned at"),
                ),
                (
                    "assigned_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="ticket_books_assigned",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="assigned by",
                    ),
                ),
                (
                    "book",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="assignments",
                        to="tables.ticketbook",
                        verbose_name="ticket book",
                    ),
                ),
                (
                    "returned_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="ticket_books_returned",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="returned by",
                    ),
                ),
                (
                    "table_session",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="ticket_book_assignments",
                        to="tables.tablesession",
                        verbose_name="table session",
                    ),
                ),
            ],
            options={
                "verbose_name": "assignment of a ticket book",
                "verbose_name_plural": "assignments of ticket books",
                "ordering": ["table_session", "assigned_at", "pk"],
            },
        ),
        migrations.AddConstraint(
            model_name="ticketbook",
            constraint=models.UniqueConstraint(
                fields=("face_cents", "first_serial"), name="tables_ticketbook_serial_unique"
            ),
        ),
        migrations.AddConstraint(
            model_name="ticketbook",
            constraint=models.CheckConstraint(
                condition=models.Q(("face_cents__in", (10, 100, 1000, 10000))),
                name="tables_ticketbook_face_value",
            ),
        ),
        migrations.AddConstraint(
            model_name="ticketbook",
            constraint=models.CheckConstraint(
                condition=models.Q(("first_serial__gte", 1)),
                name="tables_ticketbook_first_serial_positive",
            ),
        ),
        migrations.AddConstraint(
            model_name="ticketbook",
            constraint=models.CheckConstraint(
                condition=models.Q(("first_serial__lte", 999801)),
                name="tables_ticketbook_last_serial_at_most_a_million",
            ),
        ),
        migrations.AddConstraint(
            model_name="ticketbook",
            constraint=models.CheckConstraint(
                condition=django.db.models.lookups.Exact(
                    django.db.models.expressions.CombinedExpression(
                        models.F("first_serial"), "%%", models.Value(200)
                    ),
                    1,
                ),
                name="tables_ticketbook_books_of_200",
            ),
        ),
        migrations.AddConstraint(
            model_name="ticketbook",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("destroyed_at__isnull", True), ("destroyed_by__isnull", True)),
                    models.Q(("destroyed_at__isnull", False), ("destroyed_by__isnull", False)),
                    _connector="OR",
                ),
                name="tables_ticketbook_destroyed_at_and_by_together",
            ),
        ),
        migrations.AddConstraint(
            model_name="ticketbookassignment",
            constraint=models.UniqueConstraint(
                condition=models.Q(("returned_at__isnull", True)),
                fields=("book",),
                name="tables_ticketbookassignment_one_table_at_a_time",
                violation_error_message="This ticket book is already at a table.",
            ),
        ),
        migrations.AddConstraint(
            model_name="ticketbookassignment",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("returned_at__isnull", True), ("returned_by__isnull", True)),
                    models.Q(("returned_at__isnull", False), ("returned_by__isnull", False)),
                    _connector="OR",
                ),
                name="tables_ticketbookassignment_returned_at_and_by_together",
            ),
        ),
        migrations.AddConstraint(
            model_name="ticketbookassignment",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("returned_at__isnull", True),
                    ("returned_at__gte", models.F("assigned_at")),
                    _connector="OR",
                ),
                name="tables_ticketbookassignment_returned_after_assigned",
            ),
        ),
    ]
