"""Each séance keeps the house's settings in force when it opened and the journée it belongs to
(docs/registers.md, "Common to every register"); séances opened before are given the first
version and their journée under it."""

from __future__ import annotations

import django.db.models.deletion
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps
from django.utils import timezone

from establishment.house import journee_of


def seances_fill(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    table_session = apps.get_model("tables", "TableSession")
    seances = table_session.objects.filter(house_settings__isnull=True)
    if not seances.exists():
        return
    house_settings = apps.get_model("establishment", "HouseSettings")
    house = house_settings.objects.order_by("pk").first() or house_settings.objects.create(
        changed_at=timezone.now(), reason="The installation's defaults."
    )
    for seance in seances:
        seance.house_settings = house
        seance.journee = journee_of(
            seance.opened_at, turns_at=house.journee_turns_at, time_zone=house.time_zone
        )
        seance.save(update_fields=["house_settings", "journee"])


class Migration(migrations.Migration):
    dependencies = [
        ("establishment", "0006_house_settings"),
        ("tables", "0005_numbered_stock"),
    ]

    operations = [
        migrations.AddField(
            model_name="tablesession",
            name="house_settings",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="table_sessions",
                to="establishment.housesettings",
                verbose_name="house settings",
            ),
        ),
        migrations.AddField(
            model_name="tablesession",
            name="journee",
            field=models.DateField(editable=False, null=True, verbose_name="journée"),
        ),
        migrations.RunPython(seances_fill, migrations.RunPython.noop, elidable=False),
        migrations.AlterField(
            model_name="tablesession",
            name="house_settings",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT,
                related_name="table_sessions",
                to="establishment.housesettings",
                verbose_name="house settings",
            ),
        ),
        migrations.AlterField(
            model_name="tablesession",
            name="journee",
            field=models.DateField(editable=False, verbose_name="journée"),
        ),
    ]
