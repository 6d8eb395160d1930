"""The player's notes under the board, drawn from the game page's own context (``viewer``) with one include:
nothing for anyone who does not sit at the game, one query for a player."""

from django import template

from turnbased.notes import selectors
from turnbased.notes.marks import marks_shown
from turnbased.notes.models import MAX_MARK_LABEL_CHARS, MAX_NOTE_CHARS
from turnbased.play import store

register = template.Library()


@register.inclusion_tag("notes/_notes.html", takes_context=True)
def notes_panel(context):
    viewer, request = context["viewer"], context["request"]
    shown = viewer.seat is not None and request.user.is_authenticated
    note = selectors.note_of(viewer.game, request.user) if shown else None
    # The cards and tiles the player may mark, read from the view the page drew (their seat's): no second view.
    view = context.get("view")
    spots = store.engine_of(viewer.game).mark_spots(view) if shown and view is not None else []
    return {
        "request": request, "csrf_token": context.get("csrf_token"), "shown": shown, "game": viewer.game,
        "note": note, "max_chars": MAX_NOTE_CHARS, "spots": spots, "max_label": MAX_MARK_LABEL_CHARS,
        **marks_shown(note.marks if note else [], spots),
    }
