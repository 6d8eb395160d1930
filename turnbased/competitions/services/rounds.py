"""A competition's play: its start, each round paired, opened and closed, stage after stage, to its end.

A round goes through three steps, each safe to repeat after a crash:

- **paired** (``_pair``): the round's tables are written as planned rows (entrants in seat order) with its byes,
  in one transaction under the competition's row lock;
- **opening** (``round_open``): the tables' games are made through the core's ``create_game``, a batch per
  transaction, each batch taking the planned rows no game was made for yet; a worker killed halfway leaves the
  rest planned, and the task run again (or the minute sweep) makes them; the round is **open** once none is left;
- **closed** (``round_close``): every game finished (the last to end queues it) or the deadline passed and the
  unfinished ones were settled; the next round is then paired, or the stage ends and the next begins, or the
  competition ends.
"""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone

from games.base import ADJUDICATED, ALL_LOSE
from turnbased.competitions import pairing, rules, selectors, standings
from turnbased.competitions.models import (
    Bye, Competition, CompetitionStatus, DeadlinePolicy, Entrant, EntrantStatus, EventTable, Format,
    Placement, Round, RoundStatus, Settled, Stage, StageStatus, Standing, TableStatus, WithdrawnBecause,
)
from turnbased.competitions.pairings import Plan, bracket_winners, least_at_a_table, next_round
from turnbased.competitions.services import duplicates, ladders, seasons
from turnbased.competitions.services.locks import competition_locked, round_locked
from turnbased.competitions.services.tables import table_game
from turnbased.competitions.services.withdrawals import told_removed, withdraw
from turnbased.competitions.signals import competition_ended, competition_started, round_closed, round_opened
from turnbased.entry import requirements as entry_requirements
from turnbased.events.models import EventKind
from turnbased.events.services import NewEvent, events_record
from turnbased.kit.db import dispatch
from turnbased.play.models import GameStatus, Seat
from turnbased.play.services import game_decide, game_play_out
from turnbased.ratings.models import Rating, RatingPool

OPEN_TASK = "turnbased.competitions.tasks.round_open"
CLOSE_TASK = "turnbased.competitions.tasks.round_close"
# Games made per transaction when a round opens: short transactions, and a crash loses at most this much work.
OPEN_BATCH = 50


def _tell(user_ids, kind: str, payload: dict) -> None:
    events_record(events=[NewEvent(user_id=user_id, kind=kind, payload=payload) for user_id in user_ids])


# -- the start --------------------------------------------------------------------------------------------


def competition_start(*, competition_id: int) -> Competition | None:
    """Start a competition that is due (its time came, or it is full): entrants who no longer meet its
    requirements are withdrawn, too few left calls it off, else the entrants are seeded by their rating and the
    first stage begins. Does nothing to a competition not due or no longer taking entries (idempotent)."""
    with transaction.atomic():
        competition = competition_locked(competition_id)
        if competition.status != CompetitionStatus.ENTRY:
            return None
        now = timezone.now()
        full = competition.max_entrants is not None and competition.entrant_count >= competition.max_entrants
        if not ((competition.starts_at and competition.starts_at <= now) or (competition.start_when_full and full)):
            return None
        requirements_rechecked(competition)
        entrants = list(selectors.active_entrants(competition).select_related("user"))
        if len(entrants) < competition.min_entrants:
            competition_called_off(competition)
            return competition
        _seed(competition, entrants)
        competition.status, competition.started_at = CompetitionStatus.RUNNING, now
        competition.save(update_fields=["status", "started_at"])
        user_ids = [entrant.user_id for entrant in entrants]
        _tell(user_ids, EventKind.COMPETITION_STARTED, {"competition": selectors.summary(competition)})
        competition_started.send(sender=Competition, competition=competition, user_ids=user_ids)
        first = competition.stages.order_by("number").first()
        _stage_begin(first, [entrant.pk for entrant in sorted(entrants, key=lambda entrant: entrant.seed)])
    return competition


def requirements_rechecked(competition: Competition) -> list[Entrant]:
    """Withdraw the entrants who no longer meet the competition's requirements (a day before the start, and at
    it); they are told. Returns them."""
    if not entry_requirements.asks_anything(competition.requirements):
        return []
    removed = []
    for entrant in selectors.active_entrants(competition).select_related("user"):
        if entry_requirements.unmet_for_competition(competition.requirements, entrant.user,
                                                    engine=competition.engine, players=competition.table_size):
            withdraw(competition, entrant, WithdrawnBecause.REQUIREMENTS)
            told_removed(competition, entrant)
            removed.append(entrant)
    return removed


