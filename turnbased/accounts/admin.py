"""Admin for API tokens: see and revoke them (keys are made by their owners, and never shown)."""

from django.contrib import admin
from knox.models import AuthToken

from turnbased.accounts.models import ApiToken

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
