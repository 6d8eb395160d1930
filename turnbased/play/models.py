"""Games, seats and the append-only move log."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _, pgettext_lazy

from turnbased.kit.db.json_codec import FastJSONField


class GameStatus(models.TextChoices):
    OPEN = "open", _("Waiting for players")
    ACTIVE = "active", _("In play")
    FINISHED = "finished", _("Finished")
    ABORTED = "aborted", _("Aborted")


class Visibility(models.TextChoices):
    PUBLIC = "public", _("Public: listed in the lobby, anyone may join or watch")
    PRIVATE = "private", _("Private: only people with the invite link")


class MoveSource(models.TextChoices):
    WEB = "web", _("web page")
    API = "api", _("REST API")
    EMAIL = "email", _("email reply")
    TIMEOUT = "timeout", pgettext_lazy("how a move came", "timeout")
    BOT = "bot", pgettext_lazy("how a move came", "bot")
    SYSTEM = "system", pgettext_lazy("how a move came", "system")
    # The seat's only legal move, played at once because its player asked for it (``services.forced_moves``).
    AUTO = "auto", pgettext_lazy("how a move came", "forced move, played automatically")
    # A move taken back with everyone's consent (``services.moves.take_back``): the entry that returns to the
    # position before it.
    AGREED = "agreed", pgettext_lazy("how a move came", "taken back by agreement")


class Game(models.Model):
    """A table: its engine, options, secret seed, and a snapshot of the state at ``seq``.

    The snapshot is a cache of replaying the seed and the move log; only
    ``turnbased.play.store`` writes ``seq`` and ``state``.
    """

    engine = models.CharField(max_length=40)
    engine_version = models.PositiveIntegerField()
    options = models.JSONField(default=dict)
    seed = models.CharField(max_length=64)
    status = models.CharField(max_length=10, choices=GameStatus.choices, default=GameStatus.OPEN)
    visibility = models.CharField(max_length=10, choices=Visibility.choices, default=Visibility.PUBLIC)
    invite_code = models.CharField(max_length=32, unique=True)
    seat_count = models.PositiveSmallIntegerField()
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    # Names in seat order as given to the engine at start; a replay needs them unchanged.
    player_names = models.JSONField(default=list)
    seq = models.PositiveIntegerField(default=0)
    # Counts the changes to what comes with the game under its lock (its seats, its clocks) that no move makes: a
    # seat changing hands, an agreed pause or extra time (``store.touch``). A query that waited for the game's lock
    # reads those again when it changed (``store.locked``).
    revision = models.PositiveIntegerField(default=0)
    state = FastJSONField(null=True, blank=True)
    to_move = models.JSONField(default=list)
    result = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    last_move_at = models.DateTimeField(null=True, blank=True)
    # A finished game imported from a record (``import_record``): the original game's id, site and
    # players. Its seed commitment binds that id, not this row's.
    imported_from = models.JSONField(null=True, blank=True)
    # The terms features made the table with (``create_game(terms=...)``: a group, requirements, unrated, no
    # rematch), as given: a feature reads its own back from the row it holds, with no query of its own.
    terms = models.JSONField(default=dict, blank=True)
    # Held by a feature (``create_game(held=True)``) until it releases the table (``game_release``): only its seats
    # see it, and once over its secrets (the seed, every hand) stay hidden. A duplicate round's tables deal from one
    # seed, so one table's end must tell no other table's player anything until the round closes.
    held = models.BooleanField(default=False)

    class Meta:
        indexes = [models.Index(fields=["status", "visibility"])]

    @property
    def title(self) -> str:
        """Name the table for people, in the reader's language: the game's name and the table's number
        ("Love Letter #5")."""
        from games import engines

        engine = engines().get(self.engine)
        return f"{engine.display_name() if engine else self.engine} #{self.pk}"

    @property
    def result_line(self) -> str:
        """Say how the game ended (who won, and how) in the reader's language; "" while it goes on.

        The stored result's ``summary`` is the record's English line; this asks the engine to word it
        for the reader from the result and the players' names.
        """
        from games import engines
        from games.base import worded_result

        if not self.result:
            return ""
        engine = engines().get(self.engine)
        if engine is None:
            return str(self.result.get("summary", ""))
        return worded_result(engine, self.result, list(self.player_names))

    def __str__(self) -> str:
        return f"{self.title} ({self.status})"


# The bot name an imported game's seats hold (``services.record_import``): played by no account here, they are
# named as the record names its players.
IMPORTED_SEAT = "imported"


class Seat(models.Model):
    """A place at a table: a person, or a bot (``bot`` names it); a bot may also take over a person's seat."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="seats", null=True,
                             blank=True)
    bot = models.CharField(max_length=20, blank=True, help_text=_("The bot playing this seat, if any."))
    left_at = models.DateTimeField(null=True, blank=True, help_text=_("When the player left and a bot took over."))
    # When its person took it: at the table before the start, or later when the seat changed hands (``SeatChange``).
    joined_at = models.DateTimeField(auto_now_add=True)

    @property
    def display_name(self) -> str:
        if self.user_id is None:
            if self.bot == IMPORTED_SEAT and self.index < len(self.game.player_names):
                return self.game.player_names[self.index]
            return f"bot{self.index + 1}"
        return self.user.get_username()

    @property
    def bot_plays(self) -> bool:
        return bool(self.bot)

    class Meta:
        ordering = ["index"]
        constraints = [
            models.UniqueConstraint(fields=["game", "index"], name="seat_unique_index"),
            models.UniqueConstraint(fields=["game", "user"], name="seat_unique_user"),
        ]

    def __str__(self) -> str:
        return f"seat {self.index} of game {self.game_id}"


