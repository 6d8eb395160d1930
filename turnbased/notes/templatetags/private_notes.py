"""The player's notes under the board, drawn from the game page's own context (``viewer``) with one include:
nothing for anyone who does not sit at the game, one query for a player."""

from django import template

from turnbased.notes import selectors
from turnbased.notes.models import MAX_NOTE_CHARS

register = template.Library()


@register.inclusion_tag("notes/_notes.html", takes_context=True)
def notes_panel(context):
    viewer, request = context["viewer"], context["request"]
    shown = viewer.seat is not None and request.user.is_authenticated
    return {
        "request": request, "csrf_token": context.get("csrf_token"), "shown": shown, "game": viewer.game,
        "note": selectors.note_of(viewer.game, request.user) if shown else None, "max_chars": MAX_NOTE_CHARS,
    }
