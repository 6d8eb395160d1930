"""Offers of a seat of a game in play to a person (issue 46): a seat a bot took over, offered by a player at the
table to a named person or to anyone in the lobby; or a player's own seat, handed to a named person. The person it is
for takes it (the core's ``play.services.seat_change``) or declines it (docs/players.md, "A person takes a seat")."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class OfferKind(models.TextChoices):
    BOT_SEAT = "bot_seat", _("a seat a bot took over")
    MY_SEAT = "my_seat", _("the player's own seat")


class OfferStatus(models.TextChoices):
    OPEN = "open", _("open")
    TAKEN = "taken", _("taken")
    DECLINED = "declined", _("declined")
    WITHDRAWN = "withdrawn", _("withdrawn")
    # The seat changed before anyone took it up (taken another way, handed to a bot, the game over), or the offer's
    # time ran out.
    LAPSED = "lapsed", _("lapsed")


class SeatOffer(models.Model):
    """One offer of ``seat`` of a game in play, by ``offered_by``, to ``offered_to`` (None: listed in the lobby,
    anyone may take it)."""

    game = models.ForeignKey("play.Game", on_delete=models.CASCADE, related_name="+")
    seat = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=10, choices=OfferKind.choices)
    offered_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    offered_to = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True,
                                   related_name="+")
    status = models.CharField(max_length=10, choices=OfferStatus.choices, default=OfferStatus.OPEN)
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-pk"]
        constraints = [
            # One offer of a seat at a time: another waits until the first is settled.
            models.UniqueConstraint(fields=["game", "seat"], condition=Q(status="open"), name="seat_offer_one_open"),
        ]
        indexes = [models.Index(fields=["status", "offered_to"], name="seat_offer_open_to")]

    def __str__(self) -> str:
        return f"offer of seat {self.seat} of game {self.game_id}: {self.status}"