def _seed(competition: Competition, entrants: list[Entrant]) -> None:
    """Number the entrants by their rating in the game at the competition's table size (people's pool), best
    first; an entrant with none starts where everyone starts; the earlier entry breaks a tie."""
    ratings = dict(Rating.objects.filter(user_id__in=[entrant.user_id for entrant in entrants],
                                         game_slug=competition.engine, players=competition.table_size,
                                         pool=RatingPool.PEOPLE).values_list("user_id", "mu"))
    for entrant in entrants:
        entrant.rating = ratings.get(entrant.user_id, 0.0)
    entrants.sort(key=lambda entrant: (-entrant.rating, entrant.entered_at, entrant.pk))
    for number, entrant in enumerate(entrants, start=1):
        entrant.seed = number
    Entrant.objects.bulk_update(entrants, ["rating", "seed"])


def competition_called_off(competition: Competition) -> None:
    """End a competition that will not be played (too few entrants at the start, or its organiser's word)."""
    competition.status, competition.finished_at = CompetitionStatus.CANCELLED, timezone.now()
    competition.save(update_fields=["status", "finished_at"])
    user_ids = list(selectors.active_entrants(competition).values_list("user_id", flat=True))
    _tell(user_ids, EventKind.COMPETITION_ENDED, {"competition": selectors.summary(competition)})
    competition_ended.send(sender=Competition, competition=competition, user_ids=user_ids)


# -- stages ----------------------------------------------------------------------------------------------


def _stage_begin(stage: Stage, ranked: list[int]) -> None:
    """Begin a stage with its entrants, best first: a standings row each (in its pool), the bracket drawn, the
    first round paired."""
    competition = stage.competition
    if stage.format == Format.LADDER:
        ladders.ladder_begin(stage, ranked)
        return
    pools = [ranked]
    if stage.format == Format.ROUND_ROBIN and competition.league:
        pools = seasons.divisions_at_start(competition, ranked)
    elif stage.format == Format.ROUND_ROBIN:
        size = stage.pool_size or len(ranked)
        if competition.table_size > 2 and size > competition.table_size + 2:
            size = competition.table_size  # one pool of everyone would be every way of seating them: tables of k
        if size < len(ranked):
            pools = pairing.pools(ranked, size, competition.table_size)
    Standing.objects.bulk_create(Standing(stage=stage, entrant_id=entrant, pool=number)
                                 for number, pool in enumerate(pools) for entrant in pool)
    stage.seeds = ranked
    if stage.format in (Format.ELIMINATION, Format.DOUBLE_ELIMINATION) and competition.table_size == 2:
        draw = (pairing.double_elimination(len(ranked)) if stage.format == Format.DOUBLE_ELIMINATION
                else pairing.single_elimination(len(ranked)))
        stage.bracket = pairing.bracket_to_json(draw)
    stage.status = StageStatus.RUNNING
    stage.save(update_fields=["seeds", "bracket", "status"])
    _pair_or_end(stage, 1)


def _pair_or_end(stage: Stage, number: int) -> None:
    """Pair the stage's round ``number``, or end the stage when it has none left (a ladder has one round)."""
    plan = None if stage.format == Format.LADDER else next_round(stage, number)
    if plan is None:
        _stage_end(stage)
        return
    _pair(stage, number, plan)


def _pair(stage: Stage, number: int, plan: Plan) -> Round:
    competition = stage.competition
    played = Round.objects.create(stage=stage, number=number, status=RoundStatus.OPENING,
                                  seed=duplicates.new_seed() if stage.duplicate else "")
    EventTable.objects.bulk_create(
        EventTable(round=played, number=index, pool=table.pool, match=table.match, players=list(table.players))
        for index, table in enumerate(plan.tables, start=1))
    for offset, (table, winner) in enumerate(plan.walkovers, start=len(plan.tables) + 1):
        walkover = EventTable.objects.create(round=played, number=offset, pool=table.pool, match=table.match,
                                             players=list(table.players), status=TableStatus.FINISHED,
                                             settled=Settled.WITHDRAWN)
        Placement.objects.bulk_create(Placement(table=walkover, entrant_id=entrant, seat=seat,
                                                place=1 if entrant == winner else 2, points=0)
                                      for seat, entrant in enumerate(table.players))
    if plan.byes:
        worth = rules.bye_worth(competition)
        Bye.objects.bulk_create(Bye(round=played, entrant_id=entrant, points=worth) for entrant in plan.byes)
        for entrant in plan.byes:
            standings.bye_recorded(stage.pk, entrant, worth)
    dispatch.after_commit(OPEN_TASK, played.pk)
    return played


