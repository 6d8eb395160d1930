"""Admin pages: reported messages to deal with, and the chat itself, read-only."""

from django.contrib import admin

from turnbased.chat.models import Message, Report


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):
    list_display = ["created_at", "reporter", "message_author", "message_text", "game", "reason", "handled_at"]
    list_filter = ["handled_at"]
    raw_id_fields = ["message", "reporter"]
    readonly_fields = ["message", "reporter", "reason", "created_at", "message_author", "message_text", "game"]
    fields = ["message", "game", "message_author", "message_text", "reporter", "reason", "created_at", "handled_at"]

    def has_add_permission(self, request):
        return False

    @admin.display(description="author")
    def message_author(self, report):
        return report.message.author

    @admin.display(description="message")
    def message_text(self, report):
        return report.message.text

    @admin.display(description="game")
    def game(self, report):
        return report.message.game_id


@admin.register(Message)
class MessageAdmin(admin.ModelAdmin):
    """The log of what was said: append-only, so no admin may change or delete it."""

    list_display = ["created_at", "game", "seq", "author", "text", "source"]
    search_fields = ["author__username", "text"]
    raw_id_fields = ["game", "author"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
