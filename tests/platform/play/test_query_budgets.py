"""What the requests players make most cost in SQL statements, with and without a clock.

Counted through the real HTTP paths: the API with token authentication (the
token and its user in one statement that also writes ``last_used_at``, at most
once a minute: every token here is new, so each measured request pays that
write), the pages with a session. The tests run in real transactions, as
requests do in production, so a savepoint anywhere would show; the work a
commit names goes to the dispatcher as a NOTIFY in the move's own statement, as
in production (``WORK_DISPATCH=notify``): the worker pays for that work, not the
request.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from datetime import date, datetime, timezone

import pytest
import time_machine
from django.test import Client

from tests.platform.conftest import SCRIPTED_CLASSIC_2P
from tests.platform.play.costs import measured, token_client
from turnbased.accounts.models import profile_of
from turnbased.clocks.services import absence_declare
from turnbased.mail import delivery
from turnbased.notifications.models import Notification, NotificationKind
from turnbased.play import services, tasks
from turnbased.play.models import ForcedMoveDue, Move

pytestmark = pytest.mark.django_db(transaction=True)

TIME_CONTROLS = {
    "no clock": {},
    "days per move": {"kind": "per_move", "days_per_move": 3},
    "time bank": {"kind": "bank", "bank_days": 7, "increment_days": 1, "weekends_off": True},
}
WEDNESDAY = datetime(2026, 11, 25, 9, 30, tzinfo=timezone.utc)

# Issue 26: the token with the write of its last use (one statement), BEGIN, the locking query, every write
# of the move (log, snapshot, notifications, clocks, events, a forced move's row) as one statement, COMMIT.
MOVE = 5
LEGAL_MOVES = 4
GAME = 6
UNCHANGED_POLL = 3


def within(cost, budget: int, what: str) -> None:
    print(f"{what}: {cost.statements} statements (budget {budget})")
    assert cost.statements <= budget, f"{what}: {cost}, over {budget}:\n" + "\n".join(cost.sql)


QUEUED_AS = {"turnbased.mail.tasks.deliver_game_notifications": "deliver", "turnbased.play.tasks.play_bot_turn": "bot",
             "turnbased.play.tasks.play_forced_move": "forced"}
NOTIFIED = re.compile(r"pg_notify\('turnbased_work', '([^']*)'\)")


@pytest.fixture(autouse=True)
def queued(settings) -> Callable:
    """Measure as production runs: a commit's work goes to the dispatcher as a NOTIFY in the move's own statement
    (``WORK_DISPATCH=notify``), which the worker pays for. Return what a measured request's statements named."""
    settings.WORK_DISPATCH = "notify"

    def named(cost) -> list[tuple[str, int]]:
        payloads = [json.loads(payload) for sql in cost.sql for payload in NOTIFIED.findall(sql)]
        return [(QUEUED_AS[work["task"]], work["args"][1]) for work in payloads]

    return named


@pytest.fixture
def frozen():
    """Stop time, so an answer and a read after it show the same clocks to the second."""
    with time_machine.travel(WEDNESDAY, tick=False) as traveller:
        yield traveller


@pytest.fixture(params=list(TIME_CONTROLS))
def game(request, frozen, alice, bob):
    """Alice (seat 0, to move, in Auckland) against bob (away next week) on the scripted deck, under each time control."""
    profile = profile_of(alice)
    profile.time_zone = "Pacific/Auckland"
    profile.save()
    absence_declare(user=bob, starts_on=date(2026, 12, 1), ends_on=date(2026, 12, 3))
    game = services.create_game(
        creator=alice, engine_slug="love-letter", players=2,
        options={"deck": SCRIPTED_CLASSIC_2P, "first_player": 0}, time_control=TIME_CONTROLS[request.param],
    )
    services.join_game(game_id=game.pk, user=bob)
    game.refresh_from_db()
    return game


