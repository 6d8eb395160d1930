"""GET /api/games/{id}/text/: the position drawn as text from the viewer's own view, and their moves in words."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games import get_engine
from tests.platform.play.costs import measured, token_client
from turnbased.play import services

pytestmark = pytest.mark.django_db


def text_of(client, game) -> dict:
    response = client.get(f"/api/games/{game.pk}/text/")
    assert response.status_code == 200, response.content
    return response.json()


def test_each_player_reads_the_drawing_of_their_own_view_and_only_the_mover_gets_moves(started_game, alice, bob):
    engine = get_engine("love-letter")
    mine, theirs = text_of(token_client(alice), started_game), text_of(token_client(bob), started_game)
    assert mine["position"] == engine.view_text(engine.view(started_game.state, 0))
    assert theirs["position"] == engine.view_text(engine.view(started_game.state, 1))
    assert "Your hand: Guard (1), Handmaid (4)" in mine["position"]
    assert "Your hand: Priest (2)" in theirs["position"] and "Guard (1), Handmaid" not in theirs["position"]
    assert mine["seq"] == theirs["seq"] == 0
    assert "handmaid" in mine["moves"] and "guard bob priest" in mine["moves"]
    assert mine["move_count"] == len(token_client(alice).get(f"/api/games/{started_game.pk}/legal-moves/")
                                     .json()["moves"])
    assert (theirs["moves"], theirs["move_count"]) == ([], 0)


def test_a_spectator_reads_the_public_view_and_a_table_not_started_has_no_position(started_game, alice, carol):
    engine = get_engine("love-letter")
    watched = text_of(APIClient(), started_game)
    assert watched["position"] == engine.view_text(engine.view(started_game.state, None))
    assert "Your hand" not in watched["position"] and watched["moves"] == []
    table = services.create_game(creator=alice, engine_slug="halali", players=2)
    assert text_of(token_client(carol), table) == {"seq": 0, "position": "", "moves": [], "move_count": 0}


def test_a_move_listed_in_the_text_plays_and_the_text_follows(started_game, alice, bob):
    client = token_client(alice)
    listed = text_of(client, started_game)
    played = client.post(f"/api/games/{started_game.pk}/moves/", {"text": "handmaid", "expected_seq": listed["seq"]},
                         format="json")
    assert played.status_code == 201, played.content
    after = text_of(client, started_game)
    assert after["seq"] == 1 and after["moves"] == [] and "Handmaid" in after["position"]
    assert text_of(token_client(bob), started_game)["move_count"] > 0


def test_many_moves_are_summed_up_in_lines_with_the_exact_count(alice, bob):
    game = services.create_game(creator=alice, engine_slug="savernake-forest", players=2, seed="text-summary")
    services.join_game(game_id=game.pk, user=bob)
    game.refresh_from_db()
    mover = alice if game.to_move == [0] else bob
    answer = text_of(token_client(mover), game)
    legal = token_client(mover).get(f"/api/games/{game.pk}/legal-moves/").json()["moves"]
    assert answer["move_count"] == len(legal) > 40
    assert answer["moves"] == get_engine("savernake-forest").moves_summary([entry["text"] for entry in legal])
    assert len(answer["moves"]) < len(legal)


def test_the_text_costs_no_more_statements_than_the_legal_moves(started_game, alice):
    client = token_client(alice)
    client.get("/api/me/")  # the token's first use writes its last_used_at: let neither measured read pay it
    text_cost, _ = measured(lambda: client.get(f"/api/games/{started_game.pk}/text/"))
    moves_cost, _ = measured(lambda: client.get(f"/api/games/{started_game.pk}/legal-moves/"))
    assert text_cost.statements <= moves_cost.statements, (text_cost.sql, moves_cost.sql)
