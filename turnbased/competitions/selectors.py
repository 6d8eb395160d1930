"""Reads of competitions: which a person may see, a competition as the stream and lists summarise it, its
entrants, rounds and tables, and the standings in order."""

from __future__ import annotations

import hashlib
import re

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Exists, F, OuterRef, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext

from turnbased.competitions import scoring
from turnbased.competitions.models import (
    Competition, CompetitionInvitation, CompetitionStatus, Entrant, EntrantStatus, EntryBar, EntryKind, EventTable,
    Format, Placement, Round, RoundStatus, Stage, Standing,
)
from turnbased.contacts.selectors import blockers_between
from turnbased.entry import requirements as entry_requirements
from turnbased.groups.models import Membership
from turnbased.play.models import Game, GameStatus
from turnbased.kit.errors import InvalidRequest, NotFound


def visible_to(user: AbstractBaseUser | AnonymousUser) -> Q:
    """The competitions the person may see: open ones; a group's to its members; an invitation-only one to those
    invited; each to its organiser and entrants."""
    shown = Q(entry=EntryKind.OPEN)
    if user.is_authenticated:
        shown |= Q(organiser_id=user.pk)
        shown |= Q(entry=EntryKind.GROUP) & Exists(Membership.objects.filter(group_id=OuterRef("group_id"),
                                                                             user_id=user.pk))
        shown |= Exists(CompetitionInvitation.objects.filter(competition_id=OuterRef("pk"), user_id=user.pk))
        shown |= Exists(Entrant.objects.filter(competition_id=OuterRef("pk"), user_id=user.pk))
    return shown


def competition_for(competition_id, user: AbstractBaseUser | AnonymousUser) -> Competition:
    """Return the competition if the person may see it; ``NotFound`` for any other id or value (a competition they
    may not see does not exist for them)."""
    found = None
    if isinstance(competition_id, int) and not isinstance(competition_id, bool) and 0 < competition_id < 2**63:
        found = Competition.objects.filter(visible_to(user), pk=competition_id).first()
    if found is None:
        raise NotFound(gettext("No such competition."))
    return found


def summary(competition: Competition) -> dict:
    """A competition as an event's payload names it (no words: machine fields)."""
    return {"id": competition.pk, "name": competition.name, "game": competition.engine,
            "status": competition.status}


def competitions_of(user: AbstractBaseUser) -> QuerySet[Competition]:
    """Return the competitions the person entered and still plays in or follows: not withdrawn, newest first."""
    mine = Entrant.objects.filter(competition_id=OuterRef("pk"), user_id=user.pk).exclude(
        status=EntrantStatus.WITHDRAWN)
    return (Competition.objects.filter(Exists(mine)).select_related("organiser").prefetch_related("stages")
            .order_by("-pk"))


def active_entrants(competition: Competition) -> QuerySet[Entrant]:
    return competition.entrants.filter(status=EntrantStatus.ACTIVE)


def stage_tables(stage: Stage) -> QuerySet[EventTable]:
    return EventTable.objects.filter(round__stage=stage)


def standings_ranked(stage: Stage) -> list[list[Standing]]:
    """Return the stage's standings, best first, in groups of entrants tied on points and every tie-break, each
    pool ranked on its own (pools one after the other)."""
    competition = stage.competition
    rows = list(Standing.objects.filter(stage=stage).select_related("entrant__user"))
    by_pool: dict[int, list[Standing]] = {}
    for row in rows:
        by_pool.setdefault(row.pool, []).append(row)
    games = outcomes(stage)
    ranked: list[list[Standing]] = []
    for pool in sorted(by_pool):
        members = {row.entrant_id: row for row in by_pool[pool]}
        order = scoring.ranked({entrant: as_row(row) for entrant, row in members.items()}, competition.tiebreaks,
                               [game for game in games if members.keys() >= set(game.players)])
        # Within a group tied on everything, the seed decides who is listed first (not a place: they share it).
        ranked.extend(sorted((members[entrant] for entrant in group),
                             key=lambda row: (row.entrant.seed or 0, row.entrant_id)) for group in order)
    return ranked


def as_row(row: Standing) -> scoring.Row:
    return scoring.Row(points=row.points, games=row.games, byes=row.byes, wins=row.wins,
                       second_places=row.second_places, third_places=row.third_places,
                       score_ratio_sum=row.score_ratio_sum, score_ratio_games=row.score_ratio_games,
                       buchholz=row.buchholz, sonneborn_berger=row.sonneborn_berger)