def test_a_move_costs_at_most_five_statements_and_answers_what_a_read_would(game, alice, bob, queued, frozen):
    api = token_client(alice)
    frozen.shift(3600)
    cost, response = measured(lambda: api.post(
        f"/api/games/{game.pk}/moves/", {"move": {"card": "handmaid"}, "expected_seq": 0, "idempotency_key": "first"},
        format="json",
    ))
    assert response.status_code == 201, response.json()
    within(cost, MOVE, "POST move")
    # Everything a move does still happens: the log, the outbox row for bob, its delivery queued after the commit.
    assert Move.objects.get(game=game, seq=1).idempotency_key == "first"
    assert Notification.objects.filter(game=game, seq=1, user=bob, kind=NotificationKind.YOUR_TURN).exists()
    assert ("deliver", 1) in queued(cost)
    # The answer was built from the game in memory: exactly what reading it afresh gives.
    assert response.json()["game"] == token_client(alice).get(f"/api/games/{game.pk}/").json()


def test_a_move_against_a_bot_costs_at_most_five_statements_and_queues_the_bot(frozen, alice, queued):
    game = services.create_game(creator=alice, engine_slug="love-letter", players=2, bots={1: "basic"},
                                options={"deck": SCRIPTED_CLASSIC_2P, "first_player": 0},
                                time_control=TIME_CONTROLS["days per move"])
    api = token_client(alice)
    cost, response = measured(lambda: api.post(f"/api/games/{game.pk}/moves/",
                                               {"move": {"card": "handmaid"}, "expected_seq": 0}, format="json"))
    assert response.status_code == 201, response.json()
    within(cost, MOVE, "POST move before a bot's turn")
    assert ("bot", 1) in queued(cost)
    assert response.json()["game"] == token_client(alice).get(f"/api/games/{game.pk}/").json()


# Bob holds a King and draws the Countess after alice's Handmaid: his only legal move is the Countess.
COUNTESS_WITH_KING = ["princess", "guard", "guard", "priest", "guard", "king", "handmaid", "countess", "guard",
                      "guard", "priest", "baron", "baron", "handmaid", "prince", "prince"]


def test_a_move_that_leaves_a_forced_move_costs_the_same_and_queues_it(frozen, alice, robo, queued):
    """The opponent is a bot account (forced moves on): the request asks the engine, writes the forced move's row
    instead of a turn notification for bob, and queues the move after its commit."""
    game = services.create_game(creator=alice, engine_slug="love-letter", players=2,
                                options={"deck": COUNTESS_WITH_KING, "first_player": 0},
                                time_control=TIME_CONTROLS["days per move"])
    services.join_game(game_id=game.pk, user=robo)
    api = token_client(alice)
    cost, response = measured(lambda: api.post(f"/api/games/{game.pk}/moves/",
                                               {"move": {"card": "handmaid"}, "expected_seq": 0}, format="json"))
    assert response.status_code == 201, response.json()
    within(cost, MOVE, "POST move before a forced move")
    assert ("forced", 1) in queued(cost) and ForcedMoveDue.objects.filter(game=game, seq=1).exists()


def test_legal_moves_cost_at_most_four_statements(game, alice):
    api = token_client(alice)
    cost, response = measured(lambda: api.get(f"/api/games/{game.pk}/legal-moves/"))
    assert response.status_code == 200 and response.json()["moves"]
    within(cost, LEGAL_MOVES, "GET legal-moves")


def test_the_game_costs_at_most_six_statements(game, alice, bob):
    for user in (alice, bob):
        api = token_client(user)
        cost, response = measured(lambda: api.get(f"/api/games/{game.pk}/"))
        assert response.status_code == 200 and response.json()["view"]
        within(cost, GAME, f"GET game as {user.username}")