def _stage_end(stage: Stage) -> None:
    """End the stage: its places written, and the next stage begun with those who go on, or the competition
    ended."""
    competition = stage.competition
    ranked = _stage_places(stage)
    stage.status = StageStatus.FINISHED
    stage.save(update_fields=["status"])
    following = competition.stages.filter(number=stage.number + 1).first()
    if following is None:
        _competition_end(competition)
        return
    active = set(selectors.active_entrants(competition).values_list("pk", flat=True))
    going_on = [entrant for entrant in _going_on(stage, ranked) if entrant in active]
    Entrant.objects.filter(competition=competition, status=EntrantStatus.ACTIVE).exclude(pk__in=going_on) \
        .update(status=EntrantStatus.ELIMINATED)
    if len(going_on) < least_at_a_table(competition):
        _competition_end(competition)
        return
    _stage_begin(following, going_on)


def _stage_places(stage: Stage) -> list[list[int]]:
    """Write each entrant's place in the stage and return the places, best first (groups of tied entrants)."""
    if stage.format in (Format.ELIMINATION, Format.DOUBLE_ELIMINATION) and stage.competition.table_size == 2:
        placed = pairing.placings(pairing.bracket_from_json(stage.bracket), stage.seeds, bracket_winners(stage))
    elif stage.format == Format.ELIMINATION:
        placed = _elimination_places(stage)
    elif stage.format == Format.LADDER:  # the ladder's order; who left it, below, by their seeds
        on = Standing.objects.filter(stage=stage, place__isnull=False).order_by("place")
        off = Standing.objects.filter(stage=stage, place__isnull=True).order_by("entrant__seed")
        placed = [[row.entrant_id] for row in on] + ([[row.entrant_id for row in off]] if off.exists() else [])
    else:
        placed = [[row.entrant_id for row in group] for group in selectors.standings_ranked(stage)]
    rows = {row.entrant_id: row for row in Standing.objects.filter(stage=stage)}
    place = 1
    for group in placed:
        for entrant in group:
            if entrant in rows:
                rows[entrant].place = place
        place += len(group)
    Standing.objects.bulk_update(rows.values(), ["place"])
    return placed


def _elimination_places(stage: Stage) -> list[list[int]]:
    """Multi-player elimination's places: the final table's order, then those out in each earlier round (the
    later out above), each round's by their place at their table then their seed."""
    seeds = {entrant: index for index, entrant in enumerate(stage.seeds)}
    placed: list[list[int]] = []
    seen: set[int] = set()
    for played in stage.rounds_played.order_by("-number"):
        by_place: dict[int, list[int]] = {}
        for entrant, place in Placement.objects.filter(table__round=played).values_list("entrant_id", "place"):
            if entrant not in seen:
                by_place.setdefault(place, []).append(entrant)
        for place in sorted(by_place):
            group = sorted(by_place[place], key=lambda entrant: seeds.get(entrant, len(seeds)))
            placed.append(group)
            seen.update(group)
    rest = [entrant for entrant in stage.seeds if entrant not in seen]
    if rest:
        placed.append(rest)
    return placed


def _going_on(stage: Stage, placed: list[list[int]]) -> list[int]:
    """Return who goes on to the next stage, best first: the top ``advance`` of each pool (round robin) or of the
    stage, ties at the cut going on together."""
    if stage.format == Format.ROUND_ROBIN:
        pools = dict(Standing.objects.filter(stage=stage).values_list("entrant_id", "pool"))
        chosen: list[tuple[int, int, int]] = []  # (place in pool, pool, entrant)
        counted: dict[int, int] = {}
        for group in placed:
            for pool in sorted({pools[entrant] for entrant in group}):
                members = [entrant for entrant in group if pools[entrant] == pool]
                if counted.get(pool, 0) < stage.advance:
                    chosen.extend((counted.get(pool, 0), pool, entrant) for entrant in members)
                counted[pool] = counted.get(pool, 0) + len(members)
        return [entrant for _, _, entrant in sorted(chosen)]
    going: list[int] = []
    for group in placed:
        if len(going) >= stage.advance:
            break
        going.extend(group)
    return going


