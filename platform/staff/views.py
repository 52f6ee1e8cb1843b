"""The "verify your second factor" page that money views send unverified staff to, and the admin's log-in."""

from __future__ import annotations

import django_otp
from django.contrib import admin, messages
from django.contrib.admin.views.decorators import staff_member_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.utils.translation import gettext
from django_otp import devices_for_user
from django_otp.forms import OTPTokenForm


def _safe_next(request: HttpRequest) -> str:
    candidate = request.POST.get("next") or request.GET.get("next") or ""
    if candidate and url_has_allowed_host_and_scheme(
        candidate, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return candidate
    return reverse("admin:index")


@staff_member_required
def otp_verify(request: HttpRequest) -> HttpResponse:
    """Check a TOTP or backup code against the chosen device and mark this session verified."""
    next_url = _safe_next(request)
    if request.user.is_verified():
        return HttpResponseRedirect(next_url)
    devices = list(devices_for_user(request.user))
    form = OTPTokenForm(request.user, request, data=request.POST if request.method == "POST" else None)
    if request.method != "POST" and devices:
        form.fields["otp_device"].initial = devices[0].persistent_id  # the authenticator comes first
    if request.method == "POST" and form.is_valid():
        django_otp.login(request, form.user.otp_device)
        messages.success(request, gettext("Second factor verified for this session."))
        return HttpResponseRedirect(next_url)
    context = {
        **admin.site.each_context(request),
        "title": gettext("Verify your second factor"),
        "form": form,
        "has_device": bool(devices),
        "next": next_url,
    }
    return TemplateResponse(request, "staff/otp_verify.html", context)


def admin_login(request: HttpRequest) -> HttpResponse:
    """Stand in for the admin's log-in page, whose form takes a password alone.

    Visitors go to the site's one log-in page, which asks staff accounts for
    their second-factor code too; a signed-in player who is not staff is refused.
    """
    next_url = _safe_next(request)
    if request.user.is_authenticated:
        if request.user.is_active and request.user.is_staff:
            return HttpResponseRedirect(next_url)
        raise PermissionDenied
    return HttpResponseRedirect(f"{reverse('accounts:login')}?{urlencode({'next': next_url})}")
