"""Let the finance group read reconciliation records; index references for prefix search.

The group is created by accounts/0003 from the permissions that existed then;
the reconciliation record is newer, so its view permission is added here.

On PostgreSQL a ``varchar_pattern_ops`` index lets ``reference LIKE 'hand:%'``
(the transaction search's prefix match) use an index whatever the database
collation; the plain ``db_index`` on the column serves exact matches.
"""

from django.contrib.auth.management import create_permissions
from django.db import migrations


def grant_view(apps, schema_editor):
    alias = schema_editor.connection.alias
    app_config = apps.get_app_config("wallets")
    app_config.models_module = True
    create_permissions(app_config, verbosity=0, using=alias, apps=apps)
    app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    permission = Permission.objects.using(alias).filter(
        content_type__app_label="wallets", codename="view_reconciliationrecord"
    )
    for group in Group.objects.using(alias).filter(name="finance"):
        group.permissions.add(*permission)


def add_prefix_index(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(
            "CREATE INDEX IF NOT EXISTS wallets_txn_reference_prefix "
            "ON wallets_ledgertransaction (reference varchar_pattern_ops)"
        )


def drop_prefix_index(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("DROP INDEX IF EXISTS wallets_txn_reference_prefix")


class Migration(migrations.Migration):
    dependencies = [
        ("wallets", "0004_reconciliation_record"),
        ("accounts", "0003_staff_groups"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        migrations.RunPython(grant_view, migrations.RunPython.noop),
        migrations.RunPython(add_prefix_index, drop_prefix_index),
    ]
