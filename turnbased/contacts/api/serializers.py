"""The API's shapes of friends and blocks."""

from __future__ import annotations

from rest_framework import serializers

from turnbased.kit.api.input import BodySerializer
from turnbased.kit.api.pagination import page_of


class PersonInputSerializer(BodySerializer):
    username = serializers.CharField(max_length=150, trim_whitespace=True,
                                     help_text="The player's username (any case).")

    class Meta:
        ref_name = "ContactRequest"


class ContactSerializer(serializers.Serializer):
    username = serializers.CharField(help_text="Their username.")
    bot_account = serializers.BooleanField(help_text="Whether they are a bot account.")
    since = serializers.DateTimeField(help_text="When I followed (or blocked) them (ISO 8601, UTC).")

    class Meta:
        ref_name = "Contact"


class FriendsTableSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="The game's id (GET /api/games/{id}/).")
    name = serializers.CharField(help_text='The table\'s name, e.g. "Love Letter #42".')
    engine = serializers.CharField(help_text="The game's slug, e.g. love-letter.")
    status = serializers.CharField(help_text="open (taking players) or active (in play).")
    players = serializers.ListField(child=serializers.CharField(), help_text="Who sits at it, in seat order.")
    seat_count = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    last_move_at = serializers.DateTimeField(allow_null=True, help_text="The latest move; null before the first.")

    class Meta:
        ref_name = "FriendsTable"


FollowedListSerializer = page_of("FollowedList", ContactSerializer, description="Whom I follow, the latest first.")
BlockedListSerializer = page_of("BlockedList", ContactSerializer, description="Whom I blocked, the latest first.")
FriendsTableListSerializer = page_of("FriendsTableList", FriendsTableSerializer,
                                     description="My friends' tables, the newest (or latest moved) first.")
