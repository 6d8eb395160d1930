"""Finished games for the after-the-game tests, played through the services on the real PostgreSQL."""

from __future__ import annotations

from turnbased.play import selectors, services
from turnbased.play.models import Game, GameStatus

MOVE_CAP = 2000


def play_out(game: Game, users: dict) -> Game:
    """Play the game to its end: each person (``users`` by seat) the first legal move, each bot its own turn."""
    for _ in range(MOVE_CAP):
        game.refresh_from_db()
        if game.status != GameStatus.ACTIVE:
            return game
        seat = game.to_move[0]
        if game.seats.get(index=seat).bot:
            assert services.play_bot_turn(game_id=game.pk, seq=game.seq)
            continue
        move = selectors.legal_moves_for(selectors.Viewer(game=game, seat=seat))[0]["move"]
        services.submit_move(game_id=game.pk, user=users[seat], expected_seq=game.seq, move=move)
    raise AssertionError("the game did not end")


def finished(users: list, *, slug: str = "love-letter", resign: bool = True, **create) -> Game:
    """Start a table with ``users`` in seat order; all but the first resign (or, without ``resign``, it is played out)."""
    game = services.create_game(creator=users[0], engine_slug=slug, players=len(users), **create)
    for user in users[1:]:
        services.join_game(game_id=game.pk, user=user, invite_code=game.invite_code)
    game.refresh_from_db()
    if resign:
        for user in reversed(users[1:]):  # the last to resign ends it
            services.resign_game(game_id=game.pk, user=user)
        game.refresh_from_db()
        return game
    return play_out(game, dict(enumerate(users)))
