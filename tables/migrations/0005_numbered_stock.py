"""The house's numbered sabots and packs (model 19; docs/registers.md): the stock, its assignments
to a table's séance, and the sabot each shoe was formed from."""

from __future__ import annotations

import uuid

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("establishment", "0006_house_settings"),
        ("tables", "0004_duty_and_close"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="StockItem",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("public_id", models.UUIDField(default=uuid.uuid4, editable=False, unique=True)),
                (
                    "kind",
                    models.CharField(
                        choices=[("sabot", "Sabot"), ("pack", "Pack of cards")],
                        max_length=8,
                        verbose_name="kind",
                    ),
                ),
                ("number", models.PositiveIntegerField(verbose_name="number")),
                ("decks", models.PositiveSmallIntegerField(verbose_name="decks")),
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
                        related_name="stock_destroyed",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="destroyed by",
                    ),
                ),
                (
                    "received_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="stock_received",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="received by",
                    ),
                ),
            ],
            options={
                "verbose_name": "numbered sabot or pack",
                "verbose_name_plural": "numbered sabots and packs",
                "ordering": ["kind", "number"],
            },
        ),
        migrations.CreateModel(
            name="StockAssignment",
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
                        related_name="stock_assigned",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="assigned by",
                    ),
                ),
                (
                    "returned_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="stock_returned",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="returned by",
                    ),
                ),
                (
                    "table_session",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="stock_assignments",
                        to="tables.tablesession",
                        verbose_name="table session",
                    ),
                ),
                (
                    "item",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="assignments",
                        to="tables.stockitem",
                        verbose_name="numbered sabot or pack",
                    ),
                ),
            ],
            options={
                "verbose_name": "assignment of a numbered sabot or pack",
                "verbose_name_plural": "assignments of numbered sabots and packs",
                "ordering": ["table_session", "assigned_at", "pk"],
            },
        ),
        migrations.AddField(
            model_name="sabot",
            name="stock_item",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="sabots",
                to="tables.stockitem",
                verbose_name="numbered sabot or pack",
            ),
        ),
        migrations.AddConstraint(
            model_name="sabot",
            constraint=models.UniqueConstraint(
                condition=models.Q(("stock_item__isnull", False)),
                fields=("stock_item",),
                name="tables_sabot_stock_item_used_once",
                violation_error_message="This numbered sabot or pack has been used already.",
            ),
        ),
        migrations.AddConstraint(
            model_name="stockitem",
            constraint=models.UniqueConstraint(
                fields=("kind", "number"), name="tables_stockitem_number_unique"
            ),
        ),
        migrations.AddConstraint(
            model_name="stockitem",
            constraint=models.CheckConstraint(
                condition=models.Q(("number__gte", 1)), name="tables_stockitem_number_positive"
            ),
        ),
        migrations.AddConstraint(
            model_name="stockitem",
            constraint=models.CheckConstraint(
                condition=models.Q(("decks__gte", 1)), name="tables_stockitem_decks_positive"
            ),
        ),
        migrations.AddConstraint(
            model_name="stockitem",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("destroyed_at__isnull", True), ("destroyed_by__isnull", True)),
                    models.Q(("destroyed_at__isnull", False), ("destroyed_by__isnull", False)),
                    _connector="OR",
                ),
                name="tables_stockitem_destroyed_at_and_by_together",
            ),
        ),
        migrations.AddConstraint(
            model_name="stockassignment",
            constraint=models.UniqueConstraint(
                condition=models.Q(("returned_at__isnull", True)),
                fields=("item",),
                name="tables_stockassignment_one_table_at_a_time",
                violation_error_message="This number is already at a table.",
            ),
        ),
        migrations.AddConstraint(
            model_name="stockassignment",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("returned_at__isnull", True), ("returned_by__isnull", True)),
                    models.Q(("returned_at__isnull", False), ("returned_by__isnull", False)),
                    _connector="OR",
                ),
                name="tables_stockassignment_returned_at_and_by_together",
            ),
        ),
        migrations.AddConstraint(
            model_name="stockassignment",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("returned_at__isnull", True),
                    ("returned_at__gte", models.F("assigned_at")),
                    _connector="OR",
                ),
                name="tables_stockassignment_returned_after_assigned",
            ),
        ),
    ]
