"""Ladders: two-player competitions with no rounds, a ranking that changes as challenges are won
(docs/players.md, "Ladders").

At the start the entrants stand in the order of their seeds; a newcomer joins at the bottom, and a player who
withdraws leaves a gap the ones below close. A player challenges one of the ``reach`` places above theirs: the game is
made at once on the ladder's clock (accepted automatically), as long as each of the two has fewer than
``open_challenges`` games open and they did not meet in the last ``cooldown_days``. A challenger who wins takes the
defender's place, everyone from there down to the challenger's old place moving down one; any other result changes
nothing. Results are applied in the order the games finish, each under the ladder round's row lock. The ladder is one
round that stays open for ``days``: at its deadline the games still going are settled by the deadline policy, and
once they are over the ladder's order is its final standings.
"""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Case, F, Max, Q, When
from django.utils import timezone
from django.utils.translation import gettext

from turnbased.competitions import selectors
from turnbased.competitions.models import (
    Competition, CompetitionStatus, Entrant, EntrantStatus, EventTable, Format, Round, RoundStatus, Stage,
    StageStatus, Standing, TableStatus,
)
from turnbased.competitions.services.tables import table_game
from turnbased.competitions.signals import challenge_made
from turnbased.contacts.selectors import blockers_between
from turnbased.events.models import EventKind
from turnbased.events.services import NewEvent, events_record
from turnbased.kit.errors import Conflict, Unprocessable


def ladder_begin(stage: Stage, ranked: list[int]) -> None:
    """Put the entrants on the ladder in ``ranked``'s order (their seeds) and open its one round until the end."""
    Standing.objects.bulk_create(Standing(stage=stage, entrant_id=entrant, place=place)
                                 for place, entrant in enumerate(ranked, start=1))
    now = timezone.now()
    Round.objects.create(stage=stage, number=1, status=RoundStatus.OPEN, opened_at=now,
                         deadline=now + timedelta(days=stage.competition.ladder["days"]))
    stage.seeds, stage.status = ranked, StageStatus.RUNNING
    stage.save(update_fields=["seeds", "status"])


def newcomer_placed(stage: Stage, entrant: Entrant) -> None:
    """Put a late entrant at the bottom of the ladder."""
    last = Standing.objects.filter(stage=stage).aggregate(last=Max("place"))["last"] or 0
    Standing.objects.create(stage=stage, entrant=entrant, place=last + 1)


def entrant_left(competition: Competition, entrant: Entrant) -> None:
    """Take a withdrawn player off the ladder: the players below move up one (under the competition's lock)."""
    row = Standing.objects.filter(stage__competition=competition, stage__format=Format.LADDER,
                                  stage__status=StageStatus.RUNNING, entrant=entrant, place__isnull=False).first()
    if row is None:
        return
    Standing.objects.filter(stage_id=row.stage_id, place__gt=row.place).update(place=F("place") - 1)
    Standing.objects.filter(pk=row.pk).update(place=None)


def _open_round(competition: Competition) -> Round | None:
    return (Round.objects.select_for_update(of=("self",))
            .filter(stage__competition=competition, stage__format=Format.LADDER, status=RoundStatus.OPEN)
            .select_related("stage").first())


def _open_count(played: Round, entrant_id: int) -> int:
    return played.tables.filter(status=TableStatus.PLAYING, players__contains=[entrant_id]).count()


def challenge_refusal(competition: Competition, played: Round, challenger: Entrant, defender: Entrant) -> str | None:
    """Return why ``challenger`` may not challenge ``defender`` now (the first reason), or None."""
    ladder = competition.ladder
    places = dict(Standing.objects.filter(stage=played.stage, entrant__in=[challenger, defender])
                  .values_list("entrant_id", "place"))
    mine, theirs = places.get(challenger.pk), places.get(defender.pk)
    if mine is None or theirs is None or defender.status != EntrantStatus.ACTIVE:
        return gettext("Only two players on the ladder can meet in a challenge.")
    if not 1 <= mine - theirs <= ladder["reach"]:
        return gettext("You may challenge the %(reach)s places above yours (you are number %(place)s).") \
            % {"reach": ladder["reach"], "place": mine}
    if blockers_between(challenger.user_id, defender.user_id):  # either blocked the other: never named
        return gettext("You cannot challenge this player.")
    if played.tables.filter(status=TableStatus.PLAYING, players__contains=[challenger.pk]) \
            .filter(players__contains=[defender.pk]).exists():
        return gettext("You have a challenge with this player in play already.")
    for entrant, words in ((challenger, gettext("You have %(count)s challenges in play, as many as the ladder "
                                                "allows.")),
                           (defender, gettext("This player has %(count)s challenges in play, as many as the ladder "
                                              "allows: try again when one is over."))):
        if _open_count(played, entrant.pk) >= ladder["open_challenges"]:
            return words % {"count": ladder["open_challenges"]}
    since = timezone.now() - timedelta(days=ladder["cooldown_days"])
    if ladder["cooldown_days"] and played.tables.filter(
            status=TableStatus.FINISHED, players__contains=[challenger.pk], game__finished_at__gt=since) \
            .filter(players__contains=[defender.pk]).exists():
        return gettext("You met this player less than %(days)s days ago: challenge them again later.") \
            % {"days": ladder["cooldown_days"]}
    return None


