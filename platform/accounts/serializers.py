"""Shapes of the /api/me/ profile: output only; input is checked by the services' validator."""

from platform.accounts.validators import nickname_clean

from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import serializers


class LevelSerializer(serializers.Serializer):
    index = serializers.IntegerField(help_text="0 = 包身工 … 22 = 帝王")
    name = serializers.CharField(help_text="Chinese name of the level")
    name_en = serializers.CharField()
    wins_from = serializers.IntegerField()
    wins_to = serializers.IntegerField(
        allow_null=True, help_text="Wins at which the next level begins; null at the top"
    )


class GameLevelSerializer(serializers.Serializer):
    game_slug = serializers.CharField()
    game_name = serializers.CharField()
    hands = serializers.IntegerField()
    wins = serializers.IntegerField()
    level = LevelSerializer()
    wins_to_next = serializers.IntegerField(allow_null=True)
    next_level = LevelSerializer(allow_null=True)


class MeSerializer(serializers.Serializer):
    username = serializers.CharField()
    nickname = serializers.CharField()
    display_name = serializers.CharField()
    date_joined = serializers.DateTimeField()
    games = GameLevelSerializer(many=True)


class NicknameInputSerializer(serializers.Serializer):
    nickname = serializers.CharField(allow_blank=True, max_length=64, trim_whitespace=True)

    def validate_nickname(self, value: str) -> str:
        try:
            return nickname_clean(value)
        except DjangoValidationError as error:
            raise serializers.ValidationError(error.messages) from error
