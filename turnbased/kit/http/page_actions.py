"""The one shape of a page's form that acts on a game: do it, say how it went, go on.

An unknown game (or a private one the user may not see) is a 404; a refusal (``PlayError``) is
shown as an error on the game's page; success is shown as a message on the page ``then`` names.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, resolve_url
from django.utils.translation import gettext

from turnbased.kit.errors import GameNotFound, PlayError


def act_on_game(
    request,
    game_id: int,
    action: Callable[[], Any],
    success: str | Callable[[Any], str | None],
    *,
    then: Callable[[Any], str] | None = None,
) -> HttpResponse:
    """Run ``action``; on success say ``success`` (or what it returns for the result, None for nothing)
    and go to ``then(result)`` (the game's page by default); on a refusal say why on the game's page."""
    try:
        result = action()
    except GameNotFound:
        raise Http404(gettext("No such game.")) from None
    except PlayError as failure:
        messages.error(request, failure.detail)
        return redirect("game-detail", game_id)
    said = success(result) if callable(success) else success
    if said:
        messages.success(request, said)
    return redirect(then(result) if then else resolve_url("game-detail", game_id))
