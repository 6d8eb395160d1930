"""Caps per account: tables waiting for players, and tables of bots only in play at once."""

from __future__ import annotations

import threading

import pytest
from django.db import connection
from django.test import Client

from turnbased.kit.errors import Conflict
from turnbased.play import services
from turnbased.play.models import Game, GameStatus

pytestmark = pytest.mark.django_db

BOTS_ONLY = {"creator_plays": False, "bots": {0: "random", 1: "random"}}


def open_table(user, **create):
    return services.create_game(creator=user, engine_slug="love-letter", players=3, **create)


def bot_table(user):
    return services.create_game(creator=user, engine_slug="love-letter", players=2, **BOTS_ONLY)


def test_open_tables_are_capped_per_account(alice, bob, settings):
    settings.MAX_OPEN_TABLES_PER_ACCOUNT = 2
    open_table(alice)
    open_table(alice, creator_plays=False, bots={1: "random"})
    with pytest.raises(Conflict) as refused:
        open_table(alice, visibility="private")
    assert refused.value.detail == (
        "You have 2 tables waiting for players; one account may have at most 2. "
        "Abort one of them, or wait until one starts, before creating another."
    )
    assert refused.value.status == 409
    assert Game.objects.filter(created_by=alice).count() == 2
    open_table(bob)  # a cap per account
    started = open_table(alice, bots={1: "random", 2: "basic"})
    assert started.status == GameStatus.ACTIVE, "a table full at creation waits for nobody"


def test_aborting_or_starting_a_table_makes_room_for_another(alice, bob, settings):
    settings.MAX_OPEN_TABLES_PER_ACCOUNT = 2
    first, second = open_table(alice), services.create_game(creator=alice, engine_slug="love-letter", players=2)
    with pytest.raises(Conflict):
        open_table(alice)
    services.abort_game(game_id=first.pk, user=alice)
    open_table(alice)
    services.join_game(game_id=second.pk, user=bob)
    open_table(alice)
    assert Game.objects.filter(created_by=alice, status=GameStatus.OPEN).count() == 2


def test_the_open_table_cap_answers_409_in_the_api_and_on_the_page(alice, api_client_for, settings):
    settings.MAX_OPEN_TABLES_PER_ACCOUNT = 1
    api = api_client_for(alice)
    assert api.post("/api/games/", {"game": "love-letter", "players": 2}, format="json").status_code == 201
    refused = api.post("/api/games/", {"game": "love-letter", "players": 2}, format="json")
    assert refused.status_code == 409
    assert refused.json()["detail"].startswith("You have 1 table waiting for players; one account may have at most 1.")
    page = Client()
    page.force_login(alice)
    form = page.post("/games/new/", {"game": "love-letter", "players": "2", "edition": "classic",
                                     "classic_final_tie": "all_win", "visibility": "public"})
    assert "You have 1 table waiting for players" in form.content.decode()
    assert Game.objects.count() == 1


def test_bot_only_tables_in_play_are_capped_per_account(alice, bob, settings):
    settings.MAX_BOT_TABLES_PER_ACCOUNT = 2
    bot_table(alice)
    bot_table(alice)
    with pytest.raises(Conflict) as refused:
        bot_table(alice)
    assert refused.value.detail == (
        "You have 2 tables of bots only in play; one account may run at most 2 at once. "
        "Wait until one of them finishes before starting another."
    )
    assert Game.objects.filter(created_by=alice).count() == 2
    bot_table(bob)
    services.create_game(creator=alice, engine_slug="love-letter", players=2, bots={1: "random"})


def test_a_finished_bot_table_makes_room_for_another(alice, settings, django_capture_on_commit_callbacks):
    settings.MAX_BOT_TABLES_PER_ACCOUNT = 1
    with django_capture_on_commit_callbacks(execute=True):  # the bots play it to the end
        finished = bot_table(alice)
    assert Game.objects.get(pk=finished.pk).status == GameStatus.FINISHED
    bot_table(alice)
    with pytest.raises(Conflict):
        bot_table(alice)


def test_a_table_whose_people_all_left_for_bots_counts_as_bots_only(alice, bob, settings):
    settings.MAX_BOT_TABLES_PER_ACCOUNT = 1
    game = services.create_game(creator=alice, engine_slug="love-letter", players=2, bots={1: "random"})
    bot_table(bob)  # bob's bot table is not alice's
    game.seats.filter(user=alice).update(bot="random")  # a bot took over her seat
    with pytest.raises(Conflict, match="1 table of bots only in play"):
        bot_table(alice)


def test_the_api_refuses_a_bot_table_over_the_cap_with_409(alice, api_client_for, settings):
    settings.MAX_BOT_TABLES_PER_ACCOUNT = 1
    body = {"game": "love-letter", "players": 2, "play": False, "bots": {"0": "random", "1": "basic"}}
    api = api_client_for(alice)
    assert api.post("/api/games/", body, format="json").status_code == 201
    refused = api.post("/api/games/", body, format="json")
    assert refused.status_code == 409 and "Wait until one of them finishes" in refused.json()["detail"]


@pytest.mark.django_db(transaction=True)
def test_two_creations_at_once_cannot_both_pass_the_cap(make_user, settings):
    settings.MAX_OPEN_TABLES_PER_ACCOUNT = 1
    dora = make_user("dora")
    start = threading.Barrier(2)
    outcomes = []

    def create():
        start.wait()
        try:
            open_table(dora)
            outcomes.append("created")
        except Conflict:
            outcomes.append("refused")
        finally:
            connection.close()

    threads = [threading.Thread(target=create) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert sorted(outcomes) == ["created", "refused"]
    assert Game.objects.filter(created_by=dora).count() == 1
