"""Held tables (``create_game(held=True)``, ``services.game_release``): a feature keeps a table to its seats alone,
and its secrets (the seed, every hand, its rating) past its end, until it lets the table go. The core names no
feature: a duplicate round of a competition holds its tables this way."""

from __future__ import annotations

import pytest
from django.test import Client

from turnbased.chat.selectors import chat_state
from turnbased.kit.errors import GameNotFound
from turnbased.play import facts, positions, records, selectors, services
from turnbased.play.models import Game, GameStatus
from turnbased.ratings.selectors import visible_games

pytestmark = pytest.mark.django_db

CLOCK = {"kind": "per_move", "days_per_move": 3}


def _held(alice, bob, carol) -> Game:
    """A public Love Letter table carol made for alice and bob (she only watches), held."""
    return services.create_game(creator=carol, engine_slug="love-letter", players=2, creator_plays=False,
                                time_control=CLOCK, people={0: alice, 1: bob}, held=True)


def _sees(game: Game, user) -> bool:
    try:
        selectors.viewer_of(game.pk, user)
    except GameNotFound:
        return False
    return True


def test_a_held_table_is_its_seats_alone_even_to_its_creator(alice, bob, carol, make_user):
    game = _held(alice, bob, carol)
    stranger = make_user("dora")
    assert _sees(game, alice) and _sees(game, bob)
    assert not _sees(game, carol) and not _sees(game, stranger)
    assert Client().get(f"/games/{game.pk}/").status_code == 404
    with pytest.raises(GameNotFound):
        chat_state(game.pk, stranger)
    with pytest.raises(GameNotFound):
        selectors.game_version(game.pk, carol)
    for viewer in (stranger, carol):  # a player's lists of games leave it out too
        assert not Game.objects.filter(visible_games(viewer), pk=game.pk).exists()
    assert Game.objects.filter(visible_games(alice), pk=game.pk).exists()


def test_a_finished_held_table_keeps_its_secrets_until_it_is_let_go(alice, bob, carol, monkeypatch):
    told: list = []
    monkeypatch.setitem(facts._handlers, facts.GameReleased, [*facts._handlers[facts.GameReleased], told.append])
    game = _held(alice, bob, carol)
    services.resign_game(game_id=game.pk, user=bob)
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED and game.held
    assert records.revealed_seed(game) is None and not records.is_over(game) and not positions.is_over(game)
    assert positions.reader_of(selectors.viewer_of(game.pk, alice)) == 0  # her own eyes, not everyone's
    version, _ = selectors.game_version(game.pk, alice)
    assert version.held

    assert services.game_release(game_ids=[game.pk]) == 1
    game.refresh_from_db()
    assert not game.held and records.revealed_seed(game) == game.seed
    assert positions.reader_of(selectors.viewer_of(game.pk, alice)) == "all"
    assert _sees(game, carol) and Client().get(f"/games/{game.pk}/").status_code == 200
    assert [fact.game.pk for fact in told] == [game.pk]
    assert services.game_release(game_ids=[game.pk]) == 0 and len(told) == 1  # let go once, told once


def test_a_table_let_go_in_play_goes_on_and_nothing_is_told(alice, bob, carol, monkeypatch):
    told: list = []
    monkeypatch.setitem(facts._handlers, facts.GameReleased, [*facts._handlers[facts.GameReleased], told.append])
    game = _held(alice, bob, carol)
    assert services.game_release(game_ids=[game.pk]) == 1
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE and not game.held and told == []


def test_the_page_poll_of_a_held_table_answers_nothing_new_while_it_stays_held(alice, bob, carol):
    game = _held(alice, bob, carol)
    client = Client()
    client.force_login(alice)
    asked = f"/games/{game.pk}/panel/?seq={game.seq}&status={game.status}&seated=2"
    assert client.get(asked + "&held=1").status_code == 204
    assert client.get(asked).status_code == 200  # the page drew it let go: redraw
