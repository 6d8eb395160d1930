"""Player names as links to their pages (bots by their kind, bot accounts with a badge), ratings as pages show them,
and the ratings card of the lobby."""

from __future__ import annotations

from django import template
from django.contrib.auth.models import AbstractBaseUser
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.conf import settings
from django.utils.translation import gettext, ngettext

from turnbased.accounts.models import is_bot_account
from turnbased.play.models import Seat
from turnbased.play.seat_labels import SeatLabel
from turnbased.ratings import selectors

register = template.Library()


def bot_account_badge_html() -> SafeString:
    """Return the badge beside a bot account's name wherever it is shown, in the active language: "bot account",
    not "bot", which names the built-in bots ("Basic bot") that fill a seat."""
    return format_html(
        '<span class="badge bot-account" title="{}">{}</span>',
        gettext("A bot account: a program its owner runs, playing through the API"), gettext("bot account"),
    )


def _named(value) -> tuple[str | None, str, bool]:
    """Return the account's username (None for a built-in bot), the name to show, and whether it is a bot account.

    From an account, a seat or an archive's ``SeatLabel``; a bot account is read from the profile loaded with
    the account (``select_related("user__profile")``).
    """
    if isinstance(value, Seat):
        if value.user_id is None:
            return None, value.display_name, False
        value = value.user
    if isinstance(value, SeatLabel):
        return value.username, value.name, value.bot_account
    if isinstance(value, AbstractBaseUser):
        return value.get_username(), value.get_username(), is_bot_account(value)
    return None, str(value), False


@register.filter
def player_link(value) -> SafeString:
    """Link a person's name to their page: from an account, a seat or an archive's ``SeatLabel``.

    A bot's seat has no link: a ``SeatLabel`` names it by its kind ("Basic bot"); a ``Seat`` by the
    name the table gave it ("bot2"), as the game page adds the kind beside it. A bot account's name
    carries the bot account badge.
    """
    username, name, bot_account = _named(value)
    if username is None:
        if isinstance(value, SeatLabel):
            return format_html('<span class="bot-name">{}</span>', name)
        return format_html("{}", name)
    link = format_html('<a class="player-link" href="{}">{}</a>', reverse("player", args=[username]), username)
    return format_html("{} {}", link, bot_account_badge_html()) if bot_account else link


@register.filter
def player_name(value) -> SafeString:
    """Name a person (from an account, a seat or a ``SeatLabel``) without a link, with a bot account's badge."""
    _, name, bot_account = _named(value)
    return format_html("{} {}", name, bot_account_badge_html()) if bot_account else format_html("{}", name)


@register.simple_tag
def bot_account_badge(flag_or_name, bot_accounts=None) -> SafeString:
    """Return the bot account badge (after a space) for a name whose row flags it: ``{% bot_account_badge
    row.bot_account %}``, or ``{% bot_account_badge name names %}`` for a name among the bot accounts' names."""
    bot_account = flag_or_name in bot_accounts if bot_accounts is not None else bool(flag_or_name)
    return format_html(" {}", bot_account_badge_html()) if bot_account else SafeString("")


@register.simple_tag
def names_with_badges(names, bot_accounts) -> SafeString:
    """Return ``names`` as one comma-separated text, each bot account's name with its badge: for a sentence
    (``{% names_with_badges awaited bot_accounts as awaited %}``) that names them all."""
    return format_html_join(", ", "{}{}", ((name, bot_account_badge(name, bot_accounts)) for name in names))


@register.filter
def rating_shown(rating) -> SafeString:
    """Show a rating's number as pages do: with a "?" while it is provisional, which says why on hover and to a
    screen reader, in the reader's language."""
    if not rating.provisional:
        return format_html("{}", rating.display)
    count = settings.RATINGS_PROVISIONAL_GAMES
    why = ngettext("Provisional: from fewer than %(count)s rated game", "Provisional: from fewer than %(count)s rated "
                   "games", count) % {"count": count}
    return format_html('{}<abbr class="provisional" title="{}">?</abbr>', rating.display, why)


@register.inclusion_tag("ratings/_lobby_ratings.html", takes_context=True)
def lobby_ratings(context) -> dict:
    """Draw the lobby's ratings card: the viewer's ratings and a leaderboard link per game."""
    user = context["request"].user
    return {
        "user": user,
        "ratings": selectors.ratings_of(user) if user.is_authenticated else [],
        "games": selectors.leaderboard_games(),
        "min_days": settings.RATINGS_MIN_ACCOUNT_DAYS,
        "min_games": settings.RATINGS_MIN_FINISHED_GAMES,
    }
