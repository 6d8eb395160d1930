"""Pages of competitions: the list (with its filters, and the visitor's own), the form that makes one, a
competition's page (its rules printed, its entrants, each stage's standings, pools and brackets, every round's
tables), the standings as CSV, and the forms that enter, withdraw, invite, remove and call off."""

from __future__ import annotations

import csv

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from games import engines
from turnbased.clocks.services import DAYS_PER_MOVE
from turnbased.competitions import forms, presenters, selectors, wording
from turnbased.competitions.models import CompetitionStatus, DeadlinePolicy, EntryKind, Format
from turnbased.competitions.services import entries, ladders
from turnbased.groups.selectors import my_memberships
from turnbased.kit.errors import InvalidRequest, NotFound, PlayError
from turnbased.kit.http.limits import page_refusal

PAGE_SIZE = 20


def _competition(competition_id: int, user):
    try:
        return selectors.competition_for(competition_id, user)
    except NotFound:
        raise Http404(gettext("No such competition.")) from None


@require_safe
def competition_list(request):
    """The competitions the visitor may see, filtered; the ones they play in first."""
    from django.core.paginator import Paginator

    try:
        rows = selectors.listed(request.user, request.GET)
    except InvalidRequest as refusal:
        messages.error(request, refusal.detail)
        rows = selectors.listed(request.user, {})
    page = Paginator(rows.order_by("-pk"), PAGE_SIZE).get_page(request.GET.get("page"))
    context = {
        "page": page, "shown": presenters.many(page.object_list, request.user), "filters": request.GET,
        "games": sorted(((slug, engine.display_name()) for slug, engine in engines().items()), key=lambda row: row[1]),
        "formats": Format.choices, "statuses": CompetitionStatus.choices,
        "paces": [str(days) for days in DAYS_PER_MOVE],
    }
    if request.user.is_authenticated:
        context["mine"] = presenters.many(selectors.competitions_of(request.user)[:PAGE_SIZE], request.user)
    return render(request, "competitions/list.html", context)


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def competition_new(request):
    form = forms.initial()
    if request.method == "POST":
        form = forms.from_post(request.POST)
        refusal = page_refusal(request, "competitions")
        if refusal:
            messages.error(request, refusal.detail)
        else:
            try:
                competition = entries.competition_create(user=request.user, settings=forms.settings(form))
            except PlayError as failure:
                messages.error(request, failure.detail)
            else:
                messages.success(request, gettext("Your competition is open for entries. Share its address."))
                return redirect("competition-detail", competition.pk)
    return render(request, "competitions/form.html", {
        "form": form, "choices": forms.choices(), "stages": forms.stage_rows(form),
        "groups": [row.group for row in my_memberships(request.user)],
    })


@require_safe
def competition_detail(request, competition_id: int):
    competition = _competition(competition_id, request.user)
    shown = presenters.detail(competition, request.user)
    standings = presenters.standings(competition)
    if competition.league:  # a season's standings are its divisions'
        for stage in standings:
            stage["divisions"] = presenters.divisions(stage["rows"])
    return render(request, "competitions/detail.html", {
        "competition": competition, "shown": shown, "rules": wording.rules(competition, shown),
        "entrants": list(competition.entrants.select_related("user").order_by("league_order", "seed", "entered_at",
                                                                              "pk")),
        "standings": standings, "rounds": wording.rounds_shown(competition),
        "brackets": wording.brackets(competition),
        "is_organiser": request.user.is_authenticated and competition.organiser_id == request.user.pk,
        "challengeable": ladders.challengeable(competition, request.user),
        "entry_kinds": EntryKind, "deadline_policies": DeadlinePolicy,
    })


@require_safe
def standings_csv(request, competition_id: int):
    """The standings as CSV, for associations' own records: one line per entrant and stage, machine fields."""
    competition = _competition(competition_id, request.user)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="competition-{competition.pk}-standings.csv"'
    writer = csv.writer(response)
    tiebreaks = list(competition.tiebreaks)
    writer.writerow(["stage", "format", "final", "place", "username", "status", "pool", "points", "games", "byes",
                     *[name for name in tiebreaks if name != "head_to_head"]])
    for stage in presenters.standings(competition):
        for row in stage["rows"]:
            writer.writerow([stage["stage"], stage["format"], stage["final"], row["place"],
                             _cell(row["username"]), row["status"], row["pool"] + 1, row["points"], row["games"],
                             row["byes"], *row["tiebreaks"].values()])
    return response


def _cell(text: str) -> str:
    # A spreadsheet runs a cell starting with one of these as a formula: a username is shown as text.
    return f"'{text}" if text[:1] in ("=", "+", "-", "@") else text


def _act(request, competition_id: int, action, said: str, **arguments):
    """Run a competition service from a form; tell what happened (or why not) and go back to its page."""
    then = reverse("competition-detail", args=[competition_id])
    try:
        action(user=request.user, competition_id=competition_id, **arguments)
    except NotFound:
        raise Http404(gettext("No such competition.")) from None
    except PlayError as failure:
        messages.error(request, failure.detail)
        return redirect(then)
    messages.success(request, said)
    return redirect(then)


@require_POST
@login_required
def enter(request, competition_id: int):
    refusal = page_refusal(request, "competitions")
    if refusal:
        messages.error(request, refusal.detail)
        return redirect("competition-detail", competition_id)
    return _act(request, competition_id, entries.competition_enter, gettext("You are entered."))


@require_POST
@login_required
def withdraw(request, competition_id: int):
    return _act(request, competition_id, entries.competition_withdraw, gettext("You withdrew."))


@require_POST
@login_required
def invite(request, competition_id: int):
    refusal = page_refusal(request, "competitions")
    if refusal:
        messages.error(request, refusal.detail)
        return redirect("competition-detail", competition_id)
    username = request.POST.get("username", "")
    return _act(request, competition_id, entries.competition_invite,
                gettext("%(name)s is invited.") % {"name": username.strip()[:150]}, username=username)


@require_POST
@login_required
def challenge(request, competition_id: int, username: str):
    refusal = page_refusal(request, "competitions")
    if refusal:
        messages.error(request, refusal.detail)
        return redirect("competition-detail", competition_id)
    return _act(request, competition_id, ladders.ladder_challenge,
                gettext("You challenged %(name)s: your game is open.") % {"name": username[:150]}, username=username)


@require_POST
@login_required
def remove(request, competition_id: int, username: str):
    return _act(request, competition_id, entries.entrant_remove,
                gettext("%(name)s is withdrawn.") % {"name": username[:150]}, username=username)


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def cancel(request, competition_id: int):
    competition = _competition(competition_id, request.user)
    if request.method == "POST":
        return _act(request, competition_id, entries.competition_cancel, gettext("The competition is called off."))
    return render(request, "competitions/confirm.html", {
        "competition": competition, "title": gettext("Call %(name)s off?") % {"name": competition.name},
        "text": gettext("Its entrants are told, and it will not start. This cannot be undone."),
        "button": gettext("Call it off"),
    })
