"""Admin for API tokens (see and revoke them; keys are made by their owners, and never shown) and profiles (where
staff may turn a bot account back)."""

from django.contrib import admin
from django.utils import timezone
from knox.models import AuthToken

from turnbased.accounts.models import ApiToken, Profile

# knox registers its own token model, which ApiToken replaces (its table stays empty).
if admin.site.is_registered(AuthToken):
    admin.site.unregister(AuthToken)


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    list_display = ("name", "user", "created", "last_used_at", "expiry")
    search_fields = ("name", "user__username")
    fields = ("user", "name", "created", "last_used_at", "expiry")
    readonly_fields = fields

    def has_add_permission(self, request) -> bool:
        return False


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    """People's settings, and bot accounts: the one place where a bot account can be turned back (by staff)."""

    list_display = ("user", "time_zone", "is_bot_account", "bot_account_since")
    list_filter = ("is_bot_account",)
    search_fields = ("user__username",)
    fields = ("user", "time_zone", "reminder_lead_hours", "absence_allowance_days", "is_bot_account",
              "bot_account_since")
    readonly_fields = ("user", "bot_account_since")

    def has_add_permission(self, request) -> bool:
        return False

    def save_model(self, request, obj: Profile, form, change) -> None:
        # The date follows the mark: set when staff make an account a bot, cleared when they turn it back.
        if obj.is_bot_account and obj.bot_account_since is None:
            obj.bot_account_since = timezone.now()
        elif not obj.is_bot_account:
            obj.bot_account_since = None
        super().save_model(request, obj, form, change)
