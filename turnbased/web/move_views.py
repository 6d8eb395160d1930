"""The player's legal moves as buttons, asked for apart from the panel when there are many (issue 47).

A Savernake Forest turn has thousands of legal moves: drawn into every panel as buttons they were most of a 425 KB
page. The panel folds them under "All legal moves as buttons", and opening it asks for them here (htmx, into the
fold); without a script, the fold's link opens them as a page of their own. Only the viewer's own moves, as the
panel would show them: a spectator, or a player whose turn it is not, gets none.
"""

from __future__ import annotations

import json
import uuid

from django.http import Http404
from django.shortcuts import render
from django.utils.translation import gettext
from django.views.decorators.http import require_safe

from games import get_engine
from turnbased.accounts.models import is_bot_account
from turnbased.kit.errors import GameNotFound
from turnbased.play import selectors


@require_safe
def game_move_buttons(request, game_id: int):
    try:
        viewer = selectors.viewer_of(game_id, request.user)
    except GameNotFound:
        raise Http404(gettext("No such game.")) from None
    seat = next((seat for seat in viewer.game.seats.all() if seat.index == viewer.seat), None)
    # A bot account plays through the API: its pages show no moves (as the panel).
    moves = [] if seat is not None and is_bot_account(seat.user) else selectors.legal_moves_for(viewer)
    for entry in moves:
        entry["json"] = json.dumps(entry["move"], sort_keys=True)
    context = {"game": viewer.game, "engine": get_engine(viewer.game.engine), "moves": moves,
               "idempotency_key": uuid.uuid4().hex}
    template = "play/_move_buttons.html" if request.headers.get("HX-Request") else "play/game_moves.html"
    return render(request, template, context)
