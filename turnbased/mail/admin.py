"""Read-only admin pages for inbound mail: replies handled, and the daily counts of mail dropped unanswered."""

from django.contrib import admin

from turnbased.mail.models import InboundDrop, InboundEmail


class ReadOnlyAdmin(admin.ModelAdmin):
    """Rows written only by the mail handlers: visible, never edited by hand."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(InboundDrop)
class InboundDropAdmin(ReadOnlyAdmin):
    list_display = ["day", "reason", "count"]
    list_filter = ["reason"]
    date_hierarchy = "day"


@admin.register(InboundEmail)
class InboundEmailAdmin(ReadOnlyAdmin):
    list_display = ["received_at", "sender", "command", "status", "outcome"]
    list_filter = ["status"]
    search_fields = ["sender", "message_id"]
    date_hierarchy = "received_at"
