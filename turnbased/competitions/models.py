"""Competitions: an event's settings, its entrants, its stages and rounds, each round's tables and byes, the places
its games gave, and the standings kept up to date as they end (docs/players.md, "Competitions")."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _, pgettext_lazy


class Format(models.TextChoices):
    """How a stage pairs its entrants."""

    ROUND_ROBIN = "round_robin", _("Round robin")
    SWISS = "swiss", _("Swiss")
    ELIMINATION = "elimination", _("Elimination")
    DOUBLE_ELIMINATION = "double_elimination", _("Double elimination")
    LADDER = "ladder", _("Ladder")


class EntryKind(models.TextChoices):
    """Who may enter."""

    OPEN = "open", _("Open to everyone")
    GROUP = "group", _("The group's members")
    INVITATION = "invitation", _("By invitation")


class DeadlinePolicy(models.TextChoices):
    """What becomes of a game still going when its round's deadline comes."""

    PLAY_OUT = "play_out", _("The seats' bots play it out at once")
    ADJUDICATE = "adjudicate", _("Adjudicated on the count so far, which everyone can see")
    ALL_LOSE = "all_lose", _("Every player at the table loses")


class TakebackPolicy(models.TextChoices):
    """Whether the players at the competition's tables may take a move back by consent (issue 46), and whether its
    bots agree to it: the organiser decides (the table term ``agreements`` tells each table)."""

    PEOPLE = "people", _("Players may agree to take a move back; bots never agree")
    EVERYONE = "everyone", _("Players may agree to take a move back; bots agree too")
    FORBIDDEN = "forbidden", _("No move may be taken back")


# What the players at a competition's tables may agree to by vote (issue 46), as the organiser chose; a competition's
# game is never cancelled (its round needs a result).
AGREEMENT_KINDS = ("pause", "extra_time", "draw")


def all_agreements() -> list[str]:
    return list(AGREEMENT_KINDS)


class ByePolicy(models.TextChoices):
    """What a bye scores."""

    FIXED = "fixed", _("A fixed number of points")
    AVERAGE = "average", _("The average of a full table")


class CompetitionStatus(models.TextChoices):
    ENTRY = "entry", _("Taking entries")
    RUNNING = "running", pgettext_lazy("a competition", "Under way")
    FINISHED = "finished", pgettext_lazy("a competition", "Finished")
    CANCELLED = "cancelled", pgettext_lazy("a competition", "Cancelled")


class Competition(models.Model):
    """An event: the game it plays and how, who may enter, when it starts, how points, ties and deadlines go.

    Its games are tables like any other, made through the core's services with the event's game, options and clock;
    its stages (``Stage``) follow one another.
    """

    name = models.CharField(max_length=80)
    description = models.TextField(blank=True, max_length=4000)
    organiser = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    engine = models.CharField(max_length=40)
    table_size = models.PositiveSmallIntegerField()
    options = models.JSONField(default=dict)
    # The clock of every game, as a table takes it (``clocks.services.table_clock_create``).
    time_control = models.JSONField(default=dict)
    entry = models.CharField(max_length=12, choices=EntryKind.choices, default=EntryKind.OPEN)
    group = models.ForeignKey("groups.Group", on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    # Fair entry's requirements (``entry.requirements.read``), checked at entry and again a day before the start.
    requirements = models.JSONField(default=dict)
    min_entrants = models.PositiveSmallIntegerField(default=2)
    max_entrants = models.PositiveIntegerField(null=True, blank=True)
    starts_at = models.DateTimeField(null=True, blank=True)
    start_when_full = models.BooleanField(default=False)
    # A Swiss first stage takes late entries while fewer than this many of its rounds are paired: a late entrant
    # plays from the next (0 or 1: none after the start).
    late_entry_rounds = models.PositiveSmallIntegerField(default=0)
    rated = models.BooleanField(default=True)
    takebacks = models.CharField(max_length=10, choices=TakebackPolicy.choices, default=TakebackPolicy.PEOPLE)
    # The agreements by vote its tables allow (``AGREEMENT_KINDS``); the others are forbidden there.
    agreements = models.JSONField(default=all_agreements)
    # Points per place by table size, where the organiser changed the defaults ({"3": [5, 2, 0]}).
    points = models.JSONField(default=dict)
    bye_policy = models.CharField(max_length=8, choices=ByePolicy.choices, default=ByePolicy.FIXED)
    bye_points = models.FloatField(default=1)
    tiebreaks = models.JSONField(default=list)
    deadline_policy = models.CharField(max_length=12, choices=DeadlinePolicy.choices,
                                       default=DeadlinePolicy.PLAY_OUT)
    # Days a round lasts before its deadline; None: estimated from the clock and a typical game's length.
    round_days = models.PositiveSmallIntegerField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=CompetitionStatus.choices, default=CompetitionStatus.ENTRY)
    # When the entrants' requirements were checked again, a day before the start (None: not yet).
    requirements_rechecked_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # Kept on the row, as every list of events shows it.
    entrant_count = models.PositiveIntegerField(default=0)
    # A league's season (``services.seasons``): the league's settings ({"division_size", "movers", "break_days"}),
    # which season this is (1, 2, ...; 0 for a competition that is no league's) and the season before it.
    league = models.JSONField(null=True, blank=True)
    season = models.PositiveSmallIntegerField(default=0)
    previous_season = models.OneToOneField("self", on_delete=models.SET_NULL, null=True, blank=True,
                                           related_name="next_season")
    # A ladder (``services.ladders``): {"reach", "open_challenges", "cooldown_days", "days"}; None for no ladder.
    ladder = models.JSONField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["status", "engine"], name="competitions_status_engine")]

    def __str__(self) -> str:
        return self.name


