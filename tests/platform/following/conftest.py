"""A public two-player game in play between alice and bob, for carol (who plays no seat) to follow."""

from __future__ import annotations

import pytest

from games import get_engine
from turnbased.play import services
from turnbased.play.models import Game, GameStatus


def two_player(alice, bob, *, slug="love-letter", seed="following", **create) -> Game:
    game = services.create_game(creator=alice, engine_slug=slug, players=2, seed=seed, **create)
    invite = game.invite_code if game.visibility == "private" else None
    services.join_game(game_id=game.pk, user=bob, invite_code=invite)
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE
    return game


def play_one(game: Game, alice, bob) -> Game:
    """Play the first legal move of whoever is to move."""
    game.refresh_from_db()
    seat = game.to_move[0]
    user = next(s.user for s in game.seats.all() if s.index == seat)
    move = get_engine(game.engine).legal_moves(game.state, seat)[0]
    services.submit_move(game_id=game.pk, user=user, expected_seq=game.seq, move=move)
    game.refresh_from_db()
    return game


@pytest.fixture
def game(alice, bob):
    return two_player(alice, bob)
