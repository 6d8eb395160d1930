"""Pages for invitations by username: invite from an open table's page, decline from the lobby or the table.

Taking the seat is the table's ordinary join form (``game_join``).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from turnbased.limits import page_refusal
from turnbased.play import services
from turnbased.play.errors import GameNotFound, PlayError


@require_POST
@login_required
def game_invite_player(request, game_id: int):
    """Invite the person named in the form to the table; say what happened on the table's page."""
    refusal = page_refusal(request, "invitations")
    if refusal:
        messages.error(request, refusal.detail)
        return redirect("game-detail", game_id)
    try:
        invitation, _ = services.invitation_create(game_id=game_id, user=request.user,
                                                username=request.POST.get("username", ""))
    except GameNotFound:
        raise Http404("No such game.") from None
    except PlayError as failure:
        messages.error(request, failure.detail)
    else:
        messages.success(request, f"{invitation.user.get_username()} is invited: the lobby and an email tell them.")
    return redirect("game-detail", game_id)


@require_POST
@login_required
def game_invitation_decline(request, game_id: int):
    try:
        services.invitation_decline(game_id=game_id, user=request.user)
    except GameNotFound:
        raise Http404("No such game.") from None
    except PlayError as failure:
        messages.error(request, failure.detail)
        return redirect("game-detail", game_id)
    messages.success(request, "Invitation declined.")
    return redirect("lobby")
