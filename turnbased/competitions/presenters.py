"""Competitions as the API and the pages show them: machine fields (never words that change with the language, but
for a refusal's reason), the same for every viewer who may see the competition. What is shown of a table is what
anyone may know of it: who sits there, its game's id and state, and once it is over the places it gave."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from django.conf import settings
from django.db.models import F
from django.urls import reverse

from games import get_engine
from turnbased.competitions import rules, scoring, selectors
from turnbased.competitions.models import (
    Bye, Competition, Entrant, EventTable, Format, Placement, Round, RoundStatus, Stage, StageStatus, Standing,
    TableStatus,
)

TIEBREAK_COLUMNS = {"sonneborn_berger": "sonneborn_berger", "buchholz": "buchholz", "wins": "wins",
                    "second_places": "second_places", "third_places": "third_places"}


def settings_from(validated: dict) -> dict:
    """Return the settings a validated request body asks for, as ``rules.read`` takes them."""
    chosen = dict(validated)
    for name in ("time_control", "requirements"):
        if name in chosen:
            chosen[name] = dict(chosen[name])
    if "stages" in chosen:
        chosen["stages"] = [dict(stage) for stage in chosen["stages"]]
    for name in ("league", "ladder"):
        if chosen.get(name) is not None:
            chosen[name] = dict(chosen[name])
    return chosen


def points_tables(competition: Competition) -> dict[str, list[float]]:
    """Return the points per place of each table size the competition seats (the defaults where not changed)."""
    engine = get_engine(competition.engine)
    sizes = [competition.table_size]
    if rules.short_tables(engine, competition.table_size):
        sizes.append(competition.table_size - 1)
    return {str(size): list(scoring.points_table(size, competition.points)) for size in sizes}


def _shown(competition: Competition, my_entry: str | None, length: rules.RoundLength,
           next_season: int | None = None) -> dict:
    return {
        "id": competition.pk, "name": competition.name, "description": competition.description,
        "organiser": competition.organiser.get_username(), "game": competition.engine,
        "table_size": competition.table_size, "options": competition.options,
        "time_control": competition.time_control, "entry": competition.entry, "group": competition.group_id,
        "requirements": competition.requirements, "min_entrants": competition.min_entrants,
        "max_entrants": competition.max_entrants, "entrant_count": competition.entrant_count,
        "starts_at": competition.starts_at, "start_when_full": competition.start_when_full,
        "late_entry_rounds": competition.late_entry_rounds, "rated": competition.rated,
        "takebacks": competition.takebacks, "agreements": list(competition.agreements),
        "points": points_tables(competition), "bye_policy": competition.bye_policy,
        "bye_points": rules.bye_worth(competition), "tiebreaks": list(competition.tiebreaks),
        "deadline_policy": competition.deadline_policy, "round_days": length.days,
        "round_days_estimated": length.estimated, "status": competition.status,
        "created_at": competition.created_at, "started_at": competition.started_at,
        "finished_at": competition.finished_at,
        "stages": [{"number": stage.number, "format": stage.format, "rounds": stage.rounds,
                    "pool_size": stage.pool_size, "sequential": stage.sequential, "duplicate": stage.duplicate,
                    "advance": stage.advance,
                    "status": stage.status} for stage in competition.stages.all()],
        "ladder": competition.ladder, "league": competition.league, "season": competition.season,
        "previous_season": competition.previous_season_id, "next_season": next_season,
        "my_entry": my_entry,
        "url": settings.SITE_URL + reverse("competition-detail", args=[competition.pk]),
    }


def round_length(competition: Competition, turns: dict | None = None) -> rules.RoundLength:
    key = (competition.engine, competition.table_size)
    if turns is not None and key not in turns:
        turns[key] = selectors.typical_turns(competition)
    return rules.round_length(round_days=competition.round_days, time_control=competition.time_control,
                              table_size=competition.table_size,
                              turns=turns[key] if turns is not None else selectors.typical_turns(competition))


def many(competitions: Iterable[Competition], user) -> list[dict]:
    """Return the competitions of a list page (a query for the viewer's entries, one per game and table size for
    the round's estimated length)."""
    competitions = list(competitions)
    mine = dict(Entrant.objects.filter(user_id=user.pk, competition__in=competitions)
                .values_list("competition_id", "status")) if user.is_authenticated else {}
    turns: dict = {}
    following = _next_seasons([competition for competition in competitions if competition.league])
    return [_shown(competition, mine.get(competition.pk), round_length(competition, turns),
                   following.get(competition.pk)) for competition in competitions]


def _next_seasons(seasons: list[Competition]) -> dict[int, int]:
    """Return the season after each of ``seasons`` that has one (one query; none without a league's season)."""
    if not seasons:
        return {}
    return dict(Competition.objects.filter(previous_season__in=seasons).values_list("previous_season_id", "pk"))


def detail(competition: Competition, user) -> dict:
    """Return one competition with whether the viewer may enter it now, and if not, why."""
    mine = Entrant.objects.filter(competition=competition, user_id=user.pk).values_list("status", flat=True).first() \
        if user.is_authenticated else None
    refusal = None
    if user.is_authenticated and mine != "active":
        refusal = selectors.entry_refusal(competition, user)
    shown = _shown(competition, mine, round_length(competition),
                   _next_seasons([competition] if competition.league else []).get(competition.pk))
    shown.update(may_enter=user.is_authenticated and mine != "active" and refusal is None, entry_refusal=refusal)
    return shown


def entrant(row: Entrant) -> dict:
    return {"username": row.user.get_username(), "status": row.status, "withdrawn_because": row.withdrawn_because,
            "seed": row.seed, "entered_at": row.entered_at}


def standings(competition: Competition) -> list[dict]:
    """Return each stage's standings that has begun, best first; a shared place for entrants tied on everything."""
    shown = []
    for stage in competition.stages.exclude(status=StageStatus.WAITING):
        rows = []
        place = 1
        for group in _ranked(stage):
            for row in group:
                move = (row.entrant.league_move or "new") if competition.league else ""
                rows.append({
                    "place": row.place if stage.status == StageStatus.FINISHED and row.place else place,
                    "username": row.entrant.user.get_username(), "status": row.entrant.status, "pool": row.pool,
                    "points": row.points, "games": row.games, "byes": row.byes, "move": move,
                    "tiebreaks": _tiebreaks(row, competition.tiebreaks),
                })
            place += len(group)
        if stage.status == StageStatus.FINISHED:
            rows.sort(key=lambda row: (row["place"], row["pool"]))
        shown.append({"stage": stage.number, "format": stage.format, "final": stage.status == StageStatus.FINISHED,
                      "rows": rows})
    return shown


def _ranked(stage: Stage) -> list[list[Standing]]:
    """A stage's rows best first, tied ones grouped; a ladder's in its order (those who left it last)."""
    if stage.format != Format.LADDER:
        return selectors.standings_ranked(stage)
    rows = (Standing.objects.filter(stage=stage).select_related("entrant__user")
            .order_by(F("place").asc(nulls_last=True), "entrant__seed", "pk"))
    return [[row] for row in rows]


def divisions(rows: list[dict]) -> list[dict]:
    """Split a league season's standings into its divisions, division 1 first, each numbered from its own first
    place (entrants tied on everything share one)."""
    by_pool: dict[int, list[dict]] = defaultdict(list)
    for row in rows:
        by_pool[row["pool"]].append(row)
    shown = []
    for pool in sorted(by_pool):
        members, numbered = by_pool[pool], []
        for index, row in enumerate(members):
            tied = index and row["place"] == members[index - 1]["place"]
            numbered.append({**row, "place": numbered[-1]["place"] if tied else index + 1})
        shown.append({"number": pool + 1, "rows": numbered})
    return shown


def _tiebreaks(row, order) -> dict[str, float]:
    figures = {}
    for name in order:
        if name in TIEBREAK_COLUMNS:
            figures[name] = getattr(row, TIEBREAK_COLUMNS[name])
        elif name == "score_ratio":
            figures[name] = round(row.score_ratio_sum / row.score_ratio_games, 4) if row.score_ratio_games else 0.0
    return figures


def rounds(competition: Competition) -> list[dict]:
    """Return every round with its tables and byes (four queries, whatever the size)."""
    played = list(Round.objects.filter(stage__competition=competition).select_related("stage__competition")
                  .order_by("stage__number", "number"))
    tables = defaultdict(list)
    for table in EventTable.objects.filter(round__in=played).order_by("number"):
        tables[table.round_id].append(table)
    names = dict(Entrant.objects.filter(competition=competition).values_list("pk", "user__username"))
    placements = defaultdict(list)
    for placement in Placement.objects.filter(table__round__in=played).order_by("place", "seat"):
        placements[placement.table_id].append(placement)
    byes = defaultdict(list)
    for bye in Bye.objects.filter(round__in=played):
        byes[bye.round_id].append(names.get(bye.entrant_id, ""))
    shown = []
    for row in played:
        held = row.stage.duplicate and row.status != RoundStatus.CLOSED
        row_tables = [table_shown(table, names, placements[table.pk], held=held) for table in tables[row.pk]]
        shown.append({
            "stage": row.stage.number, "number": row.number, "status": row.status, "deadline": row.deadline,
            "opened_at": row.opened_at, "closed_at": row.closed_at, "tables": row_tables,
            "byes": sorted(byes[row.pk]), "duplicate": row.stage.duplicate,
            "commitment": selectors.round_commitment(row), "seed": selectors.round_seed_revealed(row),
            "comparison": selectors.seats_compared(row_tables) if row.stage.duplicate and not held else None,
        })
    return shown


def table_shown(table: EventTable, names: dict[int, str], placements: list[Placement], *, held: bool = False) -> dict:
    """One table of a round: who sits where, its game, its state and, once over, the places it gave. A duplicate
    round's table reads as in play until the round closes (``held``): which table is over, and how, would tell the
    others something of the cards they are all dealt."""
    return {"number": table.number, "pool": table.pool, "match": table.match, "game": table.game_id,
            "players": [names.get(entrant, "") for entrant in table.players],
            "status": TableStatus.PLAYING if held and table.game_id else table.status,
            "settled": "" if held else table.settled,
            "challenger": names.get(table.challenger_id) if table.challenger_id else None,
            "placements": [{"username": names.get(placement.entrant_id, ""), "seat": placement.seat,
                            "place": placement.place, "points": placement.points, "score": placement.score}
                           for placement in placements]}
