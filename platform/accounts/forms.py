"""Forms of the account pages: they check input; services do the writing."""

from platform.accounts.models import User
from platform.accounts.services import nickname_available_check
from platform.accounts.validators import NICKNAME_MAX, nickname_clean

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _


class SignUpForm(UserCreationForm):
    """Username, optional nickname and a password typed twice."""

    nickname = forms.CharField(
        label=_("Nickname"),
        required=False,
        max_length=NICKNAME_MAX,
        help_text=_("What other players see at the table. Leave empty to show your username."),
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "nickname")

    def clean_nickname(self) -> str:
        nickname = nickname_clean(self.cleaned_data.get("nickname", ""))
        nickname_available_check(nickname=nickname)
        return nickname

    def save(self, commit: bool = True):  # pragma: no cover - the view calls user_create instead
        raise NotImplementedError("Sign-up goes through platform.accounts.services.user_create")


class NicknameForm(forms.Form):
    """Change the name shown at tables."""

    nickname = forms.CharField(label=_("Nickname"), required=False, max_length=64)

    def clean_nickname(self) -> str:
        try:
            return nickname_clean(self.cleaned_data.get("nickname", ""))
        except ValidationError as error:
            raise forms.ValidationError(error.messages) from error
