"""Room tiers get an English name; the demo's and the usual tier names are filled in for existing rows."""

from django.db import migrations, models

# The tier names the demo and the seeds use (初级场, 中级场 …), as they were when this ran.
ENGLISH = {
    "初级场": "Novice room",
    "中级场": "Intermediate room",
    "高级场": "Senior room",
    "大师场": "Master room",
    "经典场": "Classic room",
    "免佣场": "No-commission room",
    "新手场": "Beginners' room",
    "精英场": "Elite room",
}


def fill(apps, schema_editor):
    RoomTier = apps.get_model("rooms", "RoomTier")
    for chinese, english in ENGLISH.items():
        RoomTier.objects.filter(name=chinese, name_en="").update(name_en=english)


class Migration(migrations.Migration):
    dependencies = [
        ("rooms", "0003_roomtier_separate_linked"),
    ]

    operations = [
        migrations.AlterField(
            model_name="roomtier",
            name="name",
            field=models.CharField(max_length=40, verbose_name="Chinese name"),
        ),
        migrations.AddField(
            model_name="roomtier",
            name="name_en",
            field=models.CharField(blank=True, default="", max_length=80, verbose_name="English name"),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
