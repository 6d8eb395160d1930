"""Positions replayed from the log (``positions``, ``GET /api/games/{id}/positions/{seq}/``).

While a game is in play each viewer gets, at every seq, exactly the view the game served them live
at that seq; once it is over everyone gets the engine's full reveal. Positions are cached: asking
again replays nothing.
"""

from __future__ import annotations

import random

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games import engines, get_engine
from tests.platform.play.costs import measured
from turnbased.play import positions, selectors, services
from turnbased.play.models import Game, GameStatus, Visibility

pytestmark = pytest.mark.django_db

SLUGS = list(engines())
MOVES = 8


def table(slug, alice, bob, **create) -> Game:
    game = services.create_game(creator=alice, engine_slug=slug, players=2, seed=f"positions-{slug}", **create)
    services.join_game(game_id=game.pk, user=bob, invite_code=game.invite_code)
    game.refresh_from_db()
    return game


def play(game, users, moves: int, rng: random.Random, on_each=None) -> Game:
    """Play up to ``moves`` random legal moves through the services, calling ``on_each(game)`` before each and after the last."""
    engine = get_engine(game.engine)
    by_seat = {seat.index: next(u for u in users if u.pk == seat.user_id) for seat in game.seats.all()}
    for _ in range(moves):
        game.refresh_from_db()
        if on_each:
            on_each(game)
        if game.status != GameStatus.ACTIVE:
            return game
        seat = game.to_move[0]
        move = rng.choice(engine.legal_moves(game.state, seat))
        services.submit_move(game_id=game.pk, user=by_seat[seat], expected_seq=game.seq, move=move)
    game.refresh_from_db()
    if on_each:
        on_each(game)
    return game


def clients(alice, bob, api_client_for) -> dict:
    return {"alice": api_client_for(alice), "bob": api_client_for(bob), "anonymous": Client()}


@pytest.mark.parametrize("slug", SLUGS)
def test_a_replayed_position_is_the_view_each_viewer_was_served_live_at_that_seq(slug, alice, bob, api_client_for):
    game = table(slug, alice, bob)
    readers = clients(alice, bob, api_client_for)
    live: dict[tuple[str, int], dict] = {}

    def capture(game):
        for name, client in readers.items():
            answer = client.get(f"/api/games/{game.pk}/").json()
            live[(name, answer["seq"])] = answer["view"]

    game = play(game, [alice, bob], MOVES, random.Random(2), on_each=capture)
    assert game.status == GameStatus.ACTIVE and game.seq == MOVES
    history = {name: client.get(f"/api/games/{game.pk}/history/").json()["results"] for name, client in readers.items()}
    cache.clear()  # replayed from the log, not remembered from the captures
    for (name, seq), view in live.items():
        answer = readers[name].get(f"/api/games/{game.pk}/positions/{seq}/")
        assert answer.status_code == 200, answer.content
        body = answer.json()
        assert body["view"] == view, f"{slug}: {name} at seq {seq}"
        assert body["entries"] == [entry for entry in history[name] if entry["seq"] == seq]
        assert body["seq"] == seq and body["last_seq"] == MOVES and body["full_reveal"] is False
        assert "revealed" not in body["view"]


def test_a_player_never_reads_the_other_hand_at_any_seq_and_a_spectator_reads_no_hand(
    alice, bob, carol, api_client_for, start_scripted_game
):
    game = start_scripted_game(alice, bob)
    game = play(game, [alice, bob], 6, random.Random(5))
    for seq in range(game.seq + 1):
        hands = {seat: positions.state_at(game, seq)[0]["hands"][seat] for seat in (0, 1)}
        for seat, user in ((0, alice), (1, bob)):
            view = api_client_for(user).get(f"/api/games/{game.pk}/positions/{seq}/").json()["view"]
            assert view["hand"] == hands[seat] and view["you"] == seat
            assert "revealed" not in view
        for reader in (api_client_for(carol), Client()):
            view = reader.get(f"/api/games/{game.pk}/positions/{seq}/").json()["view"]
            assert view["hand"] is None and view["private_log"] == [] and "revealed" not in view


