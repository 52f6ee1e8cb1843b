"""Migration 0004 keys the existing nicknames without failing on duplicates made under the old rules."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("accounts", "0003_staff_groups")]
AFTER = [("accounts", "0004_nickname_key")]


@pytest.mark.django_db(transaction=True)
def test_existing_duplicates_and_bot_look_alikes_lose_their_nickname_the_earliest_keeps_it():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old_apps = executor.loader.project_state(BEFORE).apps
    User = old_apps.get_model("accounts", "User")
    names = [
        ("erin", "Erin"),  # the earliest holder keeps it
        ("erin2", "ERIN"),
        ("erin3", "Ｅrin"),
        ("fake", "机器人401"),
        ("bot_0401", "机器人401"),  # the bot itself
        ("bob", "Bob"),
        ("nobody", ""),
    ]
    ids = {username: User.objects.create(username=username, nickname=nick).pk for username, nick in names}

    executor = MigrationExecutor(connection)
    executor.migrate(AFTER)

    new_apps = executor.loader.project_state(AFTER).apps
    rows = {
        user.username: (user.nickname, user.nickname_key)
        for user in new_apps.get_model("accounts", "User").objects.filter(pk__in=ids.values())
    }
    assert rows == {
        "erin": ("Erin", "erin"),
        "erin2": ("", ""),
        "erin3": ("", ""),
        "fake": ("", ""),
        "bot_0401": ("机器人401", ""),
        "bob": ("Bob", "bob"),
        "nobody": ("", ""),
    }
    MigrationExecutor(connection).migrate(executor.loader.graph.leaf_nodes())
