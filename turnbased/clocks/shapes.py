"""The API's shape of a time control asked for (a table's at its creation, a competition's for every game of it):
each key optional and typed, so that what the schema takes the clocks take (``services.time_control_read``)."""

from __future__ import annotations

from rest_framework import serializers

from turnbased.clocks.models import ClockKind, ExpiryPolicy, StandIn
from turnbased.clocks.services import DAYS_PER_MOVE, MAX_CLOCK_DAYS
from turnbased.kit.api.input import BodySerializer


class TimeControlRequestSerializer(BodySerializer):
    """The time control asked for at creation; every key is optional."""

    kind = serializers.ChoiceField(choices=ClockKind.choices, required=False, help_text='Default "none": no clock.')
    days_per_move = serializers.ChoiceField(choices=DAYS_PER_MOVE, required=False,
                                            help_text='For kind "per_move" (default 3).')
    bank_days = serializers.IntegerField(min_value=1, max_value=MAX_CLOCK_DAYS, required=False,
                                         help_text='For kind "bank" (default 7).')
    increment_days = serializers.IntegerField(min_value=0, max_value=MAX_CLOCK_DAYS, required=False,
                                              help_text='For kind "bank": at most bank_days (default 1).')
    weekends_off = serializers.BooleanField(required=False, help_text="Default false.")
    allow_absence = serializers.BooleanField(required=False, help_text="Default true.")
    expiry = serializers.ChoiceField(choices=ExpiryPolicy.choices, required=False, help_text='Default "bot_turn".')
    stand_in = serializers.ChoiceField(
        choices=StandIn.choices, required=False,
        help_text='The bot that plays a late turn and takes over a seat left. Default "basic" for a table, "strong" for '
                  "a competition's games.")

    class Meta:
        ref_name = "TimeControlRequest"
