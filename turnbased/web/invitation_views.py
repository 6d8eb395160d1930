"""Pages for invitations by username: invite from an open table's page, decline from the lobby or the table.

Taking the seat is the table's ordinary join form (``game_join``).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, resolve_url
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from turnbased.kit.http.limits import page_refusal
from turnbased.kit.http.page_actions import act_on_game
from turnbased.play import services


@require_POST
@login_required
def game_invite_player(request, game_id: int):
    """Invite the person named in the form to the table; say what happened on the table's page."""
    refusal = page_refusal(request, "invitations")
    if refusal:
        messages.error(request, refusal.detail)
        return redirect("game-detail", game_id)
    return act_on_game(
        request, game_id,
        lambda: services.invitation_create(game_id=game_id, user=request.user, username=request.POST.get("username", "")),
        lambda created: gettext("%(name)s is invited: the lobby and an email tell them.")
        % {"name": created[0].user.get_username()},
    )


@require_POST
@login_required
def game_invitation_decline(request, game_id: int):
    return act_on_game(request, game_id, lambda: services.invitation_decline(game_id=game_id, user=request.user),
                       gettext("Invitation declined."), then=lambda _: resolve_url("lobby"))
