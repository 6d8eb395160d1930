"""Read-only admin pages: replies accepted and not yet handled, replies handled, the daily counts of mail dropped
unanswered, and the outbox."""

from django.contrib import admin

from turnbased.mail.models import AcceptedReply, InboundDrop, InboundEmail, OutgoingEmail


class ReadOnlyAdmin(admin.ModelAdmin):
    """Rows written only by the mail handlers: visible, never edited by hand."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(AcceptedReply)
class AcceptedReplyAdmin(ReadOnlyAdmin):
    """Replies accepted and not handled yet: a moment's wait, or one that failed ``accepted.MAX_ATTEMPTS`` times."""

    list_display = ["accepted_at", "attempts"]
    date_hierarchy = "accepted_at"
    exclude = ["raw"]  # a player's message, and perhaps a reply address: not shown


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


@admin.register(OutgoingEmail)
class OutgoingEmailAdmin(ReadOnlyAdmin):
    """Every email written: sent, waiting for its next attempt (with the last error), or given up."""

    list_display = ["created_at", "kind", "to", "subject", "attempts", "sent_at", "given_up_at", "last_error"]
    list_filter = ["kind", ("sent_at", admin.EmptyFieldListFilter), ("given_up_at", admin.EmptyFieldListFilter)]
    search_fields = ["to", "message_id"]
    date_hierarchy = "created_at"
    exclude = ["picture"]
