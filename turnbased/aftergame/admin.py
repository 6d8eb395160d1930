from django.contrib import admin

from turnbased.aftergame.models import Rematch, RematchInvite


class RematchInviteInline(admin.TabularInline):
    model = RematchInvite
    extra = 0
    raw_id_fields = ["user"]


@admin.register(Rematch)
class RematchAdmin(admin.ModelAdmin):
    list_display = ["original", "game", "proposed_by", "created_at", "declined_at"]
    raw_id_fields = ["original", "game", "proposed_by", "declined_by"]
    inlines = [RematchInviteInline]
