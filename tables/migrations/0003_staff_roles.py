"""Staff roles as groups with their permissions (establishment.roles.Role).

This mapping is frozen here, as migrations must be; a later change of a role's permissions is a
new migration.
"""

from __future__ import annotations

from django.contrib.auth.management import create_permissions
from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

VIEW_TABLES = [
    "tables.view_table",
    "tables.view_tablesession",
    "tables.view_seatoccupancy",
    "tables.view_croupierassignment",
    "tables.view_sabot",
]
VIEW_LEDGER = ["ledger.view_account", "ledger.view_transaction", "ledger.view_entry"]
VIEW_ESTABLISHMENT = ["establishment.view_player", "establishment.view_gamingsession"]
MANAGE_TABLES = [
    f"tables.{action}_{model}"
    for model in ("table", "tablesession", "seatoccupancy", "croupierassignment", "sabot")
    for action in ("add", "change")
]

ROLE_PERMISSIONS: dict[str, list[str]] = {
    # Runs a table: records play at the table sessions he is assigned to.
    "croupier": [*VIEW_ESTABLISHMENT, *VIEW_TABLES, "tables.operate_tablesession"],
    # Exchanges cash for chips: sees players and tables, posts cash movements.
    "changeur": [*VIEW_ESTABLISHMENT, *VIEW_TABLES, "ledger.post_transaction"],
    # Table inspector / chef de partie: supervises tables, seats players, assigns staff.
    "inspector": [
        *VIEW_ESTABLISHMENT,
        *VIEW_TABLES,
        *VIEW_LEDGER,
        "tables.operate_tablesession",
        "tables.supervise_tablesession",
        "tables.add_seatoccupancy",
        "tables.change_seatoccupancy",
        "tables.add_croupierassignment",
        "tables.change_croupierassignment",
        "tables.add_sabot",
        "tables.change_sabot",
    ],
    # Reads everything, changes nothing.
    "auditor": [*VIEW_ESTABLISHMENT, *VIEW_TABLES, *VIEW_LEDGER, "auth.view_user"],
    # Configures the establishment: players, sessions, tables, staff; approves reversals.
    "manager": [
        *VIEW_ESTABLISHMENT,
        "establishment.add_player",
        "establishment.change_player",
        "establishment.add_gamingsession",
        "establishment.change_gamingsession",
        *VIEW_TABLES,
        *MANAGE_TABLES,
        "tables.supervise_tablesession",
        *VIEW_LEDGER,
        "ledger.approve_reversal",
        "auth.view_user",
        "auth.add_user",
        "auth.change_user",
        "auth.view_group",
    ],
}


def roles_create(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    alias = schema_editor.connection.alias
    # Permissions are normally created after `migrate` finishes; create them now so the groups
    # can hold them on a fresh database.
    for app_config in apps.get_app_configs():
        app_config.models_module = True  # type: ignore[assignment]
        create_permissions(app_config, verbosity=0, using=alias, apps=apps)
        app_config.models_module = None

    group_model = apps.get_model("auth", "Group")
    permission_model = apps.get_model("auth", "Permission")
    for role, codes in ROLE_PERMISSIONS.items():
        group, _created = group_model.objects.using(alias).get_or_create(name=role)
        permissions = []
        for code in codes:
            app_label, codename = code.split(".")
            permissions.append(
                permission_model.objects.using(alias).get(
                    content_type__app_label=app_label, codename=codename
                )
            )
        group.permissions.set(permissions)


def roles_delete(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    group_model = apps.get_model("auth", "Group")
    group_model.objects.using(schema_editor.connection.alias).filter(
        name__in=list(ROLE_PERMISSIONS)
    ).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("establishment", "0001_initial"),
        ("tables", "0002_history_append_only"),
        ("ledger", "0001_initial"),
    ]

    operations = [migrations.RunPython(roles_create, roles_delete)]
