"""A count is of one séance (model 11, art. 70) and keeps the posting of its difference; counts
made before are given the séance of their table in their report's night."""

from __future__ import annotations

import django.db.models.deletion
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps


def seances_fill(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    count_model = apps.get_model("reports", "CountedCagnotte")
    seance_model = apps.get_model("tables", "TableSession")
    for count in count_model.objects.filter(table_session__isnull=True).select_related("report"):
        seance = (
            seance_model.objects.filter(
                table_id=count.table_id, gaming_session_id=count.report.gaming_session_id
            )
            .order_by("opened_at")
            .first()
        )
        count_model.objects.filter(pk=count.pk).update(table_session=seance)


class Migration(migrations.Migration):
    dependencies = [
        ("reports", "0001_initial"),
        ("tables", "0006_seance_house_and_journee"),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="countedcagnotte", name="reports_countedcagnotte_once_per_table"
        ),
        migrations.AddField(
            model_name="countedcagnotte",
            name="table_session",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="cagnotte_counts",
                to="tables.tablesession",
                verbose_name="séance",
            ),
        ),
        migrations.AddField(
            model_name="countedcagnotte",
            name="posting",
            field=models.CharField(
                blank=True,
                help_text="The ledger transaction of a surplus or a shortfall (none when exact).",
                max_length=200,
                verbose_name="posting of the difference",
            ),
        ),
        migrations.RunPython(seances_fill, migrations.RunPython.noop, elidable=False),
        migrations.AlterField(
            model_name="countedcagnotte",
            name="table_session",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT,
                related_name="cagnotte_counts",
                to="tables.tablesession",
                verbose_name="séance",
            ),
        ),
        migrations.AlterModelOptions(
            name="countedcagnotte",
            options={
                "ordering": ["report", "table__number", "table_session_id"],
                "verbose_name": "counted cagnotte",
                "verbose_name_plural": "counted cagnottes",
            },
        ),
        migrations.AddConstraint(
            model_name="countedcagnotte",
            constraint=models.UniqueConstraint(
                fields=("table_session",),
                name="reports_countedcagnotte_once_per_seance",
                violation_error_message="This table's cagnotte has already been counted.",
            ),
        ),
    ]
