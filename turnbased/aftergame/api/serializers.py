"""The shapes of the end of a game in the API: how it ended, its score breakdown, its rematch."""

from __future__ import annotations

from rest_framework import serializers

from games.base import ADJUDICATED, AGREED_DRAW, ALL_LOSE
from turnbased.aftergame.selectors import BOTS_AT_DEADLINE, PLAYED_OUT, RESIGNATION, TIMEOUT


class EndingSerializer(serializers.Serializer):
    how = serializers.ChoiceField(
        choices=[(PLAYED_OUT, "played to the end"), (RESIGNATION, "by resignation"), (TIMEOUT, "on time"),
                 (ADJUDICATED, "adjudicated before its end"), (ALL_LOSE, "stopped before its end, every player losing"),
                 (AGREED_DRAW, "drawn by its players' agreement"),
                 (BOTS_AT_DEADLINE, "played out by bots at a deadline")],
        help_text="played_out; resignation (the move that ended the game was a resignation); timeout (a player ran "
                  "out of time and a bot played their seat out); adjudicated (stopped before its end, a competition's "
                  "round deadline, and decided on the count every player could see); all_lose (stopped so, every "
                  "player losing); agreed_draw (every player agreed to end it as a draw); bots_at_deadline (a "
                  "competition's round deadline came first and bots played every seat out).",
    )
    seats = serializers.ListField(child=serializers.IntegerField(),
                                  help_text="Who resigned, or who ran out of time; empty when played out.")
    text = serializers.CharField(help_text="The ending in words.")

    class Meta:
        ref_name = "Ending"


class ScoreRowSerializer(serializers.Serializer):
    label = serializers.CharField(help_text="Where these points come from, e.g. \"Meadows (hunters, at the end)\".")
    points = serializers.ListField(child=serializers.IntegerField(), help_text="One number per seat.")
    counts = serializers.BooleanField(
        help_text="True: part of the score (the counted rows add up to result.scores); false: a fact beside it, "
                  "such as a tie-break."
    )

    class Meta:
        ref_name = "ScoreRow"


class RematchSerializer(serializers.Serializer):
    original = serializers.IntegerField(help_text="The finished game.")
    game = serializers.IntegerField(help_text="The rematch's table: same players, game, options and clock, seats "
                                              "moved on by one.")
    status = serializers.ChoiceField(
        choices=["waiting", "started", "finished", "declined", "aborted"],
        help_text="waiting for players to accept; started (in play); finished; declined by a player; aborted "
                  "by its proposer.",
    )
    proposed_by = serializers.CharField()
    seated = serializers.ListField(child=serializers.CharField(), help_text="The people who have accepted.")
    awaited = serializers.ListField(child=serializers.CharField(),
                                    help_text="The people it still waits for, while it waits.")
    declined_by = serializers.CharField(allow_null=True)
    bot_accounts = serializers.ListField(child=serializers.CharField(),
                                         help_text="The names above (proposed_by, seated, awaited, declined_by) "
                                                   "that are bot accounts.")
    created_at = serializers.DateTimeField()

    class Meta:
        ref_name = "Rematch"


class SeatSummarySerializer(serializers.Serializer):
    seat = serializers.IntegerField(help_text="The seat number, from 0.")
    moves = serializers.IntegerField(help_text="The moves its player made (a resignation and a move played for "
                                               "them as their only one included).")
    bot_moves = serializers.IntegerField(help_text="The moves a bot made for the seat (its own seat, or after a "
                                                   "timeout).")
    seconds = serializers.FloatField(help_text="The player's time: from the move before each of their moves to it, "
                                               "added up.")
    longest_seconds = serializers.FloatField(help_text="The longest of those times.")

    class Meta:
        ref_name = "SeatSummary"


class TurningPointSerializer(serializers.Serializer):
    seq = serializers.IntegerField(help_text="The move after which the seat led.")
    leader = serializers.IntegerField(help_text="The seat that alone led the count every player could see.")
    scores = serializers.ListField(child=serializers.FloatField(), help_text="Every seat's count then, in seat order.")
    decisive = serializers.BooleanField(help_text="The last lead change, and its seat won the game.")

    class Meta:
        ref_name = "TurningPoint"


class GameSummarySerializer(serializers.Serializer):
    game = serializers.IntegerField()
    moves = serializers.IntegerField(help_text="Every entry of the game's log.")
    seconds = serializers.FloatField(help_text="From the game's start to its end.")
    seats = SeatSummarySerializer(many=True)
    turning_points = TurningPointSerializer(many=True, help_text="The latest lead changes (at most five), oldest "
                                                                  "first; empty for a game that keeps no public count.")
    lead_changes = serializers.IntegerField(help_text="How many times the lead changed hands in all.")

    class Meta:
        ref_name = "GameSummary"