def test_an_unchanged_poll_answers_204_in_three_statements_and_writes_nothing(game, alice):
    web = Client()
    web.force_login(alice)
    page = web.get(f"/games/{game.pk}/").content.decode()
    poll = f"/games/{game.pk}/panel/?seq=0&status=active&seated=2"
    assert poll.replace("&", "&amp;") in page  # the address the page polls
    cost, response = measured(lambda: web.get(poll))
    assert response.status_code == 204
    within(cost, UNCHANGED_POLL, "unchanged panel poll")
    assert all(sql.startswith("SELECT") for sql in cost.sql), cost.sql
    assert delivery.is_present(alice.pk, game.pk)  # presence, kept in the cache


def _tables(count: int, alice, bob, carol) -> None:
    """Give alice ``count`` games of every kind (open, in play with and without clocks and bots, finished)
    and the lobby ``count`` open tables of others."""
    kinds = list(TIME_CONTROLS.values())
    for number in range(count):
        shape = number % 5
        if shape == 0:
            services.create_game(creator=alice, engine_slug="love-letter", players=3)  # waiting for players
            continue
        game = services.create_game(creator=alice, engine_slug="love-letter", players=2,
                                    bots={1: "basic"} if shape == 4 else None,
                                    time_control=kinds[number % len(kinds)])
        if shape != 4:
            services.join_game(game_id=game.pk, user=bob)
        game.refresh_from_db()
        if shape in (2, 3):
            services.submit_move(game_id=game.pk, user=alice if game.to_move == [0] else bob, expected_seq=0,
                                 text=None, move=_any_move(game))
        if shape == 3:
            services.resign_game(game_id=game.pk, user=bob)
    for _ in range(count):
        services.create_game(creator=carol, engine_slug="halali", players=2)


def _any_move(game) -> dict:
    from turnbased.play import store

    return store.engine_of(game).legal_moves(game.state, game.to_move[0])[0]


def _lobby_and_lists(alice) -> tuple:
    web = Client()
    web.force_login(alice)
    api = token_client(alice)
    api.get("/api/game-types/")  # the new token's last_used_at is written once, not in the measures
    lobby, page = measured(lambda: web.get("/"))
    # A page of 50 rather than the default 20: the count must not grow with the rows on a page either.
    mine, answer = measured(lambda: api.get("/api/games/?page_size=50"))
    joinable, open_answer = measured(lambda: api.get("/api/games/open/?page_size=50"))
    assert page.status_code == 200 and answer.status_code == 200 and open_answer.status_code == 200
    return lobby, mine, joinable, answer.json(), open_answer.json()


def test_the_lobby_and_the_games_lists_cost_the_same_for_5_games_and_for_50(alice, bob, carol, settings, make_user):
    settings.MAX_OPEN_TABLES_PER_ACCOUNT = 100
    settings.MAX_BOT_TABLES_PER_ACCOUNT = 100
    _tables(5, alice, bob, carol)
    few = _lobby_and_lists(alice)
    _tables(45, alice, bob, carol)
    many = _lobby_and_lists(alice)
    assert len(many[3]["results"]) == 50 and len(many[4]["results"]) == 50  # one whole page of each
    print(f"lobby: {few[0].statements} statements for 5 games, {many[0].statements} for 50; "
          f"GET /api/games/: {few[1].statements} and {many[1].statements}; "
          f"GET /api/games/open/: {few[2].statements} and {many[2].statements}")
    for number, what in enumerate(("lobby", "my games list", "open tables list")):
        assert many[number].statements == few[number].statements, (
            f"{what}: {few[number]} then {many[number]}:\n" + "\n".join(many[number].sql))


def test_the_lobby_costs_the_same_whoever_is_to_move(game, alice, bob):
    """Alice is to move and bob waits: their lobbies, one game each, cost the same statements."""
    costs = {}
    for user in (alice, bob):
        web = Client()
        web.force_login(user)
        costs[user.username], page = measured(lambda: web.get("/"))
        assert page.status_code == 200
    assert costs["alice"].statements == costs["bob"].statements, f"{costs['alice']} against {costs['bob']}"
