"""The admin in one language: the site's name, permissions, and the pages of the packages it installs.

Django stores permission names in English, and django-otp, django-auditlog and
django-axes word a few headings as plain strings or codes; their admins are
registered again here with those words translatable.
"""

from platform.staff.display import PermissionLabels

from auditlog.admin import LogEntryAdmin
from auditlog.filters import CIDFilter, ResourceTypeFilter
from auditlog.models import LogEntry
from auditlog.render import get_field_verbose_name
from axes.admin import AccessAttemptAdmin
from axes.models import AccessAttempt
from django.contrib import admin
from django.contrib.auth.admin import GroupAdmin as DjangoGroupAdmin
from django.contrib.auth.models import Group
from django.contrib.contenttypes.models import ContentType
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext, pgettext
from django_otp.plugins.otp_static.admin import StaticDeviceAdmin
from django_otp.plugins.otp_static.models import StaticDevice
from django_otp.plugins.otp_totp.admin import TOTPDeviceAdmin
from django_otp.plugins.otp_totp.models import TOTPDevice

# Django's defaults ("Django 站点管理员", "Django 管理") name the framework, not the site.
admin.site.site_header = _("Card room administration")
admin.site.site_title = _("Card room administration")

admin.site.unregister(Group)


@admin.register(Group)
class GroupAdmin(PermissionLabels, DjangoGroupAdmin):
    pass


# django-otp's device admins, with their section titles, search hint and QR column in words the
# catalogue translates (its models' own words: third_party_apps.words_translatable).
OTP_SECTIONS = {
    "Identity": _("Identity"),
    "Timestamps": _("Times"),
    "Configuration": _("Configuration"),
    "State": _("State"),
    "Throttling": _("Throttling after failed codes"),
}


class TranslatedDeviceAdmin:
    search_help_text = _("Search by the user's username or email address")

    def get_fieldsets(self, request, obj=None):
        return [
            (OTP_SECTIONS.get(name, name), options) for name, options in super().get_fieldsets(request, obj)
        ]


class AuthenticatorAdmin(TranslatedDeviceAdmin, TOTPDeviceAdmin):
    @admin.display(description=_("QR code"))
    def qrcode_link(self, device):
        return super().qrcode_link(device)


class BackupCodesAdmin(TranslatedDeviceAdmin, StaticDeviceAdmin):
    pass


for model, model_admin in ((TOTPDevice, AuthenticatorAdmin), (StaticDevice, BackupCodesAdmin)):
    admin.site.unregister(model)
    admin.site.register(model, model_admin)


# django-auditlog's and django-axes' admins: the few column heads and filter choices they word
# as plain strings or raw codes ("Correlation ID", "Status", "roomtier", "2 changes: base_stake").


class ModelNameFilter(ResourceTypeFilter):
    """The audit log's resource types by their names in words, not the model's code name."""

    def lookups(self, request, model_admin):
        ids = model_admin.get_queryset(request).values_list("content_type_id", flat=True).distinct()
        return [(ct.pk, str(ct)) for ct in ContentType.objects.filter(pk__in=ids)]


class AuditLogEntryAdmin(LogEntryAdmin):
    list_filter = ["action", ModelNameFilter, CIDFilter]

    @admin.display(description=_("Correlation ID"))
    def cid_url(self, obj):
        return super().cid_url(obj)

    @admin.display(description=_("Changes"))
    def msg_short(self, obj):
        if obj.action in (LogEntry.Action.DELETE, LogEntry.Action.ACCESS):
            return ""
        names = [str(get_field_verbose_name(obj, name)) for name in obj.changes_dict]
        return ngettext("%(count)d change: %(fields)s", "%(count)d changes: %(fields)s", len(names)) % {
            "count": len(names),
            "fields": pgettext("list separator", ", ").join(names),
        }


class LockoutAttemptAdmin(AccessAttemptAdmin):
    @admin.display(description=_("Status"))
    def status(self, obj):
        return super().status(obj)


for model, model_admin in ((LogEntry, AuditLogEntryAdmin), (AccessAttempt, LockoutAttemptAdmin)):
    admin.site.unregister(model)
    admin.site.register(model, model_admin)
