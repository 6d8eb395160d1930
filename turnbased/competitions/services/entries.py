"""Competitions before and around their play: making one, inviting to it, entering and withdrawing, the
organiser's removing an entrant and calling a competition off. One service per action; each takes the acting
person first.

A competition's entries change under its row lock (``_locked``), so the last place of a full competition goes to
one person however many ask at once, and an entry racing the start is either in the first round or refused.
"""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext

from turnbased.competitions import rules, selectors
from turnbased.competitions.models import (
    Competition, CompetitionInvitation, CompetitionStatus, Entrant, EntrantStatus, EntryBar, Format, Stage, Standing,
    WithdrawnBecause,
)
from turnbased.competitions.services import ladders
from turnbased.competitions.services.rounds import competition_called_off
from turnbased.competitions.services.withdrawals import told_removed, withdraw
from turnbased.competitions.signals import competition_invitation
from turnbased.contacts.selectors import blockers_between
from turnbased.contacts.services import person_named
from turnbased.events.models import EventKind
from turnbased.events.services import NewEvent, events_record
from turnbased.groups.models import Membership
from turnbased.groups.selectors import group_of, may_make_tables
from turnbased.kit.db import dispatch
from turnbased.kit.errors import Conflict, NotAllowed, Unprocessable

START_TASK = "turnbased.competitions.tasks.competition_start"
# How many competitions one account may organise that have not finished: a club's season, not a spam run.
MAX_ORGANISED = 20
MAX_INVITATIONS = 2000


def _locked(competition_id, user: AbstractBaseUser) -> Competition:
    """Return the competition under its row lock, if the user may see it; "no such competition" otherwise."""
    competition = selectors.competition_for(competition_id, user)
    return Competition.objects.select_for_update().get(pk=competition.pk)


def competition_create(*, user: AbstractBaseUser, settings: dict) -> Competition:
    """Make a competition from the organiser's settings (``rules.read``): open for entries until it starts."""
    chosen = rules.read(settings, now=timezone.now())
    stages = chosen.pop("stages")
    with transaction.atomic():
        if chosen["group"] is not None:
            group = group_of(chosen["group"])
            membership = Membership.objects.filter(group=group, user=user).first()
            if not may_make_tables(group, membership):
                raise NotAllowed(gettext("Only the group's admins may make its competitions.") if membership else
                                 gettext("Only the group's members may make its competitions."))
            chosen["group"] = group
        unfinished = Competition.objects.filter(organiser=user, status__in=[CompetitionStatus.ENTRY,
                                                                              CompetitionStatus.RUNNING])
        if unfinished.count() >= MAX_ORGANISED:
            raise Conflict(gettext("You organise %(cap)s competitions that have not finished, as many as one account "
                                   "may.") % {"cap": MAX_ORGANISED})
        competition = Competition.objects.create(organiser=user, **chosen, season=1 if chosen["league"] else 0)
        Stage.objects.bulk_create(Stage(competition=competition, number=number, **stage)
                                  for number, stage in enumerate(stages, start=1))
    return competition


def competition_enter(*, user: AbstractBaseUser, competition_id) -> Entrant:
    """Enter the person in the competition (again, if they withdrew before it started); refuse with the reason."""
    with transaction.atomic():
        competition = _locked(competition_id, user)
        entrant = Entrant.objects.filter(competition=competition, user=user).first()
        if entrant is not None and entrant.status == EntrantStatus.ACTIVE:
            raise Conflict(gettext("You have entered this competition already."))
        if entrant is not None and competition.status == CompetitionStatus.RUNNING:
            raise Conflict(gettext("You withdrew from this competition; once it has started you cannot enter it "
                                   "again."))
        refusal = selectors.entry_refusal(competition, user)
        if refusal:
            raise Conflict(refusal)
        if entrant is None:
            entrant = Entrant.objects.create(competition=competition, user=user)
            if competition.status == CompetitionStatus.RUNNING:
                _late_entry(competition, entrant)
        else:
            entrant.status, entrant.withdrawn_because, entrant.withdrawn_at = EntrantStatus.ACTIVE, "", None
            entrant.save(update_fields=["status", "withdrawn_because", "withdrawn_at"])
        Competition.objects.filter(pk=competition.pk).update(entrant_count=F("entrant_count") + 1)
        competition.entrant_count += 1
        if (competition.status == CompetitionStatus.ENTRY and competition.start_when_full
                and competition.entrant_count == competition.max_entrants):
            dispatch.after_commit(START_TASK, competition.pk)
    return entrant


