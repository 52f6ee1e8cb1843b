"""Staff screens for players and their win counts."""

from platform.accounts.levels import level_for_wins
from platform.accounts.models import GameStats, SignUp, User
from platform.accounts.selectors import linked_user_ids
from platform.accounts.services import nickname_available_check
from platform.accounts.validators import nickname_clean, nickname_fold
from platform.staff.display import PermissionLabels

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm
from django.urls import reverse
from django.utils.html import format_html_join
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

import games


def game_name(slug: str) -> str:
    """The game's name in the active language (the registry's), not its slug."""
    info = games.REGISTRY.get(slug)
    if info is None:
        return slug
    return info.name_en if (get_language() or "").startswith("en") else info.name_zh


class GameNameFilter(admin.SimpleListFilter):
    """Win counts by game, each game by its name."""

    title = _("game")
    parameter_name = "game"

    def lookups(self, request, model_admin):
        return [(slug, game_name(slug)) for slug in games.REGISTRY]

    def queryset(self, request, queryset):
        return queryset.filter(game_slug=self.value()) if self.value() else queryset


class GameStatsInline(admin.TabularInline):
    """A player's wins per game, read-only: only settlements move them."""

    model = GameStats
    fields = ("game", "hands", "wins", "level", "updated_at")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    @admin.display(description=_("game"))
    def game(self, obj: GameStats) -> str:
        return game_name(obj.game_slug)

    @admin.display(description=_("level"))
    def level(self, obj: GameStats) -> str:
        return level_for_wins(obj.wins).name


class NicknameRulesMixin:
    """Hold a nickname staff type to the players' rules: valid, not a bot's, not another's."""

    def clean_nickname(self) -> str:
        nickname = self.cleaned_data.get("nickname", "")
        if "nickname" not in self.changed_data:
            return nickname  # a bot's own 机器人 name stays editable around it
        nickname = nickname_clean(nickname)
        nickname_available_check(nickname=nickname, user=self.instance)
        return nickname


class StaffUserChangeForm(NicknameRulesMixin, UserChangeForm):
    pass


class StaffUserCreationForm(NicknameRulesMixin, AdminUserCreationForm):
    pass


# The fields that make a user staff and say what they may do.
STAFF_ONLY_FIELDS = ("is_staff", "is_superuser", "groups", "user_permissions")


@admin.register(User)
class UserAdmin(PermissionLabels, DjangoUserAdmin):
    """Django's user admin with the nickname and the per-game win counts."""

    fieldsets = (
        (None, {"fields": ("username", "password")}),
        (_("Player"), {"fields": ("nickname", "email", "first_name", "last_name", "linked_accounts")}),
        (
            _("Permissions"),
            {"fields": ("is_active", "is_staff", "is_superuser", "groups", "user_permissions")},
        ),
        (_("Important dates"), {"fields": ("last_login", "date_joined")}),
    )
    add_fieldsets = (
        (None, {"classes": ("wide",), "fields": ("username", "nickname", "password1", "password2")}),
    )
    list_display = ("username", "nickname", "email", "is_active", "is_staff", "date_joined", "last_login")
    list_filter = ("is_active", "is_staff", "is_superuser", "groups", "date_joined")
    search_fields = ("username", "nickname", "email", "first_name", "last_name")
    ordering = ("-date_joined",)
    readonly_fields = ("last_login", "date_joined", "linked_accounts")
    inlines = (GameStatsInline,)
    form = StaffUserChangeForm
    add_form = StaffUserCreationForm

    def save_model(self, request, obj, form, change) -> None:
        if "nickname" in form.changed_data:
            obj.nickname_key = nickname_fold(obj.nickname)
        super().save_model(request, obj, form, change)

    @admin.display(description=_("linked accounts"))
    def linked_accounts(self, obj: User) -> str:
        """The accounts that signed up from this one's address or logged in from one of its browsers."""
        if obj.pk is None:
            return "—"
        linked = User.objects.filter(pk__in=linked_user_ids(user_id=obj.pk)).order_by("username")[:50]
        if not linked:
            return "—"
        return format_html_join(
            ", ",
            '<a href="{}">{}</a>',
            ((reverse("admin:accounts_user_change", args=[user.pk]), user.username) for user in linked),
        )

    def get_inlines(self, request, obj):
        # A user being created has no win counts yet.
        return self.inlines if obj is not None else ()

    def get_readonly_fields(self, request, obj=None):
        # Who is staff and what they may do is for superusers to decide: a support member who
        # may edit accounts must not tick their own superuser box (a superuser moves money).
        fields = super().get_readonly_fields(request, obj)
        if request.user.is_superuser:
            return fields
        return (*fields, *STAFF_ONLY_FIELDS)

    def has_change_permission(self, request, obj=None) -> bool:
        # Staff accounts (their password, their being active) are changed by superusers only;
        # otherwise a support member could reset a superuser's password and log in as them.
        if obj is not None and (obj.is_staff or obj.is_superuser) and not request.user.is_superuser:
            return False
        return super().has_change_permission(request, obj)


@admin.register(GameStats)
class GameStatsAdmin(admin.ModelAdmin):
    """Win counts across players, read-only: settlements are their only writer."""

    list_display = ("user", "game", "hands", "wins", "level", "updated_at")
    list_filter = (GameNameFilter, "updated_at")
    search_fields = ("user__username", "user__nickname", "game_slug")
    list_select_related = ("user",)
    ordering = ("-wins",)
    fields = ("user", "game", "hands", "wins", "updated_at")
    readonly_fields = fields

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False

    @admin.display(description=_("game"), ordering="game_slug")
    def game(self, obj: GameStats) -> str:
        return game_name(obj.game_slug)

    @admin.display(description=_("level"))
    def level(self, obj: GameStats) -> str:
        return level_for_wins(obj.wins).name


@admin.register(SignUp)
class SignUpAdmin(admin.ModelAdmin):
    """Sign-ups by address and time (many from one address is a farm), with each grant's progress."""

    list_display = ("user", "address", "created_at", "parts_paid", "grant_parts", "grant_total")
    list_filter = ("created_at",)
    search_fields = ("user__username", "user__nickname", "address")
    list_select_related = ("user",)
    ordering = ("-created_at",)
    readonly_fields = (
        "user",
        "address",
        "created_at",
        "grant_total",
        "grant_first",
        "grant_parts",
        "grant_part_hands",
        "parts_paid",
    )

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
