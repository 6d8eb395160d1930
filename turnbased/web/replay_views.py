"""The replay page: any position of a game drawn with the game's own board, a step at a time.

Plain links and a form move through it, so it works without a script; static/js/replay.js adds
the arrow keys, makes the slider go where it is let go, and steps without reloading the page: it
asks for the same address with ``HX-Request``, which answers the page's content alone (its title
and the position, no site header), and swaps the position and its history in.
"""

from __future__ import annotations

from django.http import Http404, HttpResponseBadRequest
from django.shortcuts import render
from django.template.loader import select_template
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext
from django.views.decorators.http import require_safe

from turnbased.kit.errors import GameNotFound
from turnbased.play import positions, store
from turnbased.kit.db.replica import reads_from_replica
from turnbased.web.views import _seq_param, _viewer_or_404


@require_safe
@reads_from_replica
def game_replay(request, game_id: int):
    """Show the position ``?seq=`` (the latest without it) as the viewer saw it then, or every secret once over."""
    raw = request.GET.get("seq")
    seq = _seq_param(raw)
    if raw is not None and seq is None:
        return HttpResponseBadRequest(gettext("seq must be a move number."))
    viewer = _viewer_or_404(game_id, request)
    game = viewer.game
    try:
        shown = positions.position(viewer, game.seq if seq is None else seq)
    except GameNotFound:
        raise Http404(gettext("No such position in this game.")) from None
    engine = store.engine_of(game)
    names = list(game.player_names)
    fragment = bool(request.headers.get("HX-Request"))
    response = render(request, "play/game_replay.html", {
        # A step taken by the page's script: the position without the site around it (play/_page_content.html).
        "base_template": "play/_page_content.html" if fragment else "base.html",
        "game": game,
        "engine": engine,
        "viewer": viewer,
        "position": shown,
        "view": shown.view,
        "board": engine.board_data(shown.view, []),
        "moves": [],
        "replay": True,  # boards that say whose turn it is say instead that this is a past position
        "board_template": select_template([f"games/{game.engine}/board.html", "games/_default_board.html"]),
        "board_styles": select_template([f"games/{game.engine}/styles.html", "games/_default_styles.html"]),
        "names": names,
        "to_move": [names[seat] for seat in shown.to_move if seat < len(names)],
        "mover": names[shown.mover] if shown.mover is not None and shown.mover < len(names) else None,
        "history": positions.history_around(viewer, shown.seq),
        "steps": {"first": 0, "previous": max(0, shown.seq - 1), "next": min(shown.last_seq, shown.seq + 1),
                  "last": shown.last_seq},
    })
    # The same address answers a whole page or its content: a cache must keep them apart.
    patch_vary_headers(response, ["HX-Request"])
    return response