def outcomes(stage: Stage) -> list[scoring.GameOutcome]:
    """Return the stage's finished tables as the scoring reads them (one query)."""
    tables: dict[int, list[Placement]] = {}
    for placement in Placement.objects.filter(table__round__stage=stage).order_by("table_id", "seat"):
        tables.setdefault(placement.table_id, []).append(placement)
    return [outcome_of(placements) for placements in tables.values()]


def outcome_of(placements: list[Placement]) -> scoring.GameOutcome:
    placements = sorted(placements, key=lambda placement: placement.seat)
    scores = tuple(placement.score for placement in placements)
    return scoring.GameOutcome(players=tuple(placement.entrant_id for placement in placements),
                               places=tuple(placement.place for placement in placements),
                               points=tuple(placement.points for placement in placements),
                               scores=None if any(score is None for score in scores) else scores)


def entry_refusal(competition: Competition, user: AbstractBaseUser) -> str | None:
    """Return why the person may not enter now (the first reason), or None (``services.entries`` asks the same
    under the competition's lock)."""
    if competition.status == CompetitionStatus.RUNNING:
        first = competition.stages.order_by("number").first()
        if first.format == Format.LADDER:  # a ladder takes newcomers, at its bottom, until its end
            if not first.rounds_played.filter(deadline__gt=timezone.now()).exists():
                return gettext("This ladder has reached its end and takes no more entries.")
        elif first.format != Format.SWISS or first.rounds_played.count() >= competition.late_entry_rounds:
            return gettext("This competition has started and takes no more entries.")
    elif competition.status != CompetitionStatus.ENTRY:
        return gettext("This competition takes no more entries.")
    if competition.entry == EntryKind.GROUP and not Membership.objects.filter(group_id=competition.group_id,
                                                                               user=user).exists():
        return gettext("This competition is for the members of its group.")
    if competition.entry == EntryKind.INVITATION and not CompetitionInvitation.objects.filter(
            competition=competition, user=user).exists():
        return gettext("This competition is by invitation: you have none.")
    if competition.organiser_id in blockers_between(competition.organiser_id, user.pk):
        # The same words as any other refusal that is not the person's to mend: a block is never named.
        return gettext("You cannot enter this competition.")
    bar = EntryBar.objects.filter(user=user, barred_until__gt=timezone.now()).first()
    if bar is not None:
        return gettext("You ran out of time in competitions' games too often: you may enter a new one from "
                       "%(date)s.") % {"date": timezone.localtime(bar.barred_until).strftime("%Y-%m-%d %H:%M")}
    if competition.max_entrants is not None and competition.entrant_count >= competition.max_entrants:
        return gettext("This competition is full.")
    return entry_requirements.unmet_for_competition(competition.requirements, user, engine=competition.engine,
                                                    players=competition.table_size)