def _late_entry(competition: Competition, entrant: Entrant) -> None:
    """Seat a late entrant in the stage under way: the last seed, no points; a Swiss pairs them from the next round,
    a ladder puts them at its bottom."""
    stage = competition.stages.order_by("number").first()
    entrant.seed = competition.entrants.count()
    entrant.save(update_fields=["seed"])
    if stage.format == Format.LADDER:
        ladders.newcomer_placed(stage, entrant)
        return
    Standing.objects.create(stage=stage, entrant=entrant)
    stage.seeds = [*stage.seeds, entrant.pk]
    stage.save(update_fields=["seeds"])


def competition_withdraw(*, user: AbstractBaseUser, competition_id) -> Entrant:
    """Withdraw the person: before the start their place is freed; once it has started they are paired no more (the
    games they are playing go on: resign them to end them)."""
    with transaction.atomic():
        competition = _locked(competition_id, user)
        entrant = Entrant.objects.filter(competition=competition, user=user, status=EntrantStatus.ACTIVE).first()
        if entrant is None:
            raise Conflict(gettext("You are not playing in this competition."))
        if competition.status not in (CompetitionStatus.ENTRY, CompetitionStatus.RUNNING):
            raise Conflict(gettext("This competition is over."))
        withdraw(competition, entrant, WithdrawnBecause.THEMSELVES)
    return entrant


def entrant_remove(*, user: AbstractBaseUser, competition_id, username) -> Entrant:
    """Remove an entrant (the organiser): as if they withdrew; they are told."""
    with transaction.atomic():
        competition = _locked(competition_id, user)
        _as_organiser(competition, user)
        other = person_named(user, username)
        entrant = Entrant.objects.filter(competition=competition, user=other, status=EntrantStatus.ACTIVE).first()
        if entrant is None:
            raise Conflict(gettext("%(name)s is not playing in this competition.") % {"name": other.get_username()})
        if competition.status not in (CompetitionStatus.ENTRY, CompetitionStatus.RUNNING):
            raise Conflict(gettext("This competition is over."))
        withdraw(competition, entrant, WithdrawnBecause.ORGANISER)
        told_removed(competition, entrant)
    return entrant


def _as_organiser(competition: Competition, user: AbstractBaseUser) -> None:
    if competition.organiser_id != user.pk:
        raise NotAllowed(gettext("Only the competition's organiser may do this."))


def competition_invite(*, user: AbstractBaseUser, competition_id, username) -> tuple[CompetitionInvitation, bool]:
    """Invite a person to enter (the organiser); return the invitation and whether it is new. A person who blocked
    the organiser is refused in words that do not say so."""
    with transaction.atomic():
        competition = _locked(competition_id, user)
        _as_organiser(competition, user)
        if competition.status != CompetitionStatus.ENTRY:
            raise Conflict(gettext("This competition takes no more entries."))
        other = person_named(user, username)
        if blockers_between(user.pk, other.pk):
            raise Unprocessable(gettext("%(name)s cannot be invited.") % {"name": other.get_username()})
        found = CompetitionInvitation.objects.filter(competition=competition, user=other).first()
        if found is not None:
            return found, False
        if competition.invitations.count() >= MAX_INVITATIONS:
            raise Conflict(gettext("A competition may have at most %(cap)s invitations.") % {"cap": MAX_INVITATIONS})
        invitation = CompetitionInvitation.objects.create(competition=competition, user=other)
        events_record(events=[NewEvent(user_id=other.pk, kind=EventKind.COMPETITION_INVITATION, payload={
            "competition": selectors.summary(competition), "username": user.get_username()})])
        competition_invitation.send(sender=CompetitionInvitation, invitation=invitation)
    return invitation, True


def competition_cancel(*, user: AbstractBaseUser, competition_id) -> Competition:
    """Call the competition off before it starts (the organiser); its entrants are told."""
    with transaction.atomic():
        competition = _locked(competition_id, user)
        _as_organiser(competition, user)
        if competition.status != CompetitionStatus.ENTRY:
            raise Conflict(gettext("Only a competition that has not started can be called off."))
        competition_called_off(competition)
    return competition


def timeout_recorded(user_id: int) -> None:
    """Count a timeout in a competition's game against the person: from the second on, they may enter no new
    competition for a while, a week doubling with each (docs/players.md, "Competitions")."""
    bar, _ = EntryBar.objects.select_for_update().get_or_create(user_id=user_id)
    bar.timeouts += 1
    if bar.timeouts >= 2:
        bar.barred_until = timezone.now() + timedelta(days=7 * 2 ** (bar.timeouts - 2))
    bar.save(update_fields=["timeouts", "barred_until"])


def timeout_forgiven(user_ids) -> None:
    """A game of a competition finished without its player running out of time: one timeout fewer counts."""
    EntryBar.objects.filter(user_id__in=list(user_ids), timeouts__gt=0).update(timeouts=F("timeouts") - 1)
