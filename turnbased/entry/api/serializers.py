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
