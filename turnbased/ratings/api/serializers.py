"""The shapes of the ratings and players API: query parameters and answers, for the endpoints and the schema."""

from __future__ import annotations

from rest_framework import serializers

from turnbased.kit.api.input import game_slugs
from turnbased.ratings.models import RatingPool


class PageQuerySerializer(serializers.Serializer):
    page = serializers.IntegerField(required=False, min_value=1, max_value=10**9,
                                    help_text="A numbered page, from 1, instead of cursor: never both (400).")


class RatingsQuerySerializer(PageQuerySerializer):
    game = serializers.ChoiceField(choices=[], help_text="Engine slug, see GET /api/game-types/.")
    players = serializers.IntegerField(required=False, min_value=1, max_value=100,
                                       help_text="The player count (default: the game's usual).")
    pool = serializers.ChoiceField(choices=RatingPool.choices, default=RatingPool.PEOPLE,
                                   help_text="people: games between people only; bots: games with a bot account.")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["game"].choices = game_slugs()

    class Meta:
        ref_name = "RatingsQuery"


class ArchiveQuerySerializer(PageQuerySerializer):
    # Empty filters are allowed, and mean none: DRF reads an empty optional query parameter as one not sent.
    game = serializers.ChoiceField(choices=[], required=False, allow_blank=True,
                                   help_text="Only games of this engine slug (empty: any).")
    opponent = serializers.RegexField(r"^[\w.@+-]*\Z", max_length=150, required=False, allow_blank=True,
                                      help_text="Only games where this username also played (empty: anyone).")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["game"].choices = game_slugs()

    class Meta:
        ref_name = "ArchiveQuery"


class RatingEntrySerializer(serializers.Serializer):
    place = serializers.IntegerField(help_text="Place on the leaderboard, from 1.")
    username = serializers.CharField()
    bot_account = serializers.BooleanField(help_text="Whether the player is a bot account.")
    rating = serializers.IntegerField(help_text="The displayed rating: round(1000 + 20 × (mu − 3 sigma)).")
    mu = serializers.FloatField(help_text="openskill's skill estimate.")
    sigma = serializers.FloatField(help_text="openskill's uncertainty about mu.")
    games = serializers.IntegerField(help_text="Rated games counted.")
    provisional = serializers.BooleanField(help_text="Whether the rating is provisional (fewer rated games than the "
                                                     "site's minimum): always false here, as a leaderboard lists "
                                                     "none.")

    class Meta:
        ref_name = "RatingEntry"


class PageSerializer(serializers.Serializer):
    """A page of a list, with the count of all its items (these two lists had it before every list had a cursor)."""

    next = serializers.URLField(allow_null=True, help_text="The next page, to fetch as it is; null on the last.")
    previous = serializers.URLField(allow_null=True, help_text="The previous page, to fetch as it is; null on the first.")
    count = serializers.IntegerField(help_text="How many items in all pages.")


class LeaderboardSerializer(PageSerializer):
    game = serializers.CharField(help_text="Engine slug.")
    players = serializers.IntegerField(help_text="The player count of this leaderboard.")
    pool = serializers.ChoiceField(choices=RatingPool.choices, help_text="The rating pool of this leaderboard.")
    results = RatingEntrySerializer(many=True)

    class Meta:
        ref_name = "Leaderboard"


class PlayerRatingSerializer(serializers.Serializer):
    game = serializers.CharField(help_text="Engine slug.")
    name = serializers.CharField(help_text="The game's name.")
    players = serializers.IntegerField(help_text="The player count this rating is for.")
    pool = serializers.ChoiceField(choices=RatingPool.choices,
                                   help_text="people: games between people only; bots: games with a bot account.")
    rating = serializers.IntegerField(help_text="The displayed rating: round(1000 + 20 × (mu − 3 sigma)).")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    games = serializers.IntegerField(help_text="Rated games counted.")
    provisional = serializers.BooleanField(help_text="Whether the rating is provisional: from fewer rated games "
                                                     "than the site's minimum (docs/players.md). Pages show it "
                                                     "with a \"?\"; leaderboards leave it out.")

    class Meta:
        ref_name = "PlayerRating"


