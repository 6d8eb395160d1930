"""Pages of groups: the directory, a group's page, its members, its tables, its settings, and the forms that
change who is in it. Leaving, removing a member, handing the group over and deleting it each ask first (a page
that says what will happen, then a form that does it)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from turnbased.groups import selectors, services
from turnbased.groups.models import Entry, Role, TablesBy
from turnbased.kit.errors import NotFound, PlayError
from turnbased.kit.http.limits import page_refusal
from turnbased.play import selectors as play_selectors


def _group(group_id: int):
    try:
        return selectors.group_of(group_id)
    except NotFound:
        raise Http404(gettext("No such group.")) from None


def _act(request, group_id: int, action, said: str, *, limited: bool = False, then=None, **arguments):
    """Run a group service from a form; tell what happened (or why not) and go back to the group's page."""
    then = then or reverse("groups-detail", args=[group_id])
    if limited:
        refusal = page_refusal(request, "groups")
        if refusal:
            messages.error(request, refusal.detail)
            return redirect(then)
    try:
        action(user=request.user, group_id=group_id, **arguments)
    except NotFound:
        raise Http404(gettext("No such group.")) from None
    except PlayError as failure:
        messages.error(request, failure.detail)
        return redirect(then)
    if said:
        messages.success(request, said)
    return redirect(then)


@require_safe
def directory(request):
    """Every group (found by a word of its name or description), and the visitor's own groups."""
    query = request.GET.get("q", "")
    context = {"groups": selectors.page_of(selectors.directory(query), request.GET.get("page")), "query": query}
    if request.user.is_authenticated:
        context["mine"] = selectors.page_of(selectors.my_memberships(request.user), request.GET.get("mine"))
    return render(request, "groups/directory.html", context)


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def group_new(request):
    form = {"name": "", "description": "", "entry": Entry.OPEN, "tables_by": TablesBy.MEMBERS}
    if request.method == "POST":
        form = {field: request.POST.get(field, form[field]) for field in form}
        refusal = page_refusal(request, "groups")
        if refusal:
            messages.error(request, refusal.detail)
        else:
            try:
                group = services.group_create(user=request.user, **form)
            except PlayError as failure:
                messages.error(request, failure.detail)
            else:
                messages.success(request, gettext("Your group is ready: invite people to it, or tell them its "
                                                  "address."))
                return redirect("groups-detail", group.pk)
    return render(request, "groups/form.html", {"form": form, "entries": Entry, "tables_by": TablesBy,
                                                "group": None})


@require_safe
def group_detail(request, group_id: int):
    """A group's page: anyone sees its name, description and members; its members see its tables too."""
    group = _group(group_id)
    membership = selectors.membership_of(group, request.user)
    context = {
        "group": group, "membership": membership,
        "is_admin": membership is not None and membership.role in selectors.ADMINS,
        "members": selectors.members(group)[:selectors.PAGE_SIZE],
        "my_request": selectors.my_request(group, request.user) if membership is None else None,
        "invitation": selectors.my_invitation(group, request.user) if membership is None else None,
        "may_make_tables": selectors.may_make_tables(group, membership),
    }
    if membership is not None:
        listed = selectors.GROUP_PAGE_LISTED
        context.update({
            "open_tables": play_selectors.with_seats(list(selectors.open_tables(group)[:listed])),
            "games": play_selectors.with_seats(list(selectors.games_in_play(group)[:listed])),
            "results": play_selectors.with_seats(list(selectors.results(group)[:listed])),
        })
    if context["is_admin"]:
        context["requests_waiting"] = selectors.requests_waiting(group)[:selectors.PAGE_SIZE]
        context["invitations"] = selectors.invitations_sent(group)[:selectors.PAGE_SIZE]
    return render(request, "groups/detail.html", context)


@require_safe
def group_members(request, group_id: int):
    group = _group(group_id)
    membership = selectors.membership_of(group, request.user)
    return render(request, "groups/members.html", {
        "group": group, "membership": membership,
        "is_admin": membership is not None and membership.role in selectors.ADMINS,
        "members": selectors.page_of(selectors.members(group), request.GET.get("page")),
    })


@require_safe
def group_tables(request, group_id: int):
    """All of a group's tables, for its members: taking players, in play, and finished."""
    group = _group(group_id)
    if not selectors.is_member(group.pk, request.user):
        raise Http404(gettext("No such group."))
    pages = {name: selectors.page_of(rows, request.GET.get(name)) for name, rows in
             (("open", selectors.open_tables(group)), ("playing", selectors.games_in_play(group)),
              ("finished", selectors.results(group)))}
    return render(request, "groups/tables.html", {
        "group": group, "pages": pages,
        **{name: play_selectors.with_seats(list(page.object_list)) for name, page in pages.items()},
    })


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def group_settings(request, group_id: int):
    group = _group(group_id)
    membership = selectors.membership_of(group, request.user)
    if membership is None or membership.role not in selectors.ADMINS:
        raise Http404(gettext("No such group."))
    form = {"name": group.name, "description": group.description, "entry": group.entry,
            "tables_by": group.tables_by}
    if request.method == "POST":
        form = {field: request.POST.get(field, form[field]) for field in form}
        try:
            services.group_update(user=request.user, group_id=group.pk, **form)
        except PlayError as failure:
            messages.error(request, failure.detail)
        else:
            messages.success(request, gettext("The group's settings are saved."))
            return redirect("groups-detail", group.pk)
    return render(request, "groups/form.html", {"form": form, "entries": Entry, "tables_by": TablesBy,
                                                "group": group, "membership": membership})


