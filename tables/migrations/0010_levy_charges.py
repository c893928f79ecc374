"""The levy charges outside the coups: time and participation fees (docs/rules/levy.md, LV-3)."""

from __future__ import annotations

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("establishment", "0009_audit_log_indexes"),
        ("ledger", "0005_refuse_truncate"),
        ("tables", "0009_refuse_truncate"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="LevyCharge",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "levy_model",
                    models.CharField(
                        choices=[
                            ("time_fee", "Time fee"),
                            ("participation_fee", "Participation fee"),
                        ],
                        max_length=32,
                        verbose_name="levy model",
                    ),
                ),
                ("period_start", models.DateTimeField(verbose_name="period from")),
                ("period_end", models.DateTimeField(verbose_name="period to")),
                ("amount", models.BigIntegerField(verbose_name="amount (chips)")),
                ("charged_at", models.DateTimeField(verbose_name="charged at")),
                (
                    "charged_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="levy_charges",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="charged by",
                    ),
                ),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="levy_charges",
                        to="establishment.player",
                        verbose_name="player",
                    ),
                ),
                (
                    "table_session",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="levy_charges",
                        to="tables.tablesession",
                    ),
                ),
                (
                    "transaction",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="levy_charge",
                        to="ledger.transaction",
                        verbose_name="ledger transaction",
                    ),
                ),
            ],
            options={
                "verbose_name": "levy charge",
                "verbose_name_plural": "levy charges",
                "ordering": ["charged_at", "pk"],
                "constraints": [
                    models.UniqueConstraint(
                        condition=models.Q(("levy_model", "participation_fee")),
                        fields=("player", "period_start"),
                        name="tables_levycharge_participation_once_a_day",
                        violation_error_message="This player has paid the day's participation fee.",
                    ),
                    models.UniqueConstraint(
                        condition=models.Q(("levy_model", "time_fee")),
                        fields=("table_session", "player", "period_start"),
                        name="tables_levycharge_time_fee_once_a_period",
                        violation_error_message="This player has paid the time fee for this period.",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("amount__gte", 1)),
                        name="tables_levycharge_amount_positive",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            ("period_end__isnull", True),
                            ("period_end__gte", models.F("period_start")),
                            _connector="OR",
                        ),
                        name="tables_levycharge_period",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("levy_model__in", ["time_fee", "participation_fee"])),
                        name="tables_levycharge_model_valid",
                    ),
                ],
            },
        ),
    ]
