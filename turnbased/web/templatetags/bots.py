"""How the play pages name a built-in bot: by its kind, in the reader's language ("Basic bot"), as everywhere else."""

from django import template

from turnbased.play.seat_labels import bot_label

register = template.Library()


@register.filter
def bot_kind(bot: str) -> str:
    """Return the bot called ``bot`` (its slug: random, basic...) named by its kind."""
    return bot_label(bot)