class SeatChange(models.Model):
    """A seat of a game in play changed hands: a person took a seat a bot had taken over (its player had left or
    run out of time), or a player handed their own seat to another person. ``seq`` is the position it happened at:
    the moves after it are the taker's (each logged move names its mover too)."""

    class Reason(models.TextChoices):
        TAKEN = "taken", _("took a seat a bot was playing")
        HANDED = "handed", _("was handed the seat by its player")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seat_changes")
    seat = models.PositiveSmallIntegerField()
    left_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+",
                                help_text=_("Who held the seat before (none for a seat a bot held from the start)."))
    taken_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    seq = models.PositiveIntegerField()
    reason = models.CharField(max_length=10, choices=Reason.choices)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "pk"]

    def __str__(self) -> str:
        return f"seat {self.seat} of game {self.game_id} {self.reason} at {self.seq}"


class Move(models.Model):
    """One entry of a game's append-only log (a database trigger refuses updates and deletes)."""

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="moves")
    seq = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+")
    move = FastJSONField()
    text = models.CharField(max_length=200)
    events = FastJSONField(default=list)
    source = models.CharField(max_length=10, choices=MoveSource.choices)
    idempotency_key = models.CharField(max_length=100, null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="move_unique_seq"),
            models.UniqueConstraint(
                fields=["game", "seat", "idempotency_key"],
                condition=Q(idempotency_key__isnull=False),
                name="move_unique_idempotency_key",
            ),
        ]

    def __str__(self) -> str:
        return f"game {self.game_id} move {self.seq}: {self.text}"


class ForcedMoveDue(models.Model):
    """A position whose only legal move waits to be played for its seat (``services.forced_moves``).

    Written in the transaction of the move that made the position, so a task lost between the two moves (the
    process died after the commit, a worker died playing it) is found again by the clock sweep. One per game:
    a newer position's row replaces an older one's.
    """

    game = models.OneToOneField(Game, on_delete=models.CASCADE, primary_key=True, related_name="+")
    seq = models.PositiveIntegerField()
    # How many forced moves were played in a row just before this position (the chain's bound).
    chain = models.PositiveSmallIntegerField(default=0)
    due_since = models.DateTimeField()
    # When it is played: drawn by its first task like the player's own time to move (``forced_timing``); None
    # until then.
    due_at = models.DateTimeField(null=True, blank=True)
    # When the player comes back from the absence the moment was put off past (no move of theirs comes while they
    # are away); None when it was not. Drawn again from the moment they come back, should that be earlier.
    returns_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"forced move due in game {self.game_id} at {self.seq}"


class Invitation(models.Model):
    """A player's invitation of another person to an open table; pending until taken up, declined, or the table starts.

    One per (table, person): inviting again changes nothing, and a declined invitation stays declined.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="invitations")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations")
    invited_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    declined_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [models.UniqueConstraint(fields=["game", "user"], name="invitation_unique_person")]

    def __str__(self) -> str:
        return f"invitation of {self.user_id} to game {self.game_id}"
