"""Let the support and finance groups read the audit trail (superusers already can).

Support answers "who changed this player?"; finance answers "who moved these
coins?". Neither may change or delete an entry: the admin refuses that to everyone.
"""

from django.contrib.auth.management import create_permissions
from django.db import migrations

GROUPS = ("support", "finance")


def grant(apps, schema_editor):
    alias = schema_editor.connection.alias
    app_config = apps.get_app_config("auditlog")
    # create_permissions skips app configs without a models module; historical ones have none.
    app_config.models_module = True
    create_permissions(app_config, verbosity=0, using=alias, apps=apps)
    app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    permission = Permission.objects.using(alias).get(content_type__app_label="auditlog", codename="view_logentry")
    for group in Group.objects.using(alias).filter(name__in=GROUPS):
        group.permissions.add(permission)


def revoke(apps, schema_editor):
    alias = schema_editor.connection.alias
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    permission = Permission.objects.using(alias).filter(
        content_type__app_label="auditlog", codename="view_logentry"
    )
    for group in Group.objects.using(alias).filter(name__in=GROUPS):
        group.permissions.remove(*permission)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0003_staff_groups"),
        ("auditlog", "0017_add_actor_email"),
    ]

    operations = [migrations.RunPython(grant, revoke)]
