"""Player names as links to their pages (bots by their kind), and the ratings card of the lobby."""

from __future__ import annotations

from django import template
from django.contrib.auth.models import AbstractBaseUser
from django.urls import reverse
from django.utils.html import format_html

from turnbased.play.models import Seat
from turnbased.ratings import selectors

register = template.Library()


@register.filter
def player_link(value) -> str:
    """Link a person's name to their page: from an account, a seat or an archive's ``SeatLabel``.

    A bot's seat has no link: a ``SeatLabel`` names it by its kind ("Basic bot"); a ``Seat`` by the
    name the table gave it ("bot2"), as the game page adds the kind beside it.
    """
    if isinstance(value, Seat):
        if value.user_id is None:
            return format_html("{}", value.display_name)
        value = value.user
    if isinstance(value, selectors.SeatLabel):
        if value.username is None:
            return format_html('<span class="bot-name">{}</span>', value.name)
        username = value.username
    elif isinstance(value, AbstractBaseUser):
        username = value.get_username()
    else:
        return format_html("{}", value)
    return format_html('<a class="player-link" href="{}">{}</a>', reverse("player", args=[username]), username)


@register.inclusion_tag("ratings/_lobby_ratings.html", takes_context=True)
def lobby_ratings(context) -> dict:
    """Draw the lobby's ratings card: the viewer's ratings and a leaderboard link per game."""
    user = context["request"].user
    return {
        "user": user,
        "ratings": selectors.ratings_of(user) if user.is_authenticated else [],
        "games": selectors.leaderboard_games(),
    }
