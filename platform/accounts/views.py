"""Account pages: sign up, log in and out, change password, profile."""

from platform.accounts.addresses import limit_address
from platform.accounts.forms import LoginForm, NicknameForm, SignUpForm
from platform.accounts.grants import grant_rule_current
from platform.accounts.lockout import ADDRESS
from platform.accounts.selectors import grant_status, user_game_levels
from platform.accounts.services import user_create, user_nickname_change

import django_otp
from axes.helpers import get_cool_off, get_failure_limit
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.utils.translation import gettext as _
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_http_methods


def _signup_page(request: HttpRequest, form: SignUpForm, status: int = 200) -> HttpResponse:
    return render(
        request, "accounts/signup.html", {"form": form, "grant": grant_rule_current()}, status=status
    )


@sensitive_post_parameters("password1", "password2")
@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """Create an account, pay the first sign-up coins, log the player in and send them to the lobby."""
    if request.user.is_authenticated:
        return redirect("rooms:lobby")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user = user_create(
                username=form.cleaned_data["username"],
                password=form.cleaned_data["password1"],
                nickname=form.cleaned_data["nickname"],
                address=limit_address(request),
            )
        except ValidationError as error:  # too many sign-ups from here, or the name taken a moment ago
            form.add_error(None, error)
            limited = getattr(error, "code", None) == "signup_rate_limited"
            return _signup_page(request, form, status=429 if limited else 200)
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(
            request,
            _("Welcome, %(name)s! Your starting coins are in your wallet.") % {"name": user.display_name},
        )
        return redirect("rooms:lobby")
    return _signup_page(request, form)


class LoginView(auth_views.LoginView):
    """Django's log-in page (the form passes the request, as django-axes needs); staff add a code."""

    template_name = "accounts/login.html"
    form_class = LoginForm
    redirect_authenticated_user = True

    def form_valid(self, form):
        response = super().form_valid(form)
        if form.otp_device is not None:  # a staff member: this session passed the second factor
            django_otp.login(self.request, form.otp_device)
        return response


class LogoutView(auth_views.LogoutView):
    """Log out on POST only (a link cannot log anyone out)."""


class PasswordChangeView(auth_views.PasswordChangeView):
    """Change the password, keep the session, return to the profile."""

    template_name = "accounts/password_change.html"
    success_url = reverse_lazy("accounts:profile")

    def form_valid(self, form):
        response = super().form_valid(form)
        messages.success(self.request, _("Your password has been changed."))
        return response


@login_required
@require_http_methods(["GET", "POST"])
def profile(request: HttpRequest) -> HttpResponse:
    """Show who the player is and their level in every game; change the nickname on POST."""
    form = NicknameForm(request.POST or None, initial={"nickname": request.user.nickname})
    if request.method == "POST" and form.is_valid():
        try:
            user_nickname_change(user=request.user, nickname=form.cleaned_data["nickname"])
        except ValidationError as error:  # taken by another player
            form.add_error("nickname", error)
        else:
            messages.success(
                request, _("Your nickname is now %(name)s.") % {"name": request.user.display_name}
            )
            return redirect("accounts:profile")
    context = {
        "form": form,
        "game_levels": user_game_levels(user=request.user),
        "grant": grant_status(user=request.user),
    }
    return render(request, "accounts/profile.html", context)


def lockout(request: HttpRequest, original_response=None, credentials: dict | None = None) -> HttpResponse:
    """Tell a locked-out visitor why the log-in was refused and when to try again (django-axes)."""
    cool_off = get_cool_off(request)
    minutes = max(1, round(cool_off.total_seconds() / 60)) if cool_off else 0
    by_address = getattr(request, "login_locked_by", None) == ADDRESS
    context = {
        "by_address": by_address,
        "failure_limit": settings.LOGIN_ADDRESS_FAILURE_LIMIT
        if by_address
        else get_failure_limit(request, credentials),
        "minutes": minutes,
    }
    return render(
        request, "accounts/lockout.html", context, status=getattr(settings, "AXES_HTTP_RESPONSE_CODE", 429)
    )