def _competition_end(competition: Competition) -> None:
    competition.status, competition.finished_at = CompetitionStatus.FINISHED, timezone.now()
    competition.save(update_fields=["status", "finished_at"])
    user_ids = list(competition.entrants.exclude(status=EntrantStatus.WITHDRAWN).values_list("user_id", flat=True))
    _tell(user_ids, EventKind.COMPETITION_ENDED, {"competition": selectors.summary(competition)})
    competition_ended.send(sender=Competition, competition=competition, user_ids=user_ids)
    if competition.league:
        seasons.season_ended(competition)


# -- opening a round -------------------------------------------------------------------------------------


def round_open(*, round_id: int, batch: int = OPEN_BATCH) -> int:
    """Make the games of the round's planned tables, ``batch`` per transaction, then open the round; return how
    many games this call made. Safe to run again at any point: a table's game is made once."""
    made = 0
    while True:
        with transaction.atomic():
            planned = list(EventTable.objects.select_for_update(skip_locked=True)
                           .filter(round_id=round_id, status=TableStatus.PLANNED, game__isnull=True)
                           .order_by("number")[:batch])
            if not planned:
                break
            played = Round.objects.select_related("stage__competition__organiser").get(pk=round_id)
            for table in planned:  # a duplicate round's from its one seed, held until it closes
                table_game(played.stage.competition, table, seed=played.seed or None, held=played.stage.duplicate)
            made += len(planned)
    with transaction.atomic():
        played = round_locked(round_id)
        if played.status != RoundStatus.OPENING:
            return made
        if EventTable.objects.filter(round=played, game__isnull=True, status=TableStatus.PLANNED).exists():
            return made  # another worker still makes some: the one that makes the last opens the round
        _opened(played)
    return made


def _opened(played: Round) -> None:
    competition = played.stage.competition
    now = timezone.now()
    length = rules.round_length(round_days=competition.round_days, time_control=competition.time_control,
                                table_size=competition.table_size, turns=selectors.typical_turns(competition))
    played.status, played.opened_at, played.deadline = RoundStatus.OPEN, now, now + timedelta(days=length.days)
    played.save(update_fields=["status", "opened_at", "deadline"])
    tables = list(played.tables.filter(status=TableStatus.PLAYING).select_related("game"))
    seated: dict[int, list[int]] = {}
    users = dict(Entrant.objects.filter(pk__in={entrant for table in tables for entrant in table.players})
                 .values_list("pk", "user_id"))
    for table in tables:
        for entrant in table.players:
            seated.setdefault(users[entrant], []).append(table.game_id)
    events_record(events=[NewEvent(user_id=user_id, kind=EventKind.COMPETITION_TABLE, payload={
        "competition": selectors.summary(competition), "stage": played.stage.number, "round": played.number,
        "games": games}) for user_id, games in seated.items()])
    round_opened.send(sender=Round, round=played, tables=tables)
    if not tables:
        dispatch.after_commit(CLOSE_TASK, played.pk)


# -- closing a round -------------------------------------------------------------------------------------


def round_close(*, round_id: int) -> Round | None:
    """Close the round if every one of its games has finished, then pair the next round (or end the stage);
    nothing otherwise (idempotent: a second call finds it closed)."""
    with transaction.atomic():
        played = Round.objects.select_related("stage__competition").get(pk=round_id)
        competition_locked(played.stage.competition_id)
        played = round_locked(round_id)
        if played.status != RoundStatus.OPEN:
            return None
        if played.tables.exclude(status=TableStatus.FINISHED).exists():
            return None
        if played.stage.format == Format.LADDER and played.deadline > timezone.now():
            return None  # a ladder's round lasts until its end, whatever games are over
        if played.stage.duplicate:  # its results count now, its games and seed are out
            duplicates.round_revealed(played)
        played.status, played.closed_at = RoundStatus.CLOSED, timezone.now()
        played.save(update_fields=["status", "closed_at"])
        stage = played.stage
        user_ids = list(Standing.objects.filter(stage=stage, entrant__status=EntrantStatus.ACTIVE)
                        .values_list("entrant__user_id", flat=True))
        _tell(user_ids, EventKind.COMPETITION_ROUND, {"competition": selectors.summary(stage.competition),
                                                      "stage": stage.number, "round": played.number})
        round_closed.send(sender=Round, round=played, user_ids=user_ids)
        _pair_or_end(stage, played.number + 1)
    return played


