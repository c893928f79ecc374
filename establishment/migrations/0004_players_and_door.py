"""Players and the door (issue 13): the player's identity, the exclusion list (arrêté du
14 mai 2007, art. 22) and its imports, and one gaming session open at a time (a partial unique
index: CREATE UNIQUE INDEX ... ((1)) WHERE closed_at IS NULL, on PostgreSQL and SQLite alike).

The identity fields are blank for the players already registered (`player_create`);
`establishment.door.player_register` requires them all.
"""

from __future__ import annotations

import uuid

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("establishment", "0003_reception_role"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="ExclusionEntry",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("public_id", models.UUIDField(default=uuid.uuid4, editable=False, unique=True)),
                ("surname", models.CharField(max_length=100, verbose_name="surname")),
                ("first_names", models.CharField(max_length=150, verbose_name="first names")),
                ("birth_date", models.DateField(verbose_name="date of birth")),
                (
                    "birth_place",
                    models.CharField(blank=True, max_length=150, verbose_name="place of birth"),
                ),
                ("surname_key", models.CharField(editable=False, max_length=100)),
                ("first_names_key", models.CharField(editable=False, max_length=150)),
                (
                    "source",
                    models.CharField(
                        choices=[
                            ("ministry", "Ministry of the Interior list"),
                            ("self_exclusion", "Self-exclusion"),
                            ("house", "House decision"),
                        ],
                        max_length=32,
                        verbose_name="source",
                    ),
                ),
                (
                    "reference",
                    models.CharField(
                        blank=True,
                        help_text="The list's own reference for this person, if it gives one.",
                        max_length=64,
                        verbose_name="reference",
                    ),
                ),
                ("effective_from", models.DateField(verbose_name="effective from")),
                ("until", models.DateField(blank=True, null=True, verbose_name="until")),
                ("added_at", models.DateTimeField(verbose_name="added at")),
                (
                    "lifted_at",
                    models.DateTimeField(blank=True, null=True, verbose_name="lifted at"),
                ),
                (
                    "lift_reason",
                    models.CharField(blank=True, max_length=500, verbose_name="reason for lifting"),
                ),
            ],
            options={
                "verbose_name": "exclusion list entry",
                "verbose_name_plural": "exclusion list entries",
                "ordering": ["surname_key", "first_names_key", "birth_date", "pk"],
            },
        ),
        migrations.CreateModel(
            name="ExclusionImport",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("public_id", models.UUIDField(default=uuid.uuid4, editable=False, unique=True)),
                ("file_name", models.CharField(max_length=255, verbose_name="file name")),
                ("content", models.TextField(blank=True, verbose_name="content")),
                ("created_at", models.DateTimeField(auto_now_add=True, verbose_name="at")),
                (
                    "status",
                    models.CharField(
                        choices=[
                            ("pending", "Waiting"),
                            ("running", "Importing"),
                            ("done", "Imported"),
                            ("refused", "Refused: the file has errors"),
                        ],
                        default="pending",
                        max_length=16,
                        verbose_name="status",
                    ),
                ),
                ("lines_total", models.PositiveIntegerField(default=0, verbose_name="lines")),
                (
                    "lines_done",
                    models.PositiveIntegerField(default=0, verbose_name="lines imported"),
                ),
                ("errors", models.JSONField(blank=True, default=list, verbose_name="errors")),
                (
                    "finished_at",
                    models.DateTimeField(blank=True, null=True, verbose_name="finished at"),
                ),
            ],
            options={
                "verbose_name": "exclusion list import",
                "verbose_name_plural": "exclusion list imports",
                "ordering": ["-created_at", "-pk"],
            },
        ),
        migrations.AddField(
            model_name="player",
            name="address",
            field=models.TextField(blank=True, max_length=500, verbose_name="address"),
        ),
        migrations.AddField(
            model_name="player",
            name="birth_date",
            field=models.DateField(blank=True, null=True, verbose_name="date of birth"),
        ),
        migrations.AddField(
            model_name="player",
            name="birth_place",
            field=models.CharField(blank=True, max_length=150, verbose_name="place of birth"),
        ),
        migrations.AddField(
            model_name="player",
            name="document_expiry",
            field=models.DateField(blank=True, null=True, verbose_name="document expiry date"),
        ),
        migrations.AddField(
            model_name="player",
            name="document_number",
            field=models.CharField(blank=True, max_length=64, verbose_name="document number"),
        ),
        migrations.AddField(
            model_name="player",
            name="document_type",
            field=models.CharField(
                blank=True,
                choices=[
                    ("identity_card", "Identity card"),
                    ("passport", "Passport"),
                    ("residence_permit", "Residence permit"),
                    ("driving_licence", "Driving licence"),
                ],
                max_length=32,
                verbose_name="identity document",
            ),
        ),
        migrations.AddField(
            model_name="player",
            name="first_names",
            field=models.CharField(blank=True, max_length=150, verbose_name="first names"),
        ),
        migrations.AddField(
            model_name="player",
            name="registered_by",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="players_registered",
                to=settings.AUTH_USER_MODEL,
                verbose_name="registered by",
            ),
        ),
        migrations.AddField(
            model_name="player",
            name="surname",
            field=models.CharField(blank=True, max_length=100, verbose_name="surname"),
        ),
        migrations.AddIndex(
            model_name="player",
            index=models.Index(fields=["name"], name="casino_player_name"),
        ),
        migrations.AddIndex(
            model_name="player",
            index=models.Index(fields=["document_number"], name="casino_player_document"),
        ),
        migrations.AddIndex(
            model_name="player",
            index=models.Index(fields=["surname", "birth_date"], name="casino_player_identity"),
        ),
        migrations.AddConstraint(
            model_name="gamingsession",
            constraint=models.UniqueConstraint(
                models.Value(1),
                condition=models.Q(("closed_at__isnull", True)),
                name="casino_gamingsession_one_open",
            ),
        ),
        migrations.AddField(
            model_name="exclusionentry",
            name="added_by",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT,
                related_name="exclusions_added",
                to=settings.AUTH_USER_MODEL,
                verbose_name="added by",
            ),
        ),
        migrations.AddField(
            model_name="exclusionentry",
            name="lifted_by",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="exclusions_lifted",
                to=settings.AUTH_USER_MODEL,
                verbose_name="lifted by",
            ),
        ),
        migrations.AddField(
            model_name="exclusionimport",
            name="created_by",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT,
                related_name="exclusion_imports",
                to=settings.AUTH_USER_MODEL,
                verbose_name="by",
            ),
        ),
        migrations.AddField(
            model_name="exclusionentry",
            name="source_import",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="entries",
                to="establishment.exclusionimport",
                verbose_name="imported from",
            ),
        ),
        migrations.AddConstraint(
            model_name="exclusionimport",
            constraint=models.CheckConstraint(
                condition=models.Q(("lines_done__lte", models.F("lines_total"))),
                name="casino_exclusionimport_done_within_total",
            ),
        ),
        migrations.AddIndex(
            model_name="exclusionentry",
            index=models.Index(fields=["surname_key", "birth_date"], name="casino_exclusion_match"),
        ),
        migrations.AddConstraint(
            model_name="exclusionentry",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(
                        ("lift_reason", ""),
                        ("lifted_at__isnull", True),
                        ("lifted_by__isnull", True),
                    ),
                    models.Q(
                        ("lifted_at__isnull", False),
                        ("lifted_by__isnull", False),
                        models.Q(("lift_reason", ""), _negated=True),
                    ),
                    _connector="OR",
                ),
                name="casino_exclusion_lifted_at_by_reason_together",
            ),
        ),
        migrations.AddConstraint(
            model_name="exclusionentry",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("until__isnull", True),
                    ("until__gte", models.F("effective_from")),
                    _connector="OR",
                ),
                name="casino_exclusion_until_after_start",
            ),
        ),
        migrations.AddConstraint(
            model_name="exclusionentry",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("lifted_at__isnull", True),
                    ("lifted_at__gte", models.F("added_at")),
                    _connector="OR",
                ),
                name="casino_exclusion_lifted_after_added",
            ),
        ),
    ]
