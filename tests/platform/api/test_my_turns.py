"""GET /api/me/turns/: the games waiting for my move, longest waiting first, at a fixed cost."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from tests.platform.conftest import SCRIPTED_CLASSIC_2P
from tests.platform.play.costs import measured, token_client
from turnbased.play import services

pytestmark = pytest.mark.django_db


def _game(first, second, **create):
    game = services.create_game(creator=first, engine_slug="love-letter", players=2,
                                options={"deck": SCRIPTED_CLASSIC_2P, "first_player": 0}, **create)
    services.join_game(game_id=game.pk, user=second)
    game.refresh_from_db()
    return game


def test_only_the_games_where_i_am_to_move_longest_waiting_first(alice, bob, carol):
    moment = timezone.now()
    with time_machine.travel(moment - timedelta(hours=3), tick=False):
        waiting_longest = _game(bob, alice)  # bob in seat 0 moves first
        services.submit_move(game_id=waiting_longest.pk, user=bob, expected_seq=0, move={"card": "handmaid"})
    with time_machine.travel(moment - timedelta(hours=1), tick=False):
        waiting_less = _game(alice, carol)  # alice to move since it started
        bobs_turn = _game(bob, alice)  # bob to move: not alice's turn
        with_clock = _game(carol, alice, time_control={"kind": "per_move", "days_per_move": 2})
        services.submit_move(game_id=with_clock.pk, user=carol, expected_seq=0, move={"card": "handmaid"})
    answer = token_client(alice).get("/api/me/turns/")
    assert answer.status_code == 200
    turns = answer.json()["results"]
    assert [turn["game"] for turn in turns] == [waiting_longest.pk, waiting_less.pk, with_clock.pk]
    assert bobs_turn.pk not in [turn["game"] for turn in turns]
    first = turns[0]
    assert first["seq"] == 1 and first["seat"] == 1 and first["engine"] == "love-letter"
    assert first["name"] == f"Love Letter #{waiting_longest.pk}" and first["url"] == f"/games/{waiting_longest.pk}/"
    assert first["last_move"] and "handmaid" in first["last_move"].lower() and first["deadline"] is None
    assert turns[1]["last_move"] is None  # no move yet
    assert turns[2]["deadline"] is not None
    assert token_client(bob).get("/api/me/turns/").json()["results"][0]["game"] == bobs_turn.pk


def test_the_answer_costs_the_same_statements_for_two_games_and_for_twelve(make_user):
    me, others = make_user("busy"), [make_user(f"opponent{n}") for n in range(12)]
    costs = []
    for count in (2, 12):
        for _ in range(count):  # one game a turn, until there are ``count``
            if len(services_games(me)) >= count:
                break
            _game(me, others[len(services_games(me))])
        cost, response = measured(lambda: token_client(me).get("/api/me/turns/"))
        assert len(response.json()["results"]) == count
        costs.append(cost.statements)
    assert costs[0] == costs[1], costs


def services_games(user):
    from turnbased.play.models import Game

    return list(Game.objects.filter(seats__user=user))


def test_it_needs_a_login(client):
    assert client.get("/api/me/turns/").status_code in (401, 403)
