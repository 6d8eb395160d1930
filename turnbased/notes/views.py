"""The page door of private notes: the game page's notes (``templates/notes/_notes.html``) post here; a browser
without scripts, or a direct visit, gets a page of its own."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST

from turnbased.kit.errors import GameNotFound, PlayError
from turnbased.kit.http.limits import page_refusal
from turnbased.notes import selectors, services
from turnbased.notes.marks import marks_shown
from turnbased.notes.models import MAX_MARK_LABEL_CHARS, MAX_NOTE_CHARS


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
    note = selectors.note_of(game, request.user)
    spots = selectors.spots_of(selectors.note_viewer(game.pk, request.user))
    return render(request, "notes/notes.html", {
        "game": game, "note": note, "max_chars": MAX_NOTE_CHARS, "spots": spots, "max_label": MAX_MARK_LABEL_CHARS,
        **marks_shown(note.marks if note else [], spots),
    })


def _marks_changed(request, game_id: int, change):
    """Send a change of the player's marks, then back to the game's notes (its page, or the notes page's)."""
    try:
        game = selectors.note_game(game_id, request.user)
    except GameNotFound:
        raise Http404(gettext("No such game.")) from None
    except PlayError as refusal:
        return render(request, "notes/notes.html", {"refusal": refusal.detail}, status=refusal.status)
    refusal = page_refusal(request, "api")
    if refusal:
        messages.error(request, refusal.detail)
    else:
        try:
            change(game)
        except PlayError as failure:
            messages.error(request, failure.detail)
        else:
            messages.success(request, gettext("Your marks are kept."))
    return redirect(reverse("game-detail", args=[game.pk]) + "#notes")


@require_POST
@login_required
def note_mark(request, game_id: int):
    """Put a mark (``spot``, ``symbol``, ``label``) on a card or tile of the game I play."""
    return _marks_changed(request, game_id, lambda game: services.mark_set(
        game_id=game.pk, user=request.user, spot=request.POST.get("spot", ""), symbol=request.POST.get("symbol", ""),
        label=request.POST.get("label", "")))


@require_POST
@login_required
def note_mark_remove(request, game_id: int):
    """Take my mark off a card or tile (``spot``)."""
    return _marks_changed(request, game_id, lambda game: services.mark_remove(
        game_id=game.pk, user=request.user, spot=request.POST.get("spot", "")))
