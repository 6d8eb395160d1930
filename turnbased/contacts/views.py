"""Pages of friends and blocks: the lists one keeps, one's friends' tables and games, and the forms that change
them (from the lists and from a player's page)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext
from django.views.decorators.http import require_POST, require_safe

from turnbased.contacts import selectors, services
from turnbased.kit.errors import PlayError
from turnbased.kit.http.limits import page_refusal
from turnbased.play import selectors as play_selectors


@require_safe
@login_required
def people(request):
    """The people one follows and the people one blocked, a page of each, with the forms that add to them."""
    return render(request, "contacts/people.html", {
        "followed": selectors.page_of(selectors.followed(request.user), request.GET.get("following")),
        "blocked": selectors.page_of(selectors.blocked(request.user), request.GET.get("blocked")),
    })


@require_safe
@login_required
def friends_tables(request):
    """Every open table and every game in play of the people one follows, a page of each."""
    tables = selectors.page_of(selectors.friends_open_tables(request.user), request.GET.get("tables"))
    games = selectors.page_of(selectors.friends_games(request.user), request.GET.get("games"))
    return render(request, "contacts/friends_tables.html", {
        "tables": tables, "open_tables": play_selectors.with_seats(list(tables.object_list)),
        "games_page": games, "games": play_selectors.with_seats(list(games.object_list)),
    })


def _back(request) -> str:
    """Where a form sends the person back: the page it came from (this site's), else the list of people."""
    then = request.POST.get("next", "")
    if then and url_has_allowed_host_and_scheme(then, allowed_hosts={request.get_host()},
                                                require_https=request.is_secure()):
        return then
    return reverse("contacts-people")


def _change(request, action, said):
    refusal = page_refusal(request, "contacts")
    if refusal:
        messages.error(request, refusal.detail)
        return redirect(_back(request))
    try:
        result = action(user=request.user, username=request.POST.get("username", ""))
    except PlayError as failure:
        messages.error(request, failure.detail)
        return redirect(_back(request))
    other = result[0] if isinstance(result, tuple) else result
    messages.success(request, said % {"name": other.get_username()})
    return redirect(_back(request))


@require_POST
@login_required
def follow(request):
    return _change(request, services.follow_add,
                   gettext("You follow %(name)s: their open tables and games show in your lobby."))


@require_POST
@login_required
def unfollow(request):
    return _change(request, services.follow_remove, gettext("You no longer follow %(name)s."))


@require_POST
@login_required
def block(request):
    return _change(request, services.block_add,
                   gettext("You blocked %(name)s: they cannot join your tables, invite you or write to you. "
                           "Nobody is told."))


@require_POST
@login_required
def unblock(request):
    return _change(request, services.block_remove, gettext("You unblocked %(name)s."))
