"""The house's settings, one version after another (docs/registers.md), append-only in the
database too (UPDATE and DELETE refused; the SQL beside this file, run by
establishment.sql_scripts). The installation's defaults are stored when the first séance opens
(establishment.house.house_settings_in_force)."""

from __future__ import annotations

import uuid

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

import establishment.models
from establishment.sql_scripts import sql_script_steps

triggers_on, triggers_off = sql_script_steps(__file__)


class Migration(migrations.Migration):
    dependencies = [
        ("establishment", "0005_search_trigrams"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="HouseSettings",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("public_id", models.UUIDField(default=uuid.uuid4, editable=False, unique=True)),
                (
                    "currency",
                    models.CharField(
                        choices=[("EUR", "Euro (EUR)"), ("GBP", "Pound sterling (GBP)")],
                        default="EUR",
                        max_length=3,
                        verbose_name="currency",
                    ),
                ),
                (
                    "cents_per_chip",
                    models.PositiveIntegerField(
                        default=1,
                        help_text="In the currency's smallest unit (cents, pence): 1 when a chip is a cent.",
                        verbose_name="value of one chip",
                    ),
                ),
                (
                    "journee_turns_at",
                    models.TimeField(
                        default=establishment.models.journee_turns_default,
                        help_text="The hour at which one gaming day (journée) ends and the next begins.",
                        verbose_name="the journée turns at",
                    ),
                ),
                (
                    "time_zone",
                    models.CharField(
                        default="Europe/Paris", max_length=64, verbose_name="time zone"
                    ),
                ),
                (
                    "levy_tie_rule",
                    models.CharField(
                        choices=[
                            ("up", "Halfway: up"),
                            ("down", "Halfway: down"),
                            ("even", "Halfway: to the even step"),
                        ],
                        default="up",
                        max_length=8,
                        verbose_name="rounding of a levy halfway",
                    ),
                ),
                (
                    "levy_record",
                    models.CharField(
                        choices=[
                            ("machine", "The machine's historique (art. 56-1)"),
                            ("tickets", "Tickets detached at each winning coup (art. 59)"),
                            ("off", "Neither (a house outside the arrêté)"),
                        ],
                        default="machine",
                        max_length=8,
                        verbose_name="how each levy is kept",
                    ),
                ),
                ("changed_at", models.DateTimeField(verbose_name="in force from")),
                ("reason", models.TextField(blank=True, verbose_name="reason")),
                (
                    "changed_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="house_settings_changes",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="changed by",
                    ),
                ),
            ],
            options={
                "verbose_name": "house settings",
                "verbose_name_plural": "house settings",
                "ordering": ["pk"],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("cents_per_chip__gte", 1)),
                        name="establishment_house_chip_has_a_value",
                    )
                ],
            },
        ),
        migrations.RunPython(triggers_on, triggers_off, elidable=False),
    ]
