"""The shapes the API answers with, shared by its endpoints and its OpenAPI schema.

Views build their answers as plain dicts (``presenters.game_summary``,
``selectors``); these serializers describe them for ``/api/schema/``, and the
schemathesis test proves every answer matches. ``view``, ``result``, ``move``
and event ``data`` are each game's own JSON, so they are free-form objects.
"""

from __future__ import annotations

from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field, extend_schema_serializer
from rest_framework import serializers

from games import engines
from turnbased.aftergame.api.serializers import EndingSerializer, ScoreRowSerializer
from turnbased.kit.api.errors import ErrorSerializer
from turnbased.kit.api.pagination import page_of
from turnbased.kit.api.schema import NOT_BLANK
from turnbased.clocks.models import ClockKind, ExpiryPolicy, StandIn
from turnbased.play.models import GameStatus, Visibility

# Positions are numbered in a PostgreSQL integer column.
MAX_SEQ = 2**31 - 1


@extend_schema_field(OpenApiTypes.OBJECT)
class JSONObjectField(serializers.JSONField):
    """A JSON object (any keys): anything else breaks the schema, a 400."""

    # DRF's own words (its catalogs translate them): 'Expected a dictionary of items but got type "str".'
    default_error_messages = {"not_a_dict": serializers.DictField.default_error_messages["not_a_dict"]}

    def to_internal_value(self, data):
        if not isinstance(data, dict):
            self.fail("not_a_dict", input_type=type(data).__name__)
        return super().to_internal_value(data)


class SeatSerializer(serializers.Serializer):
    index = serializers.IntegerField(help_text="The seat number, from 0.")
    username = serializers.CharField(allow_null=True, help_text="The player's account; null for a bot.")
    bot_account = serializers.BooleanField(
        help_text="Whether the player's account is a bot account (a program playing through the API); "
                  "false for a built-in bot's seat, which bot names.",
    )
    name = serializers.CharField(help_text="The name shown at the table.")
    bot = serializers.CharField(allow_null=True, help_text="The built-in bot playing this seat, if any (random, "
                                                           "basic...).")

    class Meta:
        ref_name = "Seat"


class TimeControlSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=ClockKind.choices)
    days_per_move = serializers.IntegerField(help_text='For kind "per_move".')
    bank_days = serializers.IntegerField(help_text='For kind "bank": the days each seat starts with.')
    increment_days = serializers.IntegerField(help_text='For kind "bank": the days added after each move.')
    weekends_off = serializers.BooleanField(help_text="Saturdays and Sundays (in each player's time zone) don't count.")
    allow_absence = serializers.BooleanField(help_text="Declared absences stop a player's clock.")
    expiry = serializers.ChoiceField(choices=ExpiryPolicy.choices,
                                     help_text="What happens when a player runs out of time.")
    stand_in = serializers.ChoiceField(choices=StandIn.choices, help_text="The bot that plays a late turn and takes "
                                       "over a seat left (a game without that level: its basic bot).")
    description = serializers.CharField(help_text="The time control in words.")
    expiry_description = serializers.CharField(help_text="The expiry policy in words.")
    stand_in_description = serializers.CharField(help_text="The stand-in bot in words.")
    paused_until = serializers.DateTimeField(allow_null=True, help_text="While the game is in play: when the pause "
                                             "its players agreed ends (every clock stopped until then), or null.")

    class Meta:
        ref_name = "TimeControl"


class SeatClockSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    running = serializers.BooleanField(help_text="It is this seat's turn and its clock runs.")
    deadline = serializers.DateTimeField(allow_null=True,
                                         help_text="When this seat's time runs out, if it has a clock.")
    remaining_seconds = serializers.IntegerField(allow_null=True, help_text="Thinking time left, in seconds.")
    away_until = serializers.DateField(allow_null=True, help_text="The last day of the player's declared absence.")
    bot = serializers.CharField(allow_null=True, help_text="The bot playing this seat, if any.")
    timeouts_in_row = serializers.IntegerField()

    class Meta:
        ref_name = "SeatClock"


class CommitmentSerializer(serializers.Serializer):
    scheme = serializers.CharField(help_text='How the committed bytes are built: "turnbased-seed-commitment/1".')
    algorithm = serializers.CharField(help_text='The hash of those bytes: "sha256".')
    value = serializers.CharField(help_text="The hash in lowercase hexadecimal.")

    class Meta:
        ref_name = "SeedCommitment"


class GameSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    game = serializers.CharField(help_text="The engine slug, e.g. love-letter (see GET /api/game-types/).")
    name = serializers.CharField(help_text="The game's name.")
    status = serializers.ChoiceField(choices=GameStatus.choices)
    visibility = serializers.ChoiceField(choices=Visibility.choices)
    seq = serializers.IntegerField(help_text="The number of moves played; send it back as expected_seq.")
    seat_count = serializers.IntegerField()
    seats = SeatSerializer(many=True, help_text="The seats taken so far.")
    my_seat = serializers.IntegerField(allow_null=True, help_text="Your seat; null when you only watch.")
    to_move = serializers.ListField(child=serializers.IntegerField(), help_text="The seats that may act now.")
    options = serializers.DictField(help_text="The table options chosen at creation (see GET /api/game-types/).")
    view = serializers.DictField(
        allow_null=True,
        help_text="The game as you may see it: your private view (your hand, what you were shown), or the public "
                  "view for a spectator. Each game has its own shape; null before the game starts and in the list "
                  "of games.",
    )
    result = serializers.DictField(
        allow_null=True,
        help_text="Once the game is over: the game's own result (scores, winners, ranking); null before.",
    )
    invite_url = serializers.CharField(allow_null=True, help_text="The table's invite link; only for its players.")
    time_control = TimeControlSerializer()
    clocks = SeatClockSerializer(many=True, help_text="Each seat's clock while the game is in play.")
    created_at = serializers.DateTimeField()
    last_move_at = serializers.DateTimeField(allow_null=True)
    last_move = serializers.CharField(
        allow_null=True,
        help_text="In GET /api/games/ only: the latest move described as you may see it (never its notation).",
    )
    commitment = CommitmentSerializer(
        allow_null=True,
        help_text="The commitment to the game's secret seed, published when it starts: SHA-256 of the scheme, the "
                  "game id, engine, engine version and seed, one per line (docs/record-format.md). Null before the "
                  "start.",
    )
    seed = serializers.CharField(
        allow_null=True,
        help_text="The game's secret seed, revealed once the game is over (null until then): with the record "
                  "(GET /api/games/{id}/record/) anyone can check the commitment and replay every shuffle.",
    )
    ending = EndingSerializer(
        required=False, allow_null=True,
        help_text="Not in GET /api/games/. Once the game is over: how it ended; null before.",
    )
    score_breakdown = ScoreRowSerializer(
        many=True, required=False, allow_null=True,
        help_text="Not in GET /api/games/. Once the game is over: where each seat's points came from; null before.",
    )
    rematch = serializers.IntegerField(
        required=False, allow_null=True,
        help_text="Not in GET /api/games/. The id of this finished game's rematch table, if one was proposed "
                  "(see /api/games/{id}/rematch/).",
    )
    rematch_of = serializers.IntegerField(
        required=False, allow_null=True,
        help_text="Not in GET /api/games/. The finished game this table is a rematch of, if it is one.",
    )

    class Meta:
        ref_name = "Game"


GameListSerializer = page_of("GameList", GameSerializer, description="My games, the newest table first.")
OpenGameListSerializer = page_of(
    "OpenGameList", GameSerializer,
    description="Public tables taking players that I am not seated at, the newest first.",
)


class OptionChoiceSerializer(serializers.Serializer):
    value = serializers.JSONField(help_text="The value to send in options.")
    label = serializers.CharField()

    class Meta:
        ref_name = "GameOptionChoice"


class GameOptionSerializer(serializers.Serializer):
    name = serializers.CharField(help_text="The key in a new game's options.")
    label = serializers.CharField()
    choices = OptionChoiceSerializer(many=True)
    default = serializers.JSONField(help_text="The value when the option is not sent.")
    help = serializers.CharField()

    class Meta:
        ref_name = "GameOption"


class GameTypeSerializer(serializers.Serializer):
    game = serializers.CharField(help_text="The engine slug to send when creating a game.")
    name = serializers.CharField()
    min_players = serializers.IntegerField()
    max_players = serializers.IntegerField()
    default_players = serializers.IntegerField()
    options = GameOptionSerializer(many=True)
    bots = serializers.ListField(child=serializers.CharField(), help_text="The bots that can take a seat.")
    notation = serializers.CharField(help_text="How to write a move as text.")
    assets = serializers.DictField(
        child=serializers.URLField(),
        help_text="The game's static data by name (tile drawings, say), each at a versioned URL that may be cached"
                  " for good: a view names the asset it needs (Carcassonne's art_asset) instead of repeating it.",
    )

    class Meta:
        ref_name = "GameType"


class LegalMoveSerializer(serializers.Serializer):
    move = serializers.DictField(help_text="The move as the game's JSON: send it back as is.")
    text = serializers.CharField(help_text="The same move in the text notation.")

    class Meta:
        ref_name = "LegalMove"


class LegalMovesSerializer(serializers.Serializer):
    seq = serializers.IntegerField(help_text="The position these moves answer: send it as expected_seq.")
    moves = LegalMoveSerializer(many=True, help_text="Empty when it is not your turn.")

    class Meta:
        ref_name = "LegalMoves"


