"""Pages: propose, accept or decline a finished game's rematch, and the rematch box the end screen polls."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import render, resolve_url
from django.utils.translation import gettext
from django.views.decorators.http import require_POST, require_safe

from turnbased.aftergame import selectors, services
from turnbased.aftergame.templatetags.aftergame import rematch_box_context
from turnbased.kit.errors import GameNotFound
from turnbased.kit.http.page_actions import act_on_game
from turnbased.play import selectors as play_selectors
from turnbased.play.models import GameStatus


def _rematch_page(found) -> str:
    return resolve_url("game-detail", found.game_id)


@require_POST
@login_required
def rematch(request, game_id: int):
    """Propose the rematch (or, if one waits for you, accept it) and open its table."""
    return act_on_game(
        request, game_id, lambda: services.rematch_propose(game_id=game_id, user=request.user),
        lambda proposed: (gettext("Rematch proposed: the table starts when every player has accepted.")
                          if proposed[1] else None),
        then=lambda proposed: _rematch_page(proposed[0]),
    )


@require_POST
@login_required
def rematch_accept(request, game_id: int):
    return act_on_game(request, game_id, lambda: services.rematch_accept(game_id=game_id, user=request.user),
                       gettext("You accepted the rematch."), then=_rematch_page)


@require_POST
@login_required
def rematch_decline(request, game_id: int):
    return act_on_game(request, game_id, lambda: services.rematch_decline(game_id=game_id, user=request.user),
                       gettext("The rematch is called off."))


@require_safe
def rematch_box(request, game_id: int):
    """Return 204 while the finished game's rematch box shows ``?v=``, else the box as it is now.

    The unchanged answer reads one row of the game (who may see it) and one of its rematch.
    """
    try:
        version, _ = play_selectors.game_version(game_id, request.user)
        if version.status != GameStatus.FINISHED:
            raise Http404("Only a finished game has a rematch.")
        if request.GET.get("v") == selectors.rematch_version(game_id):
            return HttpResponse(status=204)
        viewer = play_selectors.viewer_of(game_id, request.user)
    except GameNotFound:
        raise Http404("No such game.") from None
    return render(request, "aftergame/_rematch_box.html", rematch_box_context(viewer.game, request.user))