def ladder_challenge(*, user: AbstractBaseUser, competition_id, username: str) -> EventTable:
    """Challenge the player named ``username`` on the ladder: their game is made at once (accepted automatically on
    the ladder's clock) and the defender is told; refuse with the reason."""
    with transaction.atomic():
        competition = selectors.competition_for(competition_id, user)
        competition = Competition.objects.select_for_update().get(pk=competition.pk)
        if competition.ladder is None:
            raise Conflict(gettext("This competition is no ladder: it has no challenges."))
        played = _open_round(competition) if competition.status == CompetitionStatus.RUNNING else None
        if played is None or played.deadline <= timezone.now():
            raise Conflict(gettext("The ladder is not running: it takes no challenges."))
        challenger = Entrant.objects.filter(competition=competition, user=user, status=EntrantStatus.ACTIVE).first()
        if challenger is None:
            raise Conflict(gettext("Only a player on the ladder may challenge."))
        defender = Entrant.objects.filter(competition=competition, user__username__iexact=username) \
            .exclude(pk=challenger.pk).select_related("user").first()
        if defender is None:
            raise Unprocessable(gettext("No player by that name is on the ladder."))
        refusal = challenge_refusal(competition, played, challenger, defender)
        if refusal:
            raise Conflict(refusal)
        number = (played.tables.aggregate(last=Max("number"))["last"] or 0) + 1
        table = EventTable.objects.create(round=played, number=number, players=_seated(played, challenger, defender),
                                          challenger=challenger)
        table_game(competition, table)
        table.save(update_fields=["game", "status"])
        events_record(events=[NewEvent(user_id=defender.user_id, kind=EventKind.COMPETITION_CHALLENGE, payload={
            "competition": selectors.summary(competition), "username": user.get_username(),
            "games": [table.game_id]})])
        challenge_made.send(sender=EventTable, table=table, challenger=user, defender=defender.user)
    return table


def _seated(played: Round, challenger: Entrant, defender: Entrant) -> list[int]:
    """Seat first the one of the two who has sat first less often on this ladder (the challenger on a tie)."""
    firsts = {entrant: played.tables.filter(players__0=entrant).count() for entrant in (challenger.pk, defender.pk)}
    if firsts[defender.pk] < firsts[challenger.pk]:
        return [defender.pk, challenger.pk]
    return [challenger.pk, defender.pk]


def result_applied(stage: Stage, table: EventTable, places: list[int]) -> bool:
    """Move the ladder on for a finished challenge (under the round's lock, in the game's end): a challenger who won
    outright takes the defender's place, the players from there to the challenger's old place moving down one;
    return whether anyone moved."""
    if table.challenger_id is None or table.challenger_id not in table.players:
        return False
    seat = table.players.index(table.challenger_id)
    defender = table.players[1 - seat]
    if places[seat] != 1 or places[1 - seat] == 1:
        return False
    rows = dict(Standing.objects.filter(stage=stage, entrant_id__in=table.players).values_list("entrant_id", "place"))
    mine, theirs = rows.get(table.challenger_id), rows.get(defender)
    if mine is None or theirs is None or theirs > mine:
        return False  # one of them left the ladder, or the challenger is above already
    Standing.objects.filter(stage=stage).filter(Q(place__gte=theirs, place__lte=mine)).update(
        place=Case(When(entrant_id=table.challenger_id, then=theirs), default=F("place") + 1))
    return True


def challengeable(competition: Competition, user: AbstractBaseUser) -> set[str]:
    """Return the usernames of the players the person may challenge now as far as places go (the page's buttons;
    the challenge itself checks everything again)."""
    if competition.ladder is None or competition.status != CompetitionStatus.RUNNING or not user.is_authenticated:
        return set()
    mine = Standing.objects.filter(stage__competition=competition, stage__format=Format.LADDER,
                                   entrant__user=user, entrant__status=EntrantStatus.ACTIVE,
                                   place__isnull=False).first()
    if mine is None:
        return set()
    reach = competition.ladder["reach"]
    return set(Standing.objects.filter(stage_id=mine.stage_id, place__gte=mine.place - reach, place__lt=mine.place)
               .values_list("entrant__user__username", flat=True))