class StageStatus(models.TextChoices):
    WAITING = "waiting", _("Waiting")
    RUNNING = "running", pgettext_lazy("a stage", "Under way")
    FINISHED = "finished", pgettext_lazy("a stage", "Finished")


class Stage(models.Model):
    """One stage of an event (heats, semi-finals, a final): its format, and how many of it go on to the next."""

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="stages")
    number = models.PositiveSmallIntegerField()
    format = models.CharField(max_length=20, choices=Format.choices)
    # Swiss: how many rounds; round robin: how many times each pool's tables are played (cycles).
    rounds = models.PositiveSmallIntegerField(default=1)
    # Round robin: players per pool (0: one pool of everyone); sequential: a round's tables start only when every
    # table of the round before has finished (else every table of a pool starts at once).
    pool_size = models.PositiveSmallIntegerField(default=0)
    sequential = models.BooleanField(default=False)
    # Duplicate: every table of a round deals from the round's one seed, its games held from everyone but their seats
    # until the round closes (``services.duplicates``); only where a round seats each entrant once.
    duplicate = models.BooleanField(default=False)
    # How many go on to the next stage: of each pool (round robin), of the stage (Swiss), of each table
    # (multi-player elimination: keep the top K). None on the last stage.
    advance = models.PositiveSmallIntegerField(null=True, blank=True)
    # Elimination: the bracket (``pairing.elimination.bracket_to_json``) and the seeds (entrant ids, seed 1 first).
    bracket = models.JSONField(null=True, blank=True)
    seeds = models.JSONField(default=list)
    status = models.CharField(max_length=10, choices=StageStatus.choices, default=StageStatus.WAITING)

    class Meta:
        ordering = ["number"]
        constraints = [models.UniqueConstraint(fields=["competition", "number"], name="stage_unique_number")]

    def __str__(self) -> str:
        return f"stage {self.number} of competition {self.competition_id}"


class EntrantStatus(models.TextChoices):
    ACTIVE = "active", _("Playing")
    WITHDRAWN = "withdrawn", _("Withdrawn")
    ELIMINATED = "eliminated", _("Out")


class WithdrawnBecause(models.TextChoices):
    THEMSELVES = "themselves", _("withdrew")
    TIMEOUT = "timeout", _("ran out of time")
    REQUIREMENTS = "requirements", _("no longer met the requirements")
    ORGANISER = "organiser", _("removed by the organiser")


class Entrant(models.Model):
    """A person entered in an event."""

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="entrants")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="competition_entries")
    status = models.CharField(max_length=10, choices=EntrantStatus.choices, default=EntrantStatus.ACTIVE)
    withdrawn_because = models.CharField(max_length=12, choices=WithdrawnBecause.choices, blank=True)
    # The rating at the start (seeding order), and the seed number it gave.
    rating = models.FloatField(default=0)
    seed = models.PositiveIntegerField(null=True, blank=True)
    entered_at = models.DateTimeField(auto_now_add=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    # A league's season: where a player of the season before stands in this one's order (None: a newcomer, placed
    # below them), and whether promotion or relegation moved them (``pairing.divisions``).
    league_order = models.PositiveIntegerField(null=True, blank=True)
    league_move = models.CharField(max_length=5, blank=True)

    class Meta:
        ordering = ["seed", "entered_at", "pk"]
        constraints = [models.UniqueConstraint(fields=["competition", "user"], name="entrant_unique_person")]
        indexes = [models.Index(fields=["user", "status"], name="competitions_entrant_user")]

    def __str__(self) -> str:
        return f"entrant {self.user_id} of competition {self.competition_id}"


class CompetitionInvitation(models.Model):
    """An invitation to enter an invitation-only event (the organiser's)."""

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="invitations")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["competition", "user"], name="competition_invitation_unique")]

    def __str__(self) -> str:
        return f"invitation of {self.user_id} to competition {self.competition_id}"


