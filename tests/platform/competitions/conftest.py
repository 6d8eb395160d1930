"""Fixtures for competitions: a competition made, entered and started through the services, and its rounds played
by resignations (the quickest way a real game ends), with the tasks the dispatcher would queue run by hand."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from turnbased.competitions.models import Competition, EventTable, Round, RoundStatus
from turnbased.competitions.services import entries, rounds
from turnbased.play import services as play_services
from turnbased.play.models import Game, GameStatus

CLOCK = {"kind": "per_move", "days_per_move": 3}


def settings_for(**changed) -> dict:
    """Settings of a competition as an organiser gives them: Love Letter two-player Swiss of three rounds."""
    chosen = {"name": "Autumn Cup", "game": "love-letter", "table_size": 2, "time_control": CLOCK,
              "starts_at": (timezone.now() + timedelta(days=3)).isoformat(),
              "stages": [{"format": "swiss", "rounds": 3}]}
    chosen.update(changed)
    return chosen


def started(organiser, people, **changed) -> Competition:
    """Make a competition, enter ``people`` and start it now (its start time moved to the past), its first round
    opened."""
    competition = entries.competition_create(user=organiser, settings=settings_for(**changed))
    for person in people:
        entries.competition_enter(user=person, competition_id=competition.pk)
    Competition.objects.filter(pk=competition.pk).update(starts_at=timezone.now() - timedelta(minutes=1))
    rounds.competition_start(competition_id=competition.pk)
    open_waiting_rounds()
    competition.refresh_from_db()
    return competition


def open_waiting_rounds() -> None:
    for round_id in Round.objects.filter(status=RoundStatus.OPENING).values_list("pk", flat=True):
        rounds.round_open(round_id=round_id)


def current_round(competition: Competition) -> Round | None:
    return (Round.objects.filter(stage__competition=competition, status=RoundStatus.OPEN)
            .order_by("-stage__number", "-number").first())


def play_round(competition: Competition, winner=None) -> Round:
    """Play every game of the open round to its end: all but one seat resign, in seat order from the last; the one
    kept is ``winner(table)`` (an entrant id), else the table's first seat. Then close it and open the next."""
    played = current_round(competition)
    assert played is not None, "no round is open"
    for table in EventTable.objects.filter(round=played, game__isnull=False).select_related("game"):
        keep = winner(table) if winner else table.players[0]
        finish(table.game, keep_seat=table.players.index(keep))
    rounds.round_close(round_id=played.pk)
    open_waiting_rounds()
    return played


def finish(game: Game, *, keep_seat: int) -> None:
    """End the game by resignations, every seat but ``keep_seat`` resigning from the last seat up."""
    for seat in sorted(game.seats.all(), key=lambda seat: -seat.index):
        game.refresh_from_db()
        if game.status != GameStatus.ACTIVE:
            return
        if seat.index != keep_seat and seat.user_id:
            play_services.resign_game(game_id=game.pk, user=seat.user)
