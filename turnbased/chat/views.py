"""Pages of table talk: the chat's poll, posting, mute, report and read marks, and the lobby's change watch.

The chat sits beside the board (``templates/chat/_chat.html``) and polls on its
own, with the latest message id it shows and whether it shows the viewer's
turn: an unchanged chat answers 204 from one row, a changed one sends only the
new messages (into the chat and the history) and the poller again.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST, require_safe

from turnbased.chat import selectors, services
from turnbased.chat.models import MAX_MESSAGE_CHARS, MessageSource
from turnbased.kit.errors import GameNotFound, PlayError
from turnbased.kit.http.limits import page_refusal


def _id_param(raw: str | None) -> int | None:
    """Return an id sent by a page (ASCII digits, at most 18), or None for a missing or malformed one."""
    if raw is None or not (raw.isascii() and raw.isdigit()) or len(raw) > 18:
        return None
    return int(raw)


@require_safe
def chat_poll(request, game_id: int):
    """Return 204 while the chat has no message after ``?after=`` and the turn is as ``?turn=`` says, else the news."""
    after = _id_param(request.GET.get("after"))
    if after is None:
        return HttpResponseBadRequest(gettext("after must be a message id."))
    shown_turn = request.GET.get("turn")
    try:
        state = selectors.chat_state(game_id, request.user)
    except GameNotFound:
        raise Http404("No such game.") from None
    if state.latest_id <= after and (shown_turn is None or (shown_turn == "1") == state.your_turn):
        return HttpResponse(status=204)
    viewer = selectors.chat_viewer(game_id, request.user)
    page = selectors.messages_after(viewer.game, request.user, after=after, limit=selectors.PAGE_MESSAGES)
    latest = page.messages[-1].pk if page.messages else after
    return render(request, "chat/_chat_update.html", {
        "game": viewer.game,
        "chat": {"latest_id": latest, "your_turn": state.your_turn, "is_player": viewer.is_player},
        "new_messages": page.messages,
        "new_entries": [selectors.message_entry(message) for message in reversed(page.messages)],
        "arrived": sum(1 for message in page.messages if message.author_id != request.user.pk),
        "turn_known": shown_turn is not None,
    })


@require_POST
@login_required
def chat_post(request, game_id: int):
    """Post a message: htmx gets the form back (emptied, or with why not), a plain form a redirect."""
    text = request.POST.get("text", "")
    error, status = None, 200
    refusal = page_refusal(request, "chat")
    if refusal:
        error, status = refusal.detail, 429
    else:
        try:
            services.message_post(game_id=game_id, user=request.user, text=text, source=MessageSource.WEB)
        except GameNotFound:
            raise Http404("No such game.") from None
        except PlayError as failure:
            error, status = failure.detail, failure.status
    if not request.headers.get("HX-Request"):
        if error:
            messages.error(request, error)
        response = redirect("game-detail", game_id)
        return refusal.applied_to(response) if refusal else response
    response = render(request, "chat/_chat_form.html", {
        "game_id": game_id, "text": text if error else "", "error": error, "max_chars": MAX_MESSAGE_CHARS,
    }, status=status)
    if refusal:
        refusal.applied_to(response)
    if error is None:
        response["HX-Trigger"] = "chat-posted"  # the poller fetches the new message at once
    return response


def _acted(request, game_id: int, action, success) -> HttpResponse:
    """Do ``action`` for a game the user may see (404 otherwise), then show the game again with how it went."""
    try:
        selectors.chat_viewer(game_id, request.user)
        result = action()
    except GameNotFound:
        raise Http404("No such game.") from None
    except PlayError as failure:
        messages.error(request, failure.detail)
    else:
        messages.success(request, success(result))
    return redirect(reverse("game-detail", args=[game_id]) + "#chat")


@require_POST
@login_required
def chat_mute(request, game_id: int):
    """Mute (``action=mute``) or unmute a player, then show the game again."""
    username = request.POST.get("username", "")
    if request.POST.get("action") == "unmute":
        return _acted(request, game_id, lambda: services.player_unmute(user=request.user, username=username),
                      lambda other: gettext("You see what %(name)s writes again.") % {"name": other.get_username()})
    return _acted(request, game_id, lambda: services.player_mute(user=request.user, username=username),
                  lambda other: gettext("You no longer see what %(name)s writes, in any game.")
                  % {"name": other.get_username()})


@require_POST
@login_required
def chat_report(request, game_id: int):
    """Report a message to the site admins, then show the game again."""
    message_id = _id_param(request.POST.get("message"))
    return _acted(
        request, game_id,
        lambda: services.message_report(game_id=game_id, user=request.user, message_id=message_id or 0,
                                        reason=request.POST.get("reason", "")),
        lambda report: gettext("Thank you: the message was reported to the site's admins."),
    )


@require_POST
@login_required
def chat_read(request, game_id: int):
    """Note that the page showed the player the messages up to ``last``; answer 204."""
    last = _id_param(request.POST.get("last"))
    if last is None:
        return HttpResponseBadRequest(gettext("last must be a message id."))
    try:
        services.chat_mark_read(game_id=game_id, user=request.user, last_id=last)
    except GameNotFound:
        raise Http404("No such game.") from None
    return HttpResponse(status=204)


@require_safe
def lobby_changes(request):
    """Return 204 while the user's games and their chats are as ``?v=`` says, else the watcher with the new version.

    The changed answer also triggers ``lobby-changed``, on which the lobby fetches its list of games again.
    """
    if not request.user.is_authenticated:
        return HttpResponse(status=204)
    version = selectors.lobby_version(request.user)
    if request.GET.get("v") == version:
        return HttpResponse(status=204)
    response = render(request, "chat/_lobby_watch.html", {"lobby_version": version})
    response["HX-Trigger"] = "lobby-changed"
    return response