class Standing(models.Model):
    """An entrant's line in a stage: their points and every tie-break's figure, moved on as each game ends
    (``standings``); a recomputation from the places and byes gives the same (``standings.recomputed``)."""

    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="standings")
    entrant = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="standings")
    pool = models.PositiveSmallIntegerField(default=0)
    points = models.FloatField(default=0)
    games = models.PositiveIntegerField(default=0)
    byes = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    second_places = models.PositiveIntegerField(default=0)
    third_places = models.PositiveIntegerField(default=0)
    score_ratio_sum = models.FloatField(default=0)
    score_ratio_games = models.PositiveIntegerField(default=0)
    buchholz = models.FloatField(default=0)
    sonneborn_berger = models.FloatField(default=0)
    # Elimination: the round they went out in (None while in); the final place once the stage is over.
    out_in_round = models.PositiveSmallIntegerField(null=True, blank=True)
    place = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["stage", "entrant"], name="standing_unique_entrant")]

    def __str__(self) -> str:
        return f"standing of entrant {self.entrant_id} in stage {self.stage_id}"


class RoundStatus(models.TextChoices):
    PAIRED = "paired", _("Paired")
    OPENING = "opening", _("Opening")
    OPEN = "open", pgettext_lazy("a round", "In play")
    CLOSED = "closed", pgettext_lazy("a round", "Closed")


class Round(models.Model):
    """A round of a stage: paired once (its tables written as planned), opened (their games made, in batches that
    a crash halfway resumes), closed when every game has finished or at its deadline."""

    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="rounds_played")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=8, choices=RoundStatus.choices, default=RoundStatus.PAIRED)
    deadline = models.DateTimeField(null=True, blank=True)
    opened_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    # A duplicate stage's round: the seed every table deals from, committed to when the round is paired and shown
    # once it closes (``services.duplicates``); blank in any other round.
    seed = models.CharField(max_length=64, blank=True, default="")

    class Meta:
        ordering = ["stage__number", "number"]
        constraints = [models.UniqueConstraint(fields=["stage", "number"], name="round_unique_number")]
        indexes = [models.Index(fields=["status", "deadline"], name="competitions_round_due")]

    def __str__(self) -> str:
        return f"round {self.number} of stage {self.stage_id}"


class TableStatus(models.TextChoices):
    PLANNED = "planned", _("Planned")
    PLAYING = "playing", pgettext_lazy("an event's table", "In play")
    FINISHED = "finished", pgettext_lazy("an event's table", "Finished")


class Settled(models.TextChoices):
    """How a game still going at its round's deadline was settled (blank: it was played to its end)."""

    PLAYED = "", _("played to the end")
    PLAYED_OUT = "played_out", _("played out by bots at the deadline")
    ADJUDICATED = "adjudicated", _("adjudicated at the deadline")
    ALL_LOST = "all_lost", _("stopped at the deadline: every player lost")
    ABANDONED = "abandoned", _("stopped: every player left at it had withdrawn")
    WITHDRAWN = "withdrawn", _("not played: a player had withdrawn")


class EventTable(models.Model):
    """A table of a round: who sits where (entrant ids in seat order), planned when the round is paired, its game
    made when the round opens; in a bracket, the match it plays."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    pool = models.PositiveSmallIntegerField(default=0)
    match = models.CharField(max_length=12, blank=True)
    players = models.JSONField()
    game = models.OneToOneField("play.Game", on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    status = models.CharField(max_length=8, choices=TableStatus.choices, default=TableStatus.PLANNED)
    settled = models.CharField(max_length=12, choices=Settled.choices, default=Settled.PLAYED, blank=True)
    # A ladder's challenge: who challenged (``services.ladders``); None at any other table.
    challenger = models.ForeignKey(Entrant, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")

    class Meta:
        ordering = ["round", "number"]
        constraints = [models.UniqueConstraint(fields=["round", "number"], name="event_table_unique_number")]
        indexes = [models.Index(fields=["round", "status"], name="competitions_table_state")]

    def __str__(self) -> str:
        return f"table {self.number} of round {self.round_id}"


class Placement(models.Model):
    """Where an entrant placed at a finished table, and the points it gave them."""

    table = models.ForeignKey(EventTable, on_delete=models.CASCADE, related_name="placements")
    entrant = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="placements")
    seat = models.PositiveSmallIntegerField()
    place = models.PositiveSmallIntegerField()
    points = models.FloatField()
    score = models.FloatField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["table", "entrant"], name="placement_unique_entrant")]

    def __str__(self) -> str:
        return f"entrant {self.entrant_id} placed {self.place} at table {self.table_id}"


class Bye(models.Model):
    """A round an entrant was not seated in, and the points it gave them."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="byes")
    entrant = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="byes")
    points = models.FloatField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["round", "entrant"], name="bye_unique_entrant")]

    def __str__(self) -> str:
        return f"bye of entrant {self.entrant_id} in round {self.round_id}"


class EntryBar(models.Model):
    """A person's timeouts in events' games, and until when they may enter no new event (docs/players.md)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True,
                                related_name="+")
    timeouts = models.PositiveSmallIntegerField(default=0)
    barred_until = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"entry bar of {self.user_id}"
