"""A finished table's outcome counted: the stage's standings moved on by it (``standings``) and its placements
written (each entrant's place, points and score), as its game ends (``results``) or, in a duplicate round, when the
round closes (``duplicates``)."""

from __future__ import annotations

from games.base import ALL_LOSE
from turnbased.competitions import scoring, standings
from turnbased.competitions.models import EventTable, Placement, Round
from turnbased.play.models import Game
from turnbased.ratings.selectors import final_places


def _numbers(values, count: int) -> tuple[float, ...] | None:
    if not isinstance(values, list) or len(values) != count:
        return None
    if any(not isinstance(value, (int, float)) or isinstance(value, bool) for value in values):
        return None
    return tuple(float(value) for value in values)


def outcome_recorded(played: Round, table: EventTable, game: Game) -> list[int]:
    """Move the stage's standings on by the table's finished game and write its placements; return the places in
    seat order (under the round's lock)."""
    count = len(table.players)
    places = final_places(game)
    points = scoring.place_points(places, scoring.points_table(count, played.stage.competition.points))
    # A game every player lost was stopped with its count unfinished: it gives no score ratio.
    decided = (game.result or {}).get("decided")
    scores = None if decided == ALL_LOSE else _numbers((game.result or {}).get("scores"), count)
    outcome = scoring.GameOutcome(players=tuple(table.players), places=tuple(places), points=tuple(points),
                                  scores=scores)
    standings.game_recorded(played.stage_id, outcome)
    Placement.objects.bulk_create(
        Placement(table=table, entrant_id=entrant, seat=seat, place=places[seat], points=points[seat],
                  score=None if outcome.scores is None else outcome.scores[seat])
        for seat, entrant in enumerate(table.players))
    return places
