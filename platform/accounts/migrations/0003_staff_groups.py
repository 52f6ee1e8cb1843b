"""Create the staff groups (operators, support, finance) with their permissions.

Permissions are normally created after all migrations (post_migrate), so this
migration creates them itself for the apps it needs, from the historical
models. A codename that does not exist (a model renamed or not yet written) is
skipped rather than failing the migration; the test in
platform/accounts/tests/test_groups.py lists what each group must hold.
"""

from django.contrib.auth.management import create_permissions
from django.db import migrations

CRUD = ("add", "change", "delete", "view")

# group name -> [(app label, permission codename)]
GROUPS = {
    # Run the game catalogue, room tiers and tables.
    "operators": [
        *[("rooms", f"{action}_{model}") for model in ("game", "roomtier") for action in CRUD],
        *[("tables", f"{action}_table") for action in CRUD],
        ("tables", "view_seat"),
        ("tables", "change_seat"),
        ("tables", "view_hand"),
        ("tables", "view_handaction"),
    ],
    # Help players: see and edit their accounts, read their wallets and ledger.
    "support": [
        ("accounts", "view_user"),
        ("accounts", "change_user"),
        ("accounts", "view_gamestats"),
        ("wallets", "view_account"),
        ("wallets", "view_ledgertransaction"),
        ("wallets", "view_ledgerentry"),
    ],
    # Read the ledger (and its reports): every view permission of wallets, nothing else.
    "finance": [
        ("wallets", "view_account"),
        ("wallets", "view_ledgertransaction"),
        ("wallets", "view_ledgerentry"),
        ("wallets", "view_*"),
    ],
}
APP_LABELS = ("accounts", "wallets", "rooms", "tables")


def create_groups(apps, schema_editor):
    alias = schema_editor.connection.alias
    for label in APP_LABELS:
        try:
            app_config = apps.get_app_config(label)
        except LookupError:
            continue
        # create_permissions skips app configs without a models module; historical ones have none.
        app_config.models_module = True
        create_permissions(app_config, verbosity=0, using=alias, apps=apps)
        app_config.models_module = None

    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    for name, wanted in GROUPS.items():
        group, _created = Group.objects.using(alias).get_or_create(name=name)
        permissions = Permission.objects.using(alias).none()
        for app_label, codename in wanted:
            matching = Permission.objects.using(alias).filter(content_type__app_label=app_label)
            if codename.endswith("*"):
                matching = matching.filter(codename__startswith=codename[:-1])
            else:
                matching = matching.filter(codename=codename)
            permissions = permissions | matching
        group.permissions.add(*permissions)


def remove_groups(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Group.objects.using(schema_editor.connection.alias).filter(name__in=GROUPS).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0002_gamestats"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("wallets", "0003_house_accounts"),
        ("rooms", "0002_tier_rule_constraints"),
        ("tables", "0002_seat_away_since"),
    ]

    operations = [migrations.RunPython(create_groups, remove_groups)]