def typical_turns(competition: Competition) -> float | None:
    """Return the median turns each player took in the game's latest finished games at the competition's table
    size (None when there are too few to tell); a held game's length is its seats' alone until it is let go."""
    rows = list(Game.objects.filter(engine=competition.engine, seat_count=competition.table_size,
                                    status=GameStatus.FINISHED, held=False).order_by("-finished_at")
                .annotate(turns=F("seq") * 1.0 / F("seat_count")).values_list("turns", flat=True)[:200])
    if len(rows) < 10:
        return None
    rows.sort()
    return rows[len(rows) // 2]


def filters_read(params) -> dict:
    """Return the list filters a query string asks for (game, stage_format, status, group, days_per_move, no_absence,
    league), checked; refuse a value that names nothing (400, in words that say which)."""
    from games import engines

    chosen: dict = {}
    game = params.get("game")
    if game:
        if game not in engines():
            raise InvalidRequest(gettext("game must be one of %(values)s.") % {"values": ", ".join(engines())})
        chosen["game"] = game
    for name, values in (("stage_format", Format.values), ("status", CompetitionStatus.values)):
        value = params.get(name)
        if value:
            if value not in values:
                raise InvalidRequest(gettext("%(name)s must be one of %(values)s.")
                                     % {"name": name, "values": ", ".join(values)})
            chosen[name] = value
    for name in ("group", "days_per_move"):
        value = params.get(name)
        if value:
            if not re.fullmatch(r"-?[0-9]{1,400}", value):
                raise InvalidRequest(gettext("%(name)s must be a whole number.") % {"name": name})
            chosen[name] = int(value)
    for name in ("no_absence", "league"):
        value = params.get(name)
        if value:
            if value not in ("true", "false"):
                raise InvalidRequest(gettext("%(name)s must be true or false.") % {"name": name})
            chosen[name] = value == "true"
    return chosen


def listed(user: AbstractBaseUser | AnonymousUser, params) -> QuerySet[Competition]:
    """Return the competitions the person may see that the filters keep, with what a list shows of each."""
    chosen = filters_read(params)
    rows = Competition.objects.filter(visible_to(user)).select_related("organiser").prefetch_related("stages")
    if "game" in chosen:
        rows = rows.filter(engine=chosen["game"])
    if "stage_format" in chosen:
        rows = rows.filter(Exists(Stage.objects.filter(competition=OuterRef("pk"), format=chosen["stage_format"])))
    if "status" in chosen:
        rows = rows.filter(status=chosen["status"])
    if "group" in chosen:
        # An id no group can have (a column holds 1 to 2**63 − 1) names none: nothing is listed.
        rows = rows.filter(group_id=chosen["group"]) if 0 < chosen["group"] < 2**63 else rows.none()
    if "days_per_move" in chosen:
        rows = rows.filter(time_control__contains={"kind": "per_move", "days_per_move": chosen["days_per_move"]}) \
            if abs(chosen["days_per_move"]) < 2**31 else rows.none()
    if chosen.get("no_absence") is True:
        rows = rows.filter(time_control__contains={"allow_absence": False})
    elif chosen.get("no_absence") is False:
        rows = rows.exclude(time_control__contains={"allow_absence": False})
    if "league" in chosen:  # a league's season carries the league's settings; any other competition none
        rows = rows.filter(league__isnull=not chosen["league"])
    return rows


# Duplicate rounds (``services.duplicates``): the commitment to a round's seed, the seed once the round is over,
# and its seats compared across its tables.
ROUND_COMMITMENT_SCHEME = "turnbased-round-commitment/1"
ROUND_COMMITMENT_ALGORITHM = "sha256"


def round_commitment_bytes(*, seed: str, competition_id: int, stage: int, round_number: int, engine: str) -> bytes:
    """Return what a round's commitment hashes (docs/record-format.md, "A duplicate round's commitment")."""
    lines = [ROUND_COMMITMENT_SCHEME, str(int(competition_id)), str(int(stage)), str(int(round_number)), engine, seed]
    return "\n".join(lines).encode("utf-8")


def round_commitment(played: Round) -> dict | None:
    """Return the round's published commitment to its seed (None for a round that is not a duplicate one)."""
    if not played.seed:
        return None
    value = hashlib.sha256(round_commitment_bytes(
        seed=played.seed, competition_id=played.stage.competition_id, stage=played.stage.number,
        round_number=played.number, engine=played.stage.competition.engine)).hexdigest()
    return {"scheme": ROUND_COMMITMENT_SCHEME, "algorithm": ROUND_COMMITMENT_ALGORITHM, "value": value}


def round_seed_revealed(played: Round) -> str | None:
    """Return the round's seed once the round has closed; None before, and for a round that is not duplicate."""
    return played.seed if played.seed and played.status == RoundStatus.CLOSED else None


def seats_compared(tables: list[dict]) -> list[dict]:
    """Return a closed duplicate round's seats compared across its tables: for each table size and seat, everyone
    who held that seat (the same cards) with their place, points and score, best first (a better place, then a
    higher score). ``tables`` are the round's as ``presenters.table_shown`` gives them."""
    seats: dict[tuple[int, int], list[dict]] = {}
    for table in tables:
        by_seat = {placement["seat"]: placement for placement in table["placements"]}
        for seat, username in enumerate(table["players"]):
            placement = by_seat.get(seat)
            if placement is None:
                continue
            seats.setdefault((len(table["players"]), seat), []).append({
                "table": table["number"], "username": username, "place": placement["place"],
                "points": placement["points"], "score": placement["score"]})
    return [{"players": size, "seat": seat + 1,
             "rows": sorted(rows, key=lambda row: (row["place"], -(row["score"] or 0.0), row["table"]))}
            for (size, seat), rows in sorted(seats.items())]
