"""The page door of following: the following page (my watches and the feed of the games they cover), and the forms
that follow, change and stop following (from a game's, a group's or a competition's page, and from the list)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext
from django.views.decorators.http import require_POST, require_safe

from turnbased.following import selectors, services
from turnbased.following.models import Notify
from turnbased.kit.errors import PlayError
from turnbased.kit.http.limits import page_refusal

FEED_PAGE = 20


@require_safe
@login_required
def following(request):
    """My watches (what each tells me, and stopping it) and the games they cover, a page at a time, as any
    spectator sees them."""
    page = Paginator(selectors.feed(request.user), FEED_PAGE).get_page(request.GET.get("page"))
    return render(request, "following/following.html", {
        "watches": [selectors.watch_shown(watch) for watch in selectors.watches_of(request.user)],
        "page": page, "rows": selectors.feed_rows(list(page.object_list)), "choices": Notify.choices,
        "most": selectors.MOST_WATCHES,
    })


def _back(request) -> str:
    """Where a form sends the person back: the page it came from (this site's), else the following page."""
    then = request.POST.get("next", "")
    if then and url_has_allowed_host_and_scheme(then, allowed_hosts={request.get_host()},
                                                require_https=request.is_secure()):
        return then
    return reverse("following")


def _done(request, action, said: str):
    refusal = page_refusal(request, "contacts")
    if refusal:
        messages.error(request, refusal.detail)
        return redirect(_back(request))
    try:
        action()
    except PlayError as failure:
        messages.error(request, failure.detail)
    else:
        messages.success(request, said)
    return redirect(_back(request))


@require_POST
@login_required
def follow(request, kind: str, target: int):
    """Follow the game, the group's games or the competition's games the path names (and ``notify``, if given)."""
    notify = request.POST.get("notify") or None
    return _done(request, lambda: services.watch_make(user=request.user, kind=kind, target_id=target, notify=notify),
                 gettext("You follow it now: its games show in your lobby and on your following page."))


@require_POST
@login_required
def watch_change(request, watch_id: int):
    """Change what one of my watches tells me (``notify``)."""
    return _done(request, lambda: services.watch_change(watch_id=watch_id, user=request.user,
                                                        notify=request.POST.get("notify", "")),
                 gettext("Saved: that is what it tells you from now on."))


@require_POST
@login_required
def watch_stop(request, watch_id: int):
    """Stop following."""
    return _done(request, lambda: services.watch_remove(watch_id=watch_id, user=request.user),
                 gettext("You no longer follow it."))