class GameRecordSerializer(serializers.Serializer):
    game = serializers.CharField(help_text="Engine slug.")
    name = serializers.CharField(help_text="The game's name.")
    played = serializers.IntegerField(help_text="Finished games I may see.")
    won = serializers.IntegerField(help_text="Of those, the games the player won (alone or shared).")

    class Meta:
        ref_name = "GameRecord"


class ReliabilitySerializer(serializers.Serializer):
    moves_on_time = serializers.IntegerField(help_text="Moves the player made in clocked games I may see.")
    timeouts = serializers.IntegerField(help_text="Turns a bot played for the player when their time ran out.")
    percent = serializers.IntegerField(allow_null=True, help_text="Moves on time out of both, rounded down; "
                                                                  "null before any clocked move.")
    recent_clocked_games = serializers.IntegerField(
        help_text="The player's latest finished games with a clock that I may see, at most 10: what "
                  "recent_abandoned counts from.")
    recent_abandoned = serializers.IntegerField(
        help_text="Of those, the games the player left to a bot (their seat handed on after timeouts).")
    new = serializers.BooleanField(help_text="No finished game with a clock yet: neither reliable nor unreliable.")

    class Meta:
        ref_name = "Reliability"


class PlayerSerializer(serializers.Serializer):
    username = serializers.CharField()
    bot_account = serializers.BooleanField(help_text="Whether the player is a bot account (a program playing through "
                                                     "the API).")
    member_since = serializers.DateTimeField()
    ratings = PlayerRatingSerializer(many=True)
    games = GameRecordSerializer(many=True, help_text="Finished games per game, counting those I may see.")
    reliability = ReliabilitySerializer()
    active_days_ago = serializers.IntegerField(
        allow_null=True, min_value=0,
        help_text="Whole days since the player's latest own move in a game I may see (0: within the past day); "
                  "null when there is none. Never more precise than the moves themselves show.")

    class Meta:
        ref_name = "Player"


class ArchivedSeatSerializer(serializers.Serializer):
    index = serializers.IntegerField(help_text="The seat number, from 0.")
    name = serializers.CharField(help_text='The player\'s username, or a bot by its kind ("Basic bot").')
    username = serializers.CharField(allow_null=True, help_text="The player's account; null for a bot.")
    bot_account = serializers.BooleanField(help_text="Whether the player's account is a bot account.")
    bot = serializers.CharField(allow_null=True, help_text="The bot that held the seat, if one did from the start.")

    class Meta:
        ref_name = "ArchivedSeat"


class RatingChangeSerializer(serializers.Serializer):
    before = serializers.IntegerField()
    after = serializers.IntegerField()
    delta = serializers.IntegerField()

    class Meta:
        ref_name = "RatingChange"


class ArchivedGameSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="The game's id (GET /api/games/{id}/).")
    game = serializers.CharField(help_text="Engine slug.")
    name = serializers.CharField(help_text="The game's name.")
    finished_at = serializers.DateTimeField(allow_null=True)
    seats = ArchivedSeatSerializer(many=True)
    place = serializers.IntegerField(help_text="The player's place, from 1; seats that tied share a place.")
    won = serializers.BooleanField()
    draw = serializers.BooleanField()
    summary = serializers.CharField(help_text="The game's own one-line result.")
    rating = RatingChangeSerializer(allow_null=True, help_text="What the game did to the player's rating; "
                                                               "null for an unrated game.")

    class Meta:
        ref_name = "ArchivedGame"


class ArchiveSerializer(PageSerializer):
    results = ArchivedGameSerializer(many=True)

    class Meta:
        ref_name = "Archive"
