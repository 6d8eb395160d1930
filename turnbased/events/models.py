"""The durable events of each user: what the stream (and webhooks) tell them, kept at least a week.

Rows are written in the same transaction as the change they tell of
(``services.events_record``), each worded for the one user it is for; the id,
which grows with every row, is the stream's event id.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.postgres.indexes import BrinIndex
from django.db import models


class EventKind(models.TextChoices):
    """Every kind of event a user can be told of, named in one place."""

    GAME_STARTED = "game_started", "a game I sit at started"
    YOUR_TURN = "your_turn", "it became my turn"
    MOVE_PLAYED = "move_played", "someone else's move, as I may see it"
    MESSAGE_POSTED = "message_posted", "someone said something at my table"
    GAME_FINISHED = "game_finished", "a game I sit at ended"
    DEADLINE_NEAR = "deadline_near", "my deadline is near"
    # Issue 44: groups.
    GROUP_INVITATION = "group_invitation", "I was invited to a group"
    GROUP_REQUEST = "group_request", "someone asked to join a group I am an admin of"
    # Issue 44: fair entry.
    TABLES_LEFT = "tables_left", "a bot took my seat, so I left the tables I was waiting to start"
    # Issue 45: competitions.
    COMPETITION_INVITATION = "competition_invite", "I was invited to enter a competition"
    COMPETITION_STARTED = "competition_started", "a competition I entered started"
    COMPETITION_TABLE = "competition_table", "my table in a competition's round is open"
    COMPETITION_ROUND = "competition_round", "a round of a competition I play in closed"
    COMPETITION_ENDED = "competition_ended", "a competition I entered ended (or was called off)"
    COMPETITION_REMOVED = "competition_removed", "I was withdrawn from a competition (a timeout, the organiser)"
    COMPETITION_SEASON = "competition_season", "a league I play in opened its next season, and entered me in it"
    COMPETITION_CHALLENGE = "ladder_challenge", "a player challenged me on a ladder: our game is open"
    # Issue 46: at the table.
    GAME_NOTE = "game_note", "I changed my private notes on a game (my own devices are told)"
    PROPOSAL_MADE = "proposal_made", ("A player at my table proposed something for all to agree (a takeback, a pause, "
                                      "extra time, a draw, a cancel)")
    PROPOSAL_DECIDED = "proposal_decided", "A proposal at my table was accepted, declined, withdrawn or lapsed"
    SEAT_OFFERED = "seat_offered", "A player offered me a seat in a game in play"
    SEAT_TAKEN = "seat_taken", ("A seat at my table changed hands (a person took it from a bot, or its player "
                                "handed it on)")
    FOLLOWED_MOVE = "followed_move", "A game I follow moved on (what any spectator may see)"
    FOLLOWED_END = "followed_end", "A game I follow ended"


class Event(models.Model):
    """One thing one user is told, with what they may know of it (``payload``) and nothing more."""

    id = models.BigAutoField(primary_key=True)
    # The (user, id) index serves every read; an index of its own on user alone would only cost writes.
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", db_index=False)
    kind = models.CharField(max_length=20, choices=EventKind.choices)
    # Games are never deleted while they have events but in tests and by hand: no index for that.
    game = models.ForeignKey("play.Game", on_delete=models.CASCADE, related_name="+", null=True, blank=True,
                             db_index=False)
    seq = models.PositiveIntegerField(null=True, blank=True, help_text="The game's seq the event is about.")
    payload = models.JSONField(default=dict)
    created_at = models.DateTimeField()

    class Meta:
        indexes = [
            models.Index(fields=["user", "id"], name="event_user_id"),
            # Rows are appended in time order: a block range index finds the old ones for pruning at little cost.
            BrinIndex(fields=["created_at"], name="event_created_brin"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} #{self.pk} for {self.user_id}"


# The PostgreSQL channel on which every insert of events notifies the stream processes (migration 0001's
# trigger names it too): its payload is the users written to, comma-separated, or "*" for everyone.
NOTIFY_CHANNEL = "turnbased_events"
