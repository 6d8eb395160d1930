"""The limits on games waiting on a person (issue 44, fair entry): no new table while more than three games wait on
them, no seat taken while more than four do (their turns with another person, invitations to answer, their tables
not yet started), a new account's cap on games not yet finished that grows by one per finished game, bot accounts
exempt; where the person stands shown on the lobby, the new-table page and the API, and a refusal in the same
words on every door."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from turnbased.entry import waiting
from turnbased.kit.errors import Conflict
from turnbased.play import services
from turnbased.play.models import Game, Seat

pytestmark = pytest.mark.django_db


@pytest.fixture
def limits(settings):
    """The site's defaults (the test runner turns them off for every other test)."""
    settings.GAMES_WAITING_TO_CREATE, settings.GAMES_WAITING_TO_JOIN = 3, 4
    settings.NEW_ACCOUNT_OPEN_GAMES = None
    return settings


@pytest.fixture
def host(make_bot_account):
    """A bot account that makes the tables the others join: no limit of its own stands in the way."""
    return make_bot_account("host")


def _open_table(creator, *, players=3, **more) -> Game:
    return services.create_game(creator=creator, engine_slug="love-letter", players=players, **more)


def _my_turn(me, other) -> Game:
    """A game in play where it is ``me``'s turn, against another person (the seed has the first seat begin)."""
    game = _open_table(me, players=2, seed="c")
    services.join_game(game_id=game.pk, user=other)
    game.refresh_from_db()
    assert game.to_move == [game.seats.get(user=me).index]
    return game


def test_what_waits_is_counted_in_one_statement(limits, alice, bob, carol):
    _my_turn(alice, bob)
    _open_table(alice)
    services.join_game(game_id=_open_table(carol).pk, user=alice)
    services.invitation_create(game_id=_open_table(bob).pk, user=bob, username="alice")
    declined = _open_table(carol)
    services.invitation_create(game_id=declined.pk, user=carol, username="alice")
    services.invitation_decline(game_id=declined.pk, user=alice)
    # A game against bots only keeps nobody waiting, and a table made for others to play is the maker's to start.
    services.create_game(creator=alice, engine_slug="love-letter", players=2, bots={1: "random"})
    with CaptureQueriesContext(connection) as statements:
        mine = waiting.standing(alice)
    assert len(statements) == 1
    assert (mine.turns, mine.invitations, mine.tables, mine.waiting) == (1, 1, 2, 4)
    assert (mine.may_join, mine.may_create) == (1, False)


def test_a_table_is_refused_while_more_than_three_games_wait(limits, alice):
    for _ in range(4):
        _open_table(alice)  # the fourth is made with three waiting
    with pytest.raises(Conflict) as refusal:
        _open_table(alice)
    assert refusal.value.detail.startswith("4 games wait on you")
    assert "while more than 3 do, you cannot create a table" in refusal.value.detail
    assert Game.objects.filter(created_by=alice).count() == 4
    # A table that waits for no one (bots in every other seat) is no burden on anyone: it is made.
    services.create_game(creator=alice, engine_slug="love-letter", players=2, bots={1: "random"})


def test_a_seat_is_refused_while_more_than_four_wait_and_an_invitation_taken_up_is_not_counted_twice(
        limits, alice, bob, carol):
    for _ in range(4):
        _open_table(alice)
    services.join_game(game_id=_open_table(bob).pk, user=alice)  # four waiting: a fifth seat is taken
    invited = _open_table(carol)
    services.invitation_create(game_id=invited.pk, user=carol, username="alice")
    with pytest.raises(Conflict) as refusal:
        services.join_game(game_id=_open_table(bob).pk, user=alice)
    assert refusal.value.detail.startswith("6 games wait on you")
    assert "while more than 4 do, you cannot join another" in refusal.value.detail
    # The invitation's own table: taking it up answers the invitation, so it is counted once, and refused too.
    with pytest.raises(Conflict):
        services.join_game(game_id=invited.pk, user=alice)
    assert not Seat.objects.filter(game=invited, user=alice).exists()
    services.abort_game(game_id=Game.objects.filter(created_by=alice).first().pk, user=alice)
    services.join_game(game_id=invited.pk, user=alice)  # five waiting besides it: four, and the invitation's table


def test_a_turn_counts_only_with_another_person_at_the_table(limits, alice, bob):
    against_bots = services.create_game(creator=alice, engine_slug="love-letter", players=2, bots={1: "random"})
    against_bots.refresh_from_db()
    assert waiting.standing(alice).turns == 0
    _my_turn(alice, bob)
    assert waiting.standing(alice).turns == 1
    assert waiting.standing(bob).turns == 0


def test_a_new_account_plays_three_games_at_once_and_one_more_per_finished_game(settings, host, alice, bob):
    settings.GAMES_WAITING_TO_CREATE = settings.GAMES_WAITING_TO_JOIN = None
    settings.NEW_ACCOUNT_OPEN_GAMES = 3
    games = [_open_table(host) for _ in range(5)]
    for game in games[:3]:
        services.join_game(game_id=game.pk, user=bob)
    with pytest.raises(Conflict) as refusal:
        services.join_game(game_id=games[3].pk, user=bob)
    assert refusal.value.detail == ("A new account may play 3 games at once, and one more for every game it "
                                    "finishes; you play 3. Finish one before you take on another.")
    with pytest.raises(Conflict):
        _open_table(bob)
    finished = _open_table(alice, players=2)
    settings.NEW_ACCOUNT_OPEN_GAMES = 4  # for the game to be played to its end
    services.join_game(game_id=finished.pk, user=bob)
    services.resign_game(game_id=finished.pk, user=alice)
    settings.NEW_ACCOUNT_OPEN_GAMES = 3
    mine = waiting.standing(bob)
    assert (mine.finished, mine.open_games, mine.open_games_cap, mine.may_join) == (1, 3, 4, 1)
    services.join_game(game_id=games[3].pk, user=bob)
    with pytest.raises(Conflict):
        services.join_game(game_id=games[4].pk, user=bob)


