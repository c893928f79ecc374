"""The reception role (establishment.roles.Role.RECEPTION): admits players at the door.

Frozen here, as migrations must be; its permissions are the players' register.
"""

from __future__ import annotations

from django.contrib.auth.management import create_permissions
from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

RECEPTION_PERMISSIONS = [
    "establishment.view_player",
    "establishment.add_player",
    "establishment.change_player",
    "establishment.view_gamingsession",
]


def reception_create(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    alias = schema_editor.connection.alias
    config = apps.get_app_config("establishment")
    config.models_module = True  # type: ignore[assignment]
    create_permissions(config, verbosity=0, using=alias, apps=apps)
    config.models_module = None
    group_model = apps.get_model("auth", "Group")
    permission_model = apps.get_model("auth", "Permission")
    group, _created = group_model.objects.using(alias).get_or_create(name="reception")
    group.permissions.set(
        [
            permission_model.objects.using(alias).get(
                content_type__app_label=code.split(".")[0], codename=code.split(".")[1]
            )
            for code in RECEPTION_PERMISSIONS
        ]
    )


def reception_delete(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    apps.get_model("auth", "Group").objects.using(schema_editor.connection.alias).filter(
        name="reception"
    ).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("establishment", "0002_audit_append_only"),
        ("tables", "0003_staff_roles"),
    ]

    operations = [migrations.RunPython(reception_create, reception_delete)]
