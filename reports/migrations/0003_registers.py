"""The registers of the arrêté du 14 mai 2007, signed, frozen and chained (docs/registers.md), and
their signatures; append-only in the database too (the SQL beside this file)."""

from __future__ import annotations

import uuid

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from establishment.sql_scripts import sql_script_steps

triggers_on, triggers_off = sql_script_steps(__file__)


class Migration(migrations.Migration):
    dependencies = [
        ("reports", "0002_count_per_seance"),
        ("tables", "0006_seance_house_and_journee"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="Register",
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
                        choices=[
                            ("model_11", "Carnet d'enregistrement des cagnottes (model 11)"),
                            ("model_12", "Registre de contrôle (model 12)"),
                            ("model_13", "Carnet des prélèvements (model 13)"),
                        ],
                        max_length=16,
                        verbose_name="register",
                    ),
                ),
                ("key", models.CharField(max_length=64, verbose_name="which")),
                ("version", models.PositiveIntegerField(default=1, verbose_name="version")),
                ("content", models.TextField(verbose_name="content")),
                ("sha256", models.CharField(max_length=64, verbose_name="SHA-256")),
                (
                    "previous_sha256",
                    models.CharField(
                        max_length=64, verbose_name="SHA-256 of the previous register"
                    ),
                ),
                ("stored_at", models.DateTimeField(verbose_name="stored at")),
                (
                    "reason",
                    models.TextField(blank=True, verbose_name="reason for the rectification"),
                ),
                (
                    "approved_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="registers_approved",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="rectification approved by",
                    ),
                ),
                (
                    "rectifies",
                    models.OneToOneField(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="rectified_by",
                        to="reports.register",
                        verbose_name="rectifies",
                    ),
                ),
                (
                    "table_session",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="registers",
                        to="tables.tablesession",
                        verbose_name="séance",
                    ),
                ),
            ],
            options={
                "verbose_name": "register",
                "verbose_name_plural": "registers",
                "ordering": ["kind", "pk"],
            },
        ),
        migrations.CreateModel(
            name="RegisterSignature",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("signed_at", models.DateTimeField(verbose_name="signed at")),
                ("signed_as", models.CharField(max_length=32, verbose_name="signed as")),
                ("signed_sha256", models.CharField(max_length=64, verbose_name="signed SHA-256")),
                (
                    "register",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="signatures",
                        to="reports.register",
                        verbose_name="register",
                    ),
                ),
                (
                    "signed_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="register_signatures",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="signed by",
                    ),
                ),
            ],
            options={
                "verbose_name": "signature of a register",
                "verbose_name_plural": "signatures of registers",
                "ordering": ["register", "signed_at", "pk"],
            },
        ),
        migrations.AddConstraint(
            model_name="register",
            constraint=models.UniqueConstraint(
                fields=("kind", "key", "version"), name="reports_register_version_unique"
            ),
        ),
        migrations.AddConstraint(
            model_name="register",
            constraint=models.UniqueConstraint(
                fields=("kind", "previous_sha256"), name="reports_register_chain_unique"
            ),
        ),
        migrations.AddConstraint(
            model_name="register",
            constraint=models.CheckConstraint(
                condition=models.Q(("kind__in", ["model_11", "model_12", "model_13"])),
                name="reports_register_kind_valid",
            ),
        ),
        migrations.AddConstraint(
            model_name="register",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("rectifies__isnull", True), ("version", 1)),
                    models.Q(
                        ("approved_by__isnull", False),
                        ("rectifies__isnull", False),
                        ("version__gt", 1),
                    ),
                    _connector="OR",
                ),
                name="reports_register_rectification_names_the_old",
            ),
        ),
        migrations.AddConstraint(
            model_name="registersignature",
            constraint=models.UniqueConstraint(
                fields=("register", "signed_by"), name="reports_registersignature_once_each"
            ),
        ),
        migrations.RunPython(triggers_on, triggers_off, elidable=False),
    ]
