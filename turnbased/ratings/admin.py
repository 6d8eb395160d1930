"""Read-only admin pages: ratings and the record of what each game did to them."""

from django.contrib import admin

from turnbased.ratings.models import Rating, RatingChange


class ReadOnly(admin.ModelAdmin):
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Rating)
class RatingAdmin(ReadOnly):
    list_display = ["user", "game_slug", "players", "display", "mu", "sigma", "games", "updated_at"]
    list_filter = ["game_slug", "players"]
    search_fields = ["user__username"]


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnly):
    list_display = ["game", "user", "seat", "place", "before", "after", "created_at"]
    search_fields = ["user__username"]
    raw_id_fields = ["game", "user", "rating"]