@require_POST
@login_required
def join(request, group_id: int):
    group = _group(group_id)
    said = (gettext("You are a member of %(group)s.") if group.entry == Entry.OPEN
            or selectors.my_invitation(group, request.user) else
            gettext("You asked to join %(group)s: an admin will answer.")) % {"group": group.name}
    return _act(request, group_id, services.join, said, limited=True)


@require_POST
@login_required
def request_withdraw(request, group_id: int):
    return _act(request, group_id, services.request_withdraw, gettext("You took back your request to join."))


@require_POST
@login_required
def request_answer(request, group_id: int):
    accept = request.POST.get("answer") == "accept"
    said = gettext("%(name)s is a member now.") if accept else gettext("You declined %(name)s's request.")
    return _act(request, group_id, services.request_answer, said % {"name": request.POST.get("username", "")},
                username=request.POST.get("username", ""), accept=accept)


@require_POST
@login_required
def invite(request, group_id: int):
    return _act(request, group_id, services.invite,
                gettext("You invited %(name)s.") % {"name": request.POST.get("username", "").strip()},
                limited=True, username=request.POST.get("username", ""))


@require_POST
@login_required
def invitation_withdraw(request, group_id: int):
    return _act(request, group_id, services.invitation_withdraw, gettext("The invitation is withdrawn."),
                username=request.POST.get("username", ""))


@require_POST
@login_required
def invitation_answer(request, group_id: int):
    accept = request.POST.get("answer") == "accept"
    group = _group(group_id)
    said = (gettext("You are a member of %(group)s.") if accept else gettext("You declined the invitation.")) \
        % {"group": group.name}
    back = reverse("groups-detail", args=[group_id]) if accept else reverse("lobby")
    return _act(request, group_id, services.invitation_answer, said, then=back, accept=accept)


@require_POST
@login_required
def role(request, group_id: int):
    new_role = request.POST.get("role", "")
    said = gettext("%(name)s is an admin now.") if new_role == Role.ADMIN else gettext("%(name)s is a member now.")
    return _act(request, group_id, services.role_set, said % {"name": request.POST.get("username", "")},
                then=reverse("groups-members", args=[group_id]), username=request.POST.get("username", ""),
                role=new_role)


def _confirm(request, group, *, title: str, text: str, button: str, fields: dict | None = None, choose=None):
    return render(request, "groups/confirm.html", {"group": group, "title": title, "text": text, "button": button,
                                                   "fields": fields or {}, "choose": choose})


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def leave(request, group_id: int):
    group = _group(group_id)
    if request.method == "POST":
        return _act(request, group_id, services.leave, gettext("You left %(group)s.") % {"group": group.name},
                    then=reverse("groups-directory"))
    return _confirm(request, group, title=gettext("Leave %(group)s?") % {"group": group.name},
                    text=gettext("You will no longer see the group's tables. Your seats at its tables stay yours, "
                                 "and its games you play go on."),
                    button=gettext("Leave the group"))


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def member_remove(request, group_id: int, username: str):
    group = _group(group_id)
    if request.method == "POST":
        return _act(request, group_id, services.member_remove,
                    gettext("%(name)s is no longer a member.") % {"name": username},
                    then=reverse("groups-members", args=[group_id]), username=username)
    if not selectors.is_member(group.pk, request.user):
        raise Http404(gettext("No such group."))
    return _confirm(request, group, title=gettext("Remove %(name)s from %(group)s?")
                    % {"name": username, "group": group.name},
                    text=gettext("They will no longer see the group's tables; their seats at its tables stay "
                                 "theirs. They may come back as the group's entry allows."),
                    button=gettext("Remove"))


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def hand_over(request, group_id: int):
    group = _group(group_id)
    if request.method == "POST":
        username = request.POST.get("username", "")
        return _act(request, group_id, services.owner_hand_over,
                    gettext("%(name)s owns %(group)s now; you are one of its admins.")
                    % {"name": username.strip(), "group": group.name}, username=username)
    membership = selectors.membership_of(group, request.user)
    if membership is None or membership.role != Role.OWNER:
        raise Http404(gettext("No such group."))
    return _confirm(request, group, title=gettext("Hand %(group)s over") % {"group": group.name},
                    text=gettext("The member you name becomes the group's owner; you stay one of its admins. Only "
                                 "they can hand it back."),
                    button=gettext("Hand the group over"), choose=request.GET.get("username", ""))


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def delete(request, group_id: int):
    group = _group(group_id)
    if request.method == "POST":
        return _act(request, group_id, services.group_delete,
                    gettext("%(group)s is deleted.") % {"group": group.name}, then=reverse("groups-directory"))
    membership = selectors.membership_of(group, request.user)
    if membership is None or membership.role != Role.OWNER:
        raise Http404(gettext("No such group."))
    return _confirm(request, group, title=gettext("Delete %(group)s?") % {"group": group.name},
                    text=gettext("Its members, invitations and requests go, and this cannot be undone. Its tables "
                                 "play on: each stays with the people seated at it."),
                    button=gettext("Delete the group"))
