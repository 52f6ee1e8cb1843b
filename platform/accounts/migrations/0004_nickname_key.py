"""Nicknames are unique after Unicode compatibility folding (NFKC and case): the folded key.

Existing rows are keyed before the unique constraint is added, and what the new
rules would refuse is resolved so that the migration never fails on old data:

- Two or more players whose nicknames fold to one key: the earliest account
  (lowest id) keeps its nickname; the others' nicknames are cleared, so their
  tables show their usernames until they choose a new nickname. Clearing is
  chosen over renaming (``Erin 2``) because a name the player never picked is
  as misleading as the duplicate, and over keeping both because the duplicate
  is the impersonation the rule exists to stop.
- A player (not a bot) whose nickname looks like the bots' (机器人…) loses it the
  same way. The bots (usernames ``bot_…``) keep their names and an empty key:
  their pattern is reserved for them, so no player can collide with one.

The fold is written out here, not imported, so that this migration keeps doing
what it did if the application's rule changes later.
"""

import re
import unicodedata

from django.db import migrations, models

BOT_USERNAME_PREFIX = "bot_"
BOT_LOOKALIKE = re.compile(r"^(?:机器人|機器人|(?:ro)?bot\d*$)")


def fold(value: str) -> str:
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", value or "").casefold())


def bot_lookalike(nickname: str) -> bool:
    bare = "".join(
        char for char in unicodedata.normalize("NFKD", fold(nickname)) if unicodedata.category(char)[0] in "LN"
    )
    return bool(BOT_LOOKALIKE.match(unicodedata.normalize("NFKC", bare)))


def key_nicknames(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    alias = schema_editor.connection.alias
    taken: set[str] = set()
    rows = User.objects.using(alias).exclude(nickname="").order_by("pk").only("pk", "username", "nickname")
    for user in rows.iterator():
        if user.username.lower().startswith(BOT_USERNAME_PREFIX):
            continue
        key = fold(user.nickname)
        if key in taken or bot_lookalike(user.nickname):
            User.objects.using(alias).filter(pk=user.pk).update(nickname="", nickname_key="")
            continue
        taken.add(key)
        User.objects.using(alias).filter(pk=user.pk).update(nickname_key=key)


class Migration(migrations.Migration):
    dependencies = [("accounts", "0003_staff_groups")]

    operations = [
        migrations.AddField(
            model_name="user",
            name="nickname_key",
            field=models.CharField(
                blank=True, default="", editable=False, max_length=64, verbose_name="nickname key"
            ),
        ),
        migrations.RunPython(key_nicknames, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="user",
            constraint=models.UniqueConstraint(
                condition=models.Q(("nickname_key", ""), _negated=True),
                fields=("nickname_key",),
                name="user_nickname_key_unique",
            ),
        ),
    ]
