"""The API's shapes of fair entry: a table's requirements, asked for at its creation and read before joining."""

from __future__ import annotations

from rest_framework import serializers

from turnbased.entry.requirements import NUMBERS


def _number(name: str, help_text: str) -> serializers.IntegerField:
    least, most = NUMBERS[name]
    return serializers.IntegerField(required=False, allow_null=True, min_value=least, max_value=most,
                                    help_text=help_text)


class RequirementsSerializer(serializers.Serializer):
    min_reliability = _number("min_reliability", "Moves on time, in %, at least (the player page's move figure).")
    max_abandoned = _number("max_abandoned", "Of the last 10 finished games with a clock, at most this many left to "
                                             "a bot.")
    min_finished = _number("min_finished", "Finished games, at least.")
    rating_min = _number("rating_min", "The rating in this game (for this many players), at least. A player with "
                                       "none counts as 1000, provisional.")
    rating_max = _number("rating_max", "The rating in this game, at most.")
    provisional_ok = serializers.BooleanField(required=False, default=True,
                                              help_text="False: a provisional rating may not join.")
    new_players = serializers.BooleanField(required=False, default=True,
                                           help_text="False: a player with no finished game with a clock does not "
                                                     "meet the two reliability requirements (true: they do).")

    class Meta:
        ref_name = "TableRequirements"


class RequirementsReadSerializer(serializers.Serializer):
    asked = RequirementsSerializer(allow_null=True, help_text="What the table asks; null when it asks nothing.")
    worded = serializers.ListField(child=serializers.CharField(), help_text="Each requirement, in my language.")
    unmet = serializers.CharField(allow_null=True, help_text="Why I may not take a seat, naming the requirement I "
                                                             "miss; null when I meet them all (or sit at the table, "
                                                             "or it no longer takes players).")

    class Meta:
        ref_name = "TableRequirementsRead"


class WaitingCountsSerializer(serializers.Serializer):
    turns = serializers.IntegerField(help_text="Games in play where it is my turn, with another person at the table.")
    invitations = serializers.IntegerField(help_text="Invitations to open tables I have not answered.")
    tables = serializers.IntegerField(help_text="Open tables I sit at or made.")
    total = serializers.IntegerField(help_text="The three together: the games waiting on me.")


class WaitingLimitsSerializer(serializers.Serializer):
    to_create = serializers.IntegerField(allow_null=True, help_text="No new table while more games than this wait "
                                                                    "on me; null: no limit.")
    to_join = serializers.IntegerField(allow_null=True, help_text="No seat taken while more games than this wait on "
                                                                  "me; null: no limit.")
    open_games = serializers.IntegerField(allow_null=True, help_text="A new account's cap on games not yet finished "
                                                                     "(the site's number plus my finished games); "
                                                                     "null: no cap.")


class WaitingSerializer(serializers.Serializer):
    waiting = WaitingCountsSerializer()
    open_games = serializers.IntegerField(help_text="Games I play that have not finished (for the cap).")
    finished = serializers.IntegerField(help_text="Games I played to the end.")
    exempt = serializers.BooleanField(help_text="A bot account: no limit applies.")
    limits = WaitingLimitsSerializer()
    may_join = serializers.IntegerField(allow_null=True, help_text="How many more seats I may take now; null: no "
                                                                   "limit.")
    may_create = serializers.BooleanField(help_text="Whether I may create a table that waits for players now.")
    refusal = serializers.CharField(allow_null=True, help_text="Why I may take no seat now, in my language (the "
                                                               "same words as a refused join's); null when I may.")
    worded = serializers.CharField(help_text="Where I stand, in my language (\"You can join 2 more games.\"); empty "
                                             "when no limit applies.")

    class Meta:
        ref_name = "GamesWaiting"