@extend_schema_serializer(deprecate_fields=["game"])
class MovePlayedSerializer(serializers.Serializer):
    """The answer to a move sent without ``Prefer: return=minimal``, until its deprecation's sunset
    (``kit.api.deprecation.WHOLE_MOVE_ANSWER``): the mover's answer is ``MovePlayedMinimal``."""

    seq = serializers.IntegerField(help_text="The position your move made.")
    text = serializers.CharField(help_text="Your move in the text notation.")
    replayed = serializers.BooleanField(
        help_text="True when this repeats an earlier submission (same idempotency_key)."
    )
    legal_moves = LegalMoveSerializer(
        many=True, help_text="Your legal moves now: not empty only when you are to act again at once (the "
                             "Chancellor's second step, a Carcassonne piece after its tile).")
    game = GameSerializer(help_text="The game after your move. Deprecated: send Prefer: return=minimal (the mover's "
                                    "answer) and GET /api/games/{id}/ for the rest; from the sunset on, every move "
                                    "gets the mover's answer.")

    class Meta:
        ref_name = "MovePlayed"


class MovePlayedMinimalSerializer(serializers.Serializer):
    """The lean answer to a move, for a request sent with ``Prefer: return=minimal``."""

    seq = serializers.IntegerField(help_text="The position your move made.")
    text = serializers.CharField(help_text="Your move in the text notation.")
    replayed = serializers.BooleanField(
        help_text="True when this repeats an earlier submission (same idempotency_key)."
    )
    game_seq = serializers.IntegerField(help_text="The game's position now (seq, unless this is a repeat): send it "
                                                  "as expected_seq with your next move.")
    status = serializers.ChoiceField(choices=GameStatus.choices)
    to_move = serializers.ListField(child=serializers.IntegerField(), help_text="The seats that may act now.")
    view = serializers.DictField(allow_null=True, help_text="The game from your seat now, as the game's view shows it.")
    legal_moves = LegalMoveSerializer(
        many=True, help_text="Your legal moves now: not empty only when you are to act again at once.")
    result = serializers.DictField(allow_null=True, help_text="How the game ended, once it is over (as the game's "
                                                              "result).")

    class Meta:
        ref_name = "MovePlayedMinimal"


class MoveConflictSerializer(ErrorSerializer):
    seq = serializers.IntegerField(required=False, help_text="For a stale expected_seq: the current position.")
    game = GameSerializer(required=False, help_text="For a stale expected_seq: the game as it is now.")

    class Meta:
        ref_name = "MoveConflict"


class HistoryEventSerializer(serializers.Serializer):
    seq = serializers.IntegerField(help_text="The move that made this event.")
    seat = serializers.IntegerField(help_text="The seat that moved.")
    kind = serializers.CharField(help_text="The game's name for the event, e.g. card_played.")
    data = serializers.DictField(help_text="The event's facts as the game records them.")
    private = serializers.BooleanField(help_text="Only some seats (you among them) see this event.")
    text = serializers.CharField(help_text="The event described for you.")

    class Meta:
        ref_name = "HistoryEvent"


class PositionSerializer(serializers.Serializer):
    seq = serializers.IntegerField(help_text="This position: 0 is the start, last_seq the latest move.")
    last_seq = serializers.IntegerField(help_text="The game's latest position (its seq now).")
    full_reveal = serializers.BooleanField(
        help_text="The game is over: view holds everything its rules allow showing afterwards (every hand, the deck "
                  "order, the face-down tiles, under view.revealed), the same for everyone, and entries every event."
    )
    view = serializers.DictField(
        help_text="The game at this position as you saw it then: your private view while the game is in play (the "
                  "public one for a spectator); the full reveal once it is over. Each game has its own shape."
    )
    to_move = serializers.ListField(child=serializers.IntegerField(), help_text="The seats that could act here.")
    mover = serializers.IntegerField(allow_null=True, help_text="The seat whose move made this position; null at 0.")
    entries = HistoryEventSerializer(many=True, help_text="What that move did, as you may read it.")

    class Meta:
        ref_name = "Position"


HistorySerializer = page_of(
    "History", HistoryEventSerializer,
    description="The events of the page's moves that I may see, oldest first.",
    seq=serializers.IntegerField(help_text="The game's current position: poll again with since set to it."),
)


# Every seat a table of any installed game can have: the keys a new table's ``bots`` may name (issue 42: the schema
# states them, and a key that is not one breaks it: 400; a seat this game or this table has not is refused after).
BOT_SEATS = tuple(str(seat) for seat in range(max(engine.max_players for engine in engines().values())))


@extend_schema_field({
    "type": "object", "additionalProperties": False,
    "properties": {seat: {"type": "string", "minLength": 1, "pattern": NOT_BLANK} for seat in BOT_SEATS},
})
class SeatBotsField(serializers.DictField):
    """A new table's bots: seat number (as JSON writes an object's keys, text) to bot name."""

    child = serializers.CharField()

    def to_internal_value(self, data):
        bots = super().to_internal_value(data)
        if any(seat not in BOT_SEATS for seat in bots):
            raise serializers.ValidationError(gettext("bots must map seat numbers to bot names."))
        return bots
