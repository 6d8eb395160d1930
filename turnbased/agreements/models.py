"""What the players of a table propose to each other, and their answers: a proposal is carried when every other
person at the table accepts it within its window (docs/players.md, "Agreements at the table")."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class ProposalKind(models.TextChoices):
    TAKE_BACK = "take_back", _("take back a move")
    PAUSE = "pause", _("pause the clocks")
    EXTRA_TIME = "extra_time", _("give a player extra time")
    DRAW = "draw", _("end the game as a draw")
    CANCEL = "cancel", _("cancel the game")


# The proposals put to a vote (a takeback has its own request and rules).
VOTES = (ProposalKind.PAUSE, ProposalKind.EXTRA_TIME, ProposalKind.DRAW, ProposalKind.CANCEL)


class ProposalStatus(models.TextChoices):
    OPEN = "open", _("waiting for answers")
    ACCEPTED = "accepted", _("accepted")
    DECLINED = "declined", _("declined")
    WITHDRAWN = "withdrawn", _("withdrawn")
    # Someone moved, or the window closed, before everyone answered.
    LAPSED = "lapsed", _("lapsed")


class Proposal(models.Model):
    """One proposal at a game in play, by the person at ``seat``; ``seq`` is the position it was made at (a new
    position lapses a takeback or a draw: ``rules.LAPSES_ON_MOVE``). ``terms`` say what is proposed: a takeback
    ``{"seq": <the move>}``, a pause ``{"days": n}``, extra time ``{"seat": s, "days": n}``, a draw or a cancel
    ``{}``."""

    game = models.ForeignKey("play.Game", on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=20, choices=ProposalKind.choices)
    seat = models.PositiveSmallIntegerField()
    proposer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    seq = models.PositiveIntegerField()
    terms = models.JSONField(default=dict)
    status = models.CharField(max_length=10, choices=ProposalStatus.choices, default=ProposalStatus.OPEN)
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-pk"]
        constraints = [
            # One question at a time: a second waits until the first is settled.
            models.UniqueConstraint(fields=["game"], condition=Q(status="open"), name="proposal_one_open_a_game"),
        ]
        indexes = [models.Index(fields=["game", "seat", "created_at"], name="proposal_by_seat")]

    def __str__(self) -> str:
        return f"{self.kind} at game {self.game_id} by seat {self.seat}: {self.status}"


class Answer(models.Model):
    """A seat's answer to a proposal: a person's, or a bot's by the rule the players' guide writes."""

    proposal = models.ForeignKey(Proposal, on_delete=models.CASCADE, related_name="answers")
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, related_name="+")
    accepted = models.BooleanField()
    answered_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["seat"]
        constraints = [models.UniqueConstraint(fields=["proposal", "seat"], name="answer_one_a_seat")]
