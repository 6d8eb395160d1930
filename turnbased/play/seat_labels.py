"""How a seat is named wherever players are listed: the person who sat there, or a bot by its kind."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext

from turnbased.accounts.models import is_bot_account
from turnbased.play.models import IMPORTED_SEAT, Seat


def bot_label(bot: str) -> str:
    """Return how a bot is named wherever a player would be: by its kind ("Basic bot"), in the active language."""
    if bot == "random":
        return gettext("Random bot")
    if bot == "basic":
        return gettext("Basic bot")
    if bot == "strong":
        return gettext("Strong bot")
    return gettext("%(kind)s bot") % {"kind": bot.capitalize()}  # a bot a game adds later, named by its slug


@dataclass(frozen=True)
class SeatLabel:
    """A name at a table: a person (with their page; ``bot_account`` when the account is one) or a bot by its kind."""

    name: str
    username: str | None
    bot: str | None
    bot_account: bool = False


def seat_label(seat: Seat) -> SeatLabel:
    """Return how a seat is named: the person who sat there, or for a bot's seat from the start, its kind.

    Whether the person is a bot account is read from the profile loaded with the seat's user.
    """
    if seat.user_id is None and seat.bot == IMPORTED_SEAT:  # a game imported from a record: its player's name
        return SeatLabel(name=seat.display_name, username=None, bot=None)
    if seat.user_id is None:
        return SeatLabel(name=bot_label(seat.bot or "random"), username=None, bot=seat.bot or "random")
    return SeatLabel(name=seat.user.get_username(), username=seat.user.get_username(), bot=None,
                     bot_account=is_bot_account(seat.user))
