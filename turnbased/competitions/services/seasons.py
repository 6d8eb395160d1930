"""Leagues: a competition that goes on season after season, its players in divisions one above the other
(docs/players.md, "Leagues").

A season is a competition of one stage, a round robin in each division (``rules.read_league``). It starts with the
league's order cut into divisions (``pairing.divisions``): the players of the season before as promotion and
relegation left them, then the newcomers by rating, at the bottom. When a season ends the next is made at once,
taking entries for the league's break: everyone still playing is entered in it with their place in the new order
(they may withdraw before it starts), and anyone may enter as a newcomer. A season called off ends the league.
"""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from turnbased.competitions import pairing, rules, selectors
from turnbased.competitions.models import Competition, CompetitionStatus, Entrant, EntrantStatus, Stage, Standing
from turnbased.competitions.pairings import least_at_a_table
from turnbased.competitions.signals import season_opened
from turnbased.events.models import EventKind
from turnbased.events.services import NewEvent, events_record

# Copied from a season to the next: every setting but its dates, its status and its counts.
CARRIED_FIELDS = ("name", "description", "organiser_id", "engine", "table_size", "options", "time_control", "entry",
                  "group_id", "requirements", "min_entrants", "max_entrants", "rated", "takebacks", "agreements", "points", "bye_policy",
                  "bye_points", "tiebreaks", "deadline_policy", "round_days", "league")


def divisions_at_start(competition: Competition, ranked: list[int]) -> list[list[int]]:
    """Return a season's divisions, division 1 first, each in the league's order: the players carried from the
    season before by their place in it (``league_order``), then the newcomers in ``ranked``'s order (their
    rating)."""
    carried = dict(Entrant.objects.filter(pk__in=ranked, league_order__isnull=False)
                   .values_list("pk", "league_order"))
    order = sorted(carried, key=lambda entrant: carried[entrant]) + [entrant for entrant in ranked
                                                                     if entrant not in carried]
    size = competition.league["division_size"]
    # A last division too small to play (a table short, or a two-player division of two) joins the one above.
    least = max(least_at_a_table(competition), rules.MIN_DIVISION if competition.table_size == 2 else 0)
    return pairing.divisions(order, size, min(size, least))


def season_ended(competition: Competition) -> Competition | None:
    """Make the league's next season, as the season ``competition`` ends (in its transaction): its players still in
    entered in the order promotion and relegation give, told where they stand; None when the season was called
    off (the league ends with it) or a next season exists already."""
    if competition.status != CompetitionStatus.FINISHED or Competition.objects.filter(
            previous_season=competition).exists():
        return None
    stage = competition.stages.get()
    finished: dict[int, list[int]] = {}
    for pool, entrant in (Standing.objects.filter(stage=stage).order_by("pool", "place", "entrant__seed")
                          .values_list("pool", "entrant_id")):
        finished.setdefault(pool, []).append(entrant)
    carried = pairing.next_order([finished[pool] for pool in sorted(finished)], competition.league["movers"])
    staying = dict(Entrant.objects.filter(competition=competition, status=EntrantStatus.ACTIVE)
                   .values_list("pk", "user_id"))
    carried = [row for row in carried if row.player in staying]
    now = timezone.now()
    following = Competition.objects.create(
        **{field: getattr(competition, field) for field in CARRIED_FIELDS},
        season=competition.season + 1, previous_season=competition, entrant_count=len(carried),
        starts_at=now + timedelta(days=competition.league["break_days"]))
    previous_stage = {field: getattr(stage, field) for field in ("format", "rounds", "pool_size", "sequential",
                                                                 "duplicate")}
    Stage.objects.create(competition=following, number=1, **previous_stage)
    Entrant.objects.bulk_create(Entrant(competition=following, user_id=staying[row.player], league_order=order,
                                        league_move=row.move) for order, row in enumerate(carried, start=1))
    moves = {staying[row.player]: row.move for row in carried}
    summary = selectors.summary(following)
    events_record(events=[NewEvent(user_id=user_id, kind=EventKind.COMPETITION_SEASON,
                                   payload={"competition": summary, "season": following.season, "move": move,
                                            "starts_at": following.starts_at.isoformat()})
                          for user_id, move in sorted(moves.items())])
    season_opened.send(sender=Competition, competition=following, moves=moves)
    return following
