"""A season's registers exported as one self-checking archive (docs/registers.md, "Retention",
art. 80), stored so that it can be downloaded again."""

from __future__ import annotations

import uuid

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("reports", "0003_registers"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="RegisterArchive",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("public_id", models.UUIDField(default=uuid.uuid4, editable=False, unique=True)),
                ("season", models.PositiveIntegerField(verbose_name="season")),
                (
                    "status",
                    models.CharField(
                        choices=[
                            ("pending", "Queued"),
                            ("building", "Being prepared"),
                            ("ready", "Ready"),
                            ("failed", "Failed"),
                        ],
                        default="pending",
                        max_length=16,
                        verbose_name="status",
                    ),
                ),
                ("attempts", models.PositiveIntegerField(default=0, verbose_name="attempts")),
                ("requested_at", models.DateTimeField(verbose_name="requested at")),
                (
                    "started_at",
                    models.DateTimeField(blank=True, null=True, verbose_name="started at"),
                ),
                ("built_at", models.DateTimeField(blank=True, null=True, verbose_name="built at")),
                ("data", models.BinaryField(blank=True, default=b"", verbose_name="data")),
                ("sha256", models.CharField(blank=True, max_length=64, verbose_name="SHA-256")),
                (
                    "manifest_sha256",
                    models.CharField(
                        blank=True, max_length=64, verbose_name="SHA-256 of the manifest"
                    ),
                ),
                ("registers", models.PositiveIntegerField(default=0, verbose_name="registers")),
                ("error", models.TextField(blank=True, verbose_name="error")),
                (
                    "requested_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="register_archives",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="requested by",
                    ),
                ),
            ],
            options={
                "verbose_name": "archive of a season's registers",
                "verbose_name_plural": "archives of a season's registers",
                "ordering": ["-requested_at", "-pk"],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(
                            ("status__in", ["pending", "building", "ready", "failed"])
                        ),
                        name="reports_registerarchive_status_valid",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            models.Q(("status", "ready"), _negated=True),
                            models.Q(
                                models.Q(("sha256", ""), _negated=True),
                                models.Q(("manifest_sha256", ""), _negated=True),
                                ("built_at__isnull", False),
                            ),
                            _connector="OR",
                        ),
                        name="reports_registerarchive_ready_is_complete",
                    ),
                ],
            },
        ),
    ]
