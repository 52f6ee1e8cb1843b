"""REST endpoints of the signed-in player's own profile."""

from platform.accounts.selectors import user_game_levels
from platform.accounts.serializers import MeSerializer, NicknameInputSerializer
from platform.accounts.services import user_nickname_change

from django.core.exceptions import ValidationError
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView


def _me_payload(user) -> dict:
    return {
        "username": user.username,
        "nickname": user.nickname,
        "display_name": user.display_name,
        "date_joined": user.date_joined,
        "games": user_game_levels(user=user),
    }


class MeView(APIView):
    """The signed-in player: who they are and their level in every game."""

    @extend_schema(responses=MeSerializer, summary="Your profile and levels")
    def get(self, request: Request) -> Response:
        return Response(MeSerializer(_me_payload(request.user)).data)

    @extend_schema(request=NicknameInputSerializer, responses=MeSerializer, summary="Change your nickname")
    def patch(self, request: Request) -> Response:
        data = NicknameInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            user_nickname_change(user=request.user, nickname=data.validated_data["nickname"])
        except ValidationError as error:  # taken by another player
            raise serializers.ValidationError({"nickname": error.messages}) from error
        return Response(MeSerializer(_me_payload(request.user)).data)