# -- the deadline ----------------------------------------------------------------------------------------


def round_deadline(*, round_id: int) -> int:
    """Settle the games of an open round still going at its deadline by the competition's policy; return how many
    games. Played out: the seats' bots play each to its end at once (``play.services.game_play_out``), the last to
    end closing the round. Adjudicated, or every player losing: each game ends now with the result its engine
    decides (``play.services.game_decide``), recorded as any finished game is (``results.table_finished`` marks
    how). Run again it settles the same games again, which changes nothing."""
    with transaction.atomic():
        played = round_locked(round_id)
        if played.status != RoundStatus.OPEN or played.deadline is None or played.deadline > timezone.now():
            return 0
        policy = played.stage.competition.deadline_policy
        tables = list(played.tables.filter(status=TableStatus.PLAYING).exclude(game=None))
        if policy == DeadlinePolicy.PLAY_OUT:
            EventTable.objects.filter(pk__in=[table.pk for table in tables], settled=Settled.PLAYED) \
                .update(settled=Settled.PLAYED_OUT)
    for table in tables:
        if policy == DeadlinePolicy.PLAY_OUT:
            game_play_out(game_id=table.game_id)
        else:
            game_decide(game_id=table.game_id, how=ADJUDICATED if policy == DeadlinePolicy.ADJUDICATE else ALL_LOSE)
    return len(tables)


# -- the minute sweep ------------------------------------------------------------------------------------


def due_work() -> dict[str, list[int]]:
    """Return what the minute sweep queues: competitions due to start, rounds still opening (their task lost, or
    killed halfway: ``round_open`` goes on from where it stopped, and two at once share the work), open rounds
    with every game finished (a lost close), open rounds past their deadline with games still going, and tables
    whose every person left at the game has withdrawn (a lost ``table_abandoned``)."""
    starting = list(Competition.objects.filter(status=CompetitionStatus.ENTRY, starts_at__lte=timezone.now())
                    .values_list("pk", flat=True))
    opening = list(Round.objects.filter(status=RoundStatus.OPENING).values_list("pk", flat=True))
    unfinished = EventTable.objects.filter(round=OuterRef("pk")).exclude(status=TableStatus.FINISHED)
    closing = list(Round.objects.filter(status=RoundStatus.OPEN).exclude(Exists(unfinished))
                   .exclude(stage__format=Format.LADDER, deadline__gt=timezone.now()).values_list("pk", flat=True))
    late = list(Round.objects.filter(status=RoundStatus.OPEN, deadline__lte=timezone.now())
                .filter(Exists(unfinished)).values_list("pk", flat=True))
    # Tables whose every person still at the game has withdrawn (``withdrawals.table_abandoned``: a lost task).
    people = Seat.objects.filter(game=OuterRef("game"), user__isnull=False, bot="")
    still_in = people.filter(user__competition_entries__competition=OuterRef("round__stage__competition"),
                             user__competition_entries__status=EntrantStatus.ACTIVE)
    abandoned = list(EventTable.objects.filter(status=TableStatus.PLAYING, round__status=RoundStatus.OPEN,
                                               game__status=GameStatus.ACTIVE)
                     .filter(Exists(people)).exclude(Exists(still_in)).values_list("pk", flat=True))
    return {"starting": starting, "opening": opening, "closing": closing, "late": late, "abandoned": abandoned}


def requirements_due_rechecked() -> int:
    """Recheck, once, the requirements of the competitions that start within a day (each in its own
    transaction); return how many were rechecked."""
    soon = timezone.now() + timedelta(days=1)
    due = list(Competition.objects.filter(status=CompetitionStatus.ENTRY, starts_at__lte=soon,
                                          requirements_rechecked_at__isnull=True).values_list("pk", flat=True))
    for competition_id in due:
        with transaction.atomic():
            competition = competition_locked(competition_id)
            if competition.requirements_rechecked_at is None and competition.status == CompetitionStatus.ENTRY:
                requirements_rechecked(competition)
                competition.requirements_rechecked_at = timezone.now()
                competition.save(update_fields=["requirements_rechecked_at"])
    return len(due)