def test_bot_accounts_have_no_limit(limits, make_bot_account, host):
    program = make_bot_account("program")
    limits.NEW_ACCOUNT_OPEN_GAMES = 1
    for _ in range(6):
        services.join_game(game_id=_open_table(host).pk, user=program)
        _open_table(program)
    mine = waiting.standing(program)
    assert mine.exempt and mine.may_join is None and mine.may_create and mine.worded() == ""


def test_where_i_stand_on_the_lobby_the_new_table_page_a_table_i_may_join_and_the_api(limits, client, host, alice,
                                                                                       bob):
    _my_turn(alice, bob)
    _open_table(alice)
    invited = _open_table(host)
    client.force_login(alice)
    said = "2 games wait on you (your turns, invitations to answer and your tables not yet started). " \
           "You can join 3 more games."
    assert said in client.get("/").content.decode()
    assert said in client.get("/games/new/").content.decode()
    # A table's page, for whoever may take a seat there: its own invitation is not counted (a join answers it).
    services.invitation_create(game_id=invited.pk, user=host, username="alice")
    assert said in client.get(f"/games/{invited.pk}/").content.decode()
    services.invitation_decline(game_id=invited.pk, user=alice)
    api = APIClient()
    api.force_authenticate(alice)
    body = api.get("/api/me/waiting/").json()
    assert body["waiting"] == {"turns": 1, "invitations": 0, "tables": 1, "total": 2}
    assert body["limits"] == {"to_create": 3, "to_join": 4, "open_games": None}
    assert (body["may_join"], body["may_create"], body["refusal"], body["worded"]) == (3, True, None, said)
    api.force_authenticate(bob)
    assert api.get("/api/me/waiting/").json()["waiting"]["total"] == 0  # not his turn, and no table of his waits


def test_a_refused_join_and_create_say_why_on_the_page_and_in_the_api(limits, client, host, alice):
    for _ in range(5):
        services.join_game(game_id=_open_table(host).pk, user=alice)
    table = _open_table(host)
    client.force_login(alice)
    page = client.post(f"/games/{table.pk}/join/", follow=True).content.decode()
    assert "5 games wait on you" in page and "you cannot join another" in page
    lobby = client.get("/").content.decode()
    assert 'class="refusal" id="games-waiting"' in lobby
    api = APIClient()
    api.force_authenticate(alice)
    refused = api.post(f"/api/games/{table.pk}/join/")
    assert refused.status_code == 409 and "you cannot join another" in refused.json()["detail"]
    assert api.get("/api/me/waiting/").json()["refusal"] == refused.json()["detail"]
    created = api.post("/api/games/", {"game": "love-letter", "players": 3}, format="json")
    assert created.status_code == 409 and "you cannot create a table" in created.json()["detail"]
    new_table = client.post("/games/new/", {"game": "love-letter", "players": "3", "seat_0": "me"}).content.decode()
    assert "you cannot create a table" in new_table
    assert not table.seats.filter(user=alice).exists()
    assert Game.objects.filter(created_by=alice).count() == 0


def test_with_the_limits_off_nothing_is_said_or_refused(settings, client, alice, bob):
    settings.GAMES_WAITING_TO_CREATE = settings.GAMES_WAITING_TO_JOIN = settings.NEW_ACCOUNT_OPEN_GAMES = None
    for _ in range(6):
        services.join_game(game_id=_open_table(bob).pk, user=alice)
        _open_table(alice)
    client.force_login(alice)
    assert 'id="games-waiting"' not in client.get("/").content.decode()
    api = APIClient()
    api.force_authenticate(alice)
    body = api.get("/api/me/waiting/").json()
    assert (body["may_join"], body["may_create"], body["worded"]) == (None, True, "")
    assert body["limits"] == {"to_create": None, "to_join": None, "open_games": None}


def test_a_join_and_a_create_cost_one_statement_more_with_the_limits_on(settings, host, alice, bob):
    """The limits are read in one statement, under the person's row lock, whatever waits on them."""
    def costs() -> tuple[int, int]:
        table = _open_table(host)
        with CaptureQueriesContext(connection) as joining:
            services.join_game(game_id=table.pk, user=alice)
        with CaptureQueriesContext(connection) as creating:
            _open_table(bob)
        return len(joining), len(creating)

    settings.GAMES_WAITING_TO_CREATE = settings.GAMES_WAITING_TO_JOIN = settings.NEW_ACCOUNT_OPEN_GAMES = None
    off = costs()
    settings.GAMES_WAITING_TO_CREATE, settings.GAMES_WAITING_TO_JOIN, settings.NEW_ACCOUNT_OPEN_GAMES = 3, 4, 3
    on = costs()
    assert (on[0] - off[0], on[1] - off[1]) == (1, 1), (off, on)