@pytest.mark.parametrize("slug", SLUGS)
def test_once_over_every_viewer_reads_the_full_reveal_at_every_seq(slug, alice, bob, carol, api_client_for):
    game = play(table(slug, alice, bob), [alice, bob], 4, random.Random(3))
    for seq in range(game.seq + 1):  # read during play: cached for each viewer's eyes
        api_client_for(alice).get(f"/api/games/{game.pk}/positions/{seq}/")
    services.resign_game(game_id=game.pk, user=bob)
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    engine = get_engine(slug)
    for seq in range(game.seq + 1):
        expected = engine.view_after_end(positions.state_at(game, seq)[0])
        answers = [reader.get(f"/api/games/{game.pk}/positions/{seq}/").json()
                   for reader in (api_client_for(alice), api_client_for(bob), api_client_for(carol), Client())]
        assert all(answer == answers[0] for answer in answers), "everyone reads the same replay after the end"
        assert answers[0]["view"] == expected and answers[0]["full_reveal"] is True
        if seq > 0:
            assert answers[0]["entries"] and answers[0]["mover"] in (0, 1)
    assert "revealed" in answers[0]["view"]


def test_after_the_end_a_love_letter_replay_shows_every_private_line(alice, bob, api_client_for, start_scripted_game):
    game = start_scripted_game(alice, bob)
    services.submit_move(game_id=game.pk, user=alice, expected_seq=0, move={"card": "handmaid"})
    during = Client().get(f"/api/games/{game.pk}/positions/1/").json()
    assert all(not entry["private"] for entry in during["entries"])
    services.resign_game(game_id=game.pk, user=bob)
    after = Client().get(f"/api/games/{game.pk}/positions/1/").json()
    assert any(entry["private"] for entry in after["entries"])  # bob's draw, worded for everyone
    assert after["view"]["revealed"]["set_aside"] == "princess"
    assert after["view"]["revealed"]["hands"][1]["cards"] == ["priest", "guard"]


def test_positions_out_of_range_not_started_or_of_a_private_game_are_404(alice, bob, carol, api_client_for):
    game = table("love-letter", alice, bob)
    api = api_client_for(alice)
    assert api.get(f"/api/games/{game.pk}/positions/0/").status_code == 200
    for seq in (1, 2**31, 10**30):
        response = api.get(f"/api/games/{game.pk}/positions/{seq}/")
        assert response.status_code == 404 and response.json()["detail"]
    assert api.get(f"/api/games/{game.pk}/positions/-1/").status_code == 404
    assert api.get(f"/api/games/{game.pk + 999}/positions/0/").status_code == 404
    waiting = services.create_game(creator=alice, engine_slug="love-letter", players=2)
    assert api.get(f"/api/games/{waiting.pk}/positions/0/").status_code == 404
    private = table("love-letter", alice, bob, visibility=Visibility.PRIVATE)
    assert api.get(f"/api/games/{private.pk}/positions/0/").status_code == 200
    assert api_client_for(carol).get(f"/api/games/{private.pk}/positions/0/").status_code == 404
    assert Client().get(f"/api/games/{private.pk}/positions/0/").status_code == 404


def test_a_position_is_replayed_once_then_read_from_the_cache(alice, bob, start_scripted_game, monkeypatch):
    game = play(start_scripted_game(alice, bob), [alice, bob], 4, random.Random(1))
    replays = []
    original = positions.state_at
    monkeypatch.setattr(positions, "state_at", lambda game, seq: replays.append(seq) or original(game, seq))
    viewer = selectors.viewer_of(game.pk, alice)
    first = positions.position(viewer, 3)
    again = positions.position(selectors.viewer_of(game.pk, alice), 3)
    assert first == again and replays == [3]
    positions.position(selectors.viewer_of(game.pk, bob), 3)  # another seat's eyes: drawn for them
    assert replays == [3, 3]


def test_stepping_forward_replays_one_move_from_the_cached_state(alice, bob, start_scripted_game):
    game = play(start_scripted_game(alice, bob), [alice, bob], 5, random.Random(1))
    viewer = selectors.viewer_of(game.pk, alice)
    positions.position(viewer, 2)
    with CaptureQueriesContext(connection) as read:
        stepped = positions.position(viewer, 3)
    assert len(read.captured_queries) == 1 and "seq\" >= 3" in read.captured_queries[0]["sql"]
    cache.clear()
    assert positions.position(selectors.viewer_of(game.pk, alice), 3) == stepped  # from the seed, the same


def test_a_cached_position_costs_the_api_the_same_statements_whatever_its_seq(alice, bob, start_scripted_game,
                                                                                api_client_for):
    game = play(start_scripted_game(alice, bob), [alice, bob], 10, random.Random(8))
    api = api_client_for(alice)
    for seq in (1, game.seq):
        api.get(f"/api/games/{game.pk}/positions/{seq}/")  # drawn once, then cached; the token noted as used
    early, _ = measured(lambda: api.get(f"/api/games/{game.pk}/positions/1/"))
    late, answer = measured(lambda: api.get(f"/api/games/{game.pk}/positions/{game.seq}/"))
    assert answer.status_code == 200
    assert early.statements == late.statements <= 3, (early, late)
    assert late.size < 20_000, late
