"""The page door of private notes: the game page's notes (``templates/notes/_notes.html``) post here; a browser
without scripts, or a direct visit, gets a page of its own."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from turnbased.kit.errors import GameNotFound, PlayError
from turnbased.kit.http.limits import page_refusal
from turnbased.notes import selectors, services
from turnbased.notes.models import MAX_NOTE_CHARS


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def game_notes(request, game_id: int):
    """Show my notes on a game I play (GET), or keep them (POST ``text``) and go back to the game."""
    try:
        game = selectors.note_game(game_id, request.user)
    except GameNotFound:
        raise Http404(gettext("No such game.")) from None
    except PlayError as refusal:
        return render(request, "notes/notes.html", {"refusal": refusal.detail}, status=refusal.status)
    if request.method == "POST":
        refusal = page_refusal(request, "api")
        if refusal:
            messages.error(request, refusal.detail)
        else:
            try:
                note = services.note_save(game_id=game.pk, user=request.user, text=request.POST.get("text", ""))
            except PlayError as failure:
                messages.error(request, failure.detail)
            else:
                messages.success(request, gettext("Your notes are kept.") if note else gettext("Your notes are "
                                                                                                 "cleared."))
                return redirect(reverse("game-detail", args=[game.pk]) + "#notes")
    return render(request, "notes/notes.html", {
        "game": game, "note": selectors.note_of(game, request.user), "max_chars": MAX_NOTE_CHARS,
    })
