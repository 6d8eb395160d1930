"""Finished games for the ratings tests, played through the services on the real PostgreSQL."""

from __future__ import annotations

import pytest

from turnbased.play import selectors, services
from turnbased.play.models import Game, GameStatus, Move
from turnbased.ratings.rules import RATED_MIN_OWN_MOVES


def play_moves(game: Game, users: list, count: int) -> Game:
    """Play ``count`` legal moves (each the first one listed for the seat to move) by the people seated."""
    for _ in range(count):
        game.refresh_from_db()
        assert game.status == GameStatus.ACTIVE
        seat = game.to_move[0]
        move = selectors.legal_moves_for(selectors.Viewer(game=game, seat=seat))[0]["move"]
        services.submit_move(game_id=game.pk, user=users[seat], expected_seq=game.seq, move=move)
    game.refresh_from_db()
    return game


def start(users: list, *, slug: str = "halali", **create) -> Game:
    """Start a table of ``slug`` with ``users`` in seat order (private tables joined by their invite)."""
    game = services.create_game(creator=users[0], engine_slug=slug, players=len(users), **create)
    for user in users[1:]:
        services.join_game(game_id=game.pk, user=user, invite_code=game.invite_code)
    game.refresh_from_db()
    return game


def ready_to_end(users: list, *, slug: str = "halali", **create) -> Game:
    """Start a table of ``users`` and play until each has made the moves of their own that a game ended by a
    resignation needs to be rated (in Love Letter a knocked-out player waits for the next round, so a count of
    moves is not enough)."""
    game = start(users, slug=slug, **create)
    seats = range(len(users))
    for _ in range(20 * RATED_MIN_OWN_MOVES):
        if min(Move.objects.filter(game=game, seat=seat).count() for seat in seats) >= RATED_MIN_OWN_MOVES:
            return game
        game = play_moves(game, users, 1)
    raise AssertionError(f"game {game.pk}: a player still lacks {RATED_MIN_OWN_MOVES} moves of their own")


@pytest.fixture
def finish_game():
    """Return a function: play ``moves`` moves of a new game, then ``loser`` resigns (a two-player game ends).

    By default, until each player has made the moves of their own a game ended by a resignation needs to be
    rated (``ready_to_end``)."""

    def finish(winner, loser, *, moves: int | None = None, slug: str = "halali", **create) -> Game:
        if moves is None:
            game = ready_to_end([winner, loser], slug=slug, **create)
        else:
            game = start([winner, loser], slug=slug, **create)
            play_moves(game, [winner, loser], moves)
        services.resign_game(game_id=game.pk, user=loser)
        game.refresh_from_db()
        assert game.status == GameStatus.FINISHED
        return game

    return finish
