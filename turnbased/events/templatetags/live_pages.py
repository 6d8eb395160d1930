"""Pages that follow the event stream (``static/js/live.js``): the hook that tells the script where the stream is and
what the page shows, drawn from the page's own context with one line.

    {% load live_pages %}{% live_stream "game" %}   the game page: a player's, for their game
    {% live_stream "lobby" %}                        the lobby: every game of the signed-in person
    {% live_stream "replay" %}                       the replay: a player's, to follow the latest move

Nothing is drawn (and the page polls as before) without ``STREAM_URL``, for a visitor, for someone who
does not sit at the game (a stream holds only its user's own events), and for a bot account's session
(which the stream refuses). It reads no database: every value is in the context already.
"""

from __future__ import annotations

from django import template
from django.conf import settings

register = template.Library()

PAGES = ("game", "lobby", "replay")


@register.inclusion_tag("events/_live_stream.html", takes_context=True)
def live_stream(context, page: str):
    if page not in PAGES:
        raise template.TemplateSyntaxError(f"live_stream: the page is one of {', '.join(PAGES)}, not {page!r}")
    request = context.get("request")
    user = getattr(request, "user", None)
    if not settings.STREAM_URL or user is None or not user.is_authenticated:
        return {"url": None}
    hook = {"url": settings.STREAM_URL, "page": page, "game": None, "polls": False}
    if page == "lobby":
        # A seat taken at a table still waiting for players tells no one: while the lobby shows such a table
        # of mine, its watch keeps polling beside the stream.
        hook["polls"] = any(row["game"].status == "open" for row in context.get("rows") or ())
        return hook
    viewer = context.get("viewer")
    if viewer is None or viewer.seat is None or context.get("bot_account_viewer"):
        return {"url": None}
    hook["game"] = viewer.game.pk
    if page == "game":  # while the stream is open, the player counts as having the page open (no turn email)
        hook["url"] = f"{settings.STREAM_URL}{'&' if '?' in settings.STREAM_URL else '?'}game={viewer.game.pk}"
    return hook
