"""The page that checks a finished game's fairness on the server (the API's ``/verify/`` as a page)."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import render
from django.utils.translation import gettext
from django.views.decorators.http import require_safe

from games import get_engine
from turnbased.kit.errors import GameNotFound
from turnbased.play import records, selectors, verification
from turnbased.kit.db.replica import reads_from_replica


@require_safe
@reads_from_replica
def game_verify(request, game_id: int):
    """Show each check of the game's record, or, before the end, why there is nothing to check yet."""
    try:
        viewer = selectors.viewer_of(game_id, request.user)
    except GameNotFound:
        raise Http404(gettext("No such game.")) from None
    game = viewer.game
    over = records.is_over(game)
    report = verification.verify_game(game) if over else None
    if report is not None:  # each check named in the reader's words (the kept report holds the machine names)
        report = {**report, "checks": [{**check, "label": verification.check_label(check["name"])}
                                       for check in report["checks"]]}
    return render(request, "play/game_verify.html", {
        "game": game,
        "engine": get_engine(game.engine),
        "fairness": records.fairness(game),
        "report": report,
        "not_yet": None if over else verification.NOT_YET,
    })
