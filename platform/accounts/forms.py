"""Forms of the account pages: they check input; services do the writing."""

from platform.accounts.models import User
from platform.accounts.services import nickname_available_check
from platform.accounts.validators import NICKNAME_MAX, nickname_clean
from platform.staff.otp import otp_token_check

from django import forms
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.contrib.auth.signals import user_login_failed
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


class LoginForm(AuthenticationForm):
    """Username and password; a staff account also gives its second-factor code.

    A wrong code counts as a failed log-in toward the lockout (the password was
    right, but an attacker who has it must not get unlimited tries at the code).
    """

    otp_token = forms.CharField(
        label=_("Second-factor code"),
        required=False,
        max_length=32,
        help_text=_("Staff only: the code from your authenticator app, or one of your backup codes."),
        widget=forms.TextInput(attrs={"autocomplete": "one-time-code", "autocapitalize": "off"}),
    )

    otp_device = None

    def confirm_login_allowed(self, user) -> None:
        super().confirm_login_allowed(user)
        if not (user.is_staff or user.is_superuser):
            return
        try:
            self.otp_device = otp_token_check(user=user, token=self.cleaned_data.get("otp_token", ""))
        except ValidationError:
            user_login_failed.send(
                sender=type(self),
                credentials={"username": self.cleaned_data.get("username")},
                request=self.request,
            )
            raise
