"""Following on the pages: the follow control of a game, a group or a competition, and the lobby's followed games.
Each is one query for a signed-in person (their watch, or whether they follow anything), none for a visitor."""

from django import template
from django.urls import reverse

from turnbased.competitions.models import CompetitionStatus
from turnbased.following import selectors
from turnbased.following.models import Notify
from turnbased.play.models import GameStatus

register = template.Library()


@register.inclusion_tag("following/_control.html", takes_context=True)
def follow_control(context, kind: str, target, card: bool = False):
    """The follow control of ``target`` (a game, a group or a competition), for a signed-in person who may follow it:
    not a game they sit at or one that is over (``selectors.target_for`` refuses the rest with a reason)."""
    request = context["request"]
    user = request.user
    shown = user.is_authenticated
    if kind == "game":
        viewer = context.get("viewer")
        shown = shown and viewer is not None and viewer.seat is None and target.status in (GameStatus.OPEN,
                                                                                            GameStatus.ACTIVE)
    elif kind == "group":  # a group's games are its members' to see: its page knows the membership
        shown = shown and context.get("membership") is not None
    else:
        shown = shown and target.status not in (CompetitionStatus.FINISHED, CompetitionStatus.CANCELLED)
    watch = selectors.watch_of(user, kind, target.pk) if shown else None
    follow_url = reverse(f"following-follow-{kind}", args=[target.pk]) if shown and watch is None else ""
    return {"shown": shown, "card": card, "follow_url": follow_url, "kind": kind, "target": target, "watch": watch,
            "choices": Notify.choices, "next": request.get_full_path(), "csrf_token": context.get("csrf_token")}


@register.inclusion_tag("following/_lobby.html", takes_context=True)
def followed_games(context):
    return {"feed": selectors.lobby_feed(context["request"].user)}
