"""What it costs, in SQL statements, to end a game, for every way a game ends (issue 43).

A move that ends a game does what any move does and more: the result is written, the game's status moves on,
and the features react to the end in its transaction (``play.facts.GameFinished``): the ratings read the
players' accounts and what they played together today, then lock, write and move their ratings; the
notifications' rows go out with the move's last statement. Each way is measured through its own door, as
production runs it (``WORK_DISPATCH=notify``: a commit's work is a NOTIFY in its own statement):

- the last move of a game played out, and a resignation, through the API (a token's first use included);
- a late turn whose move, played for the late player, is the game's last (the clock's task);
- an open table aborted by its creator, through the API (no move, no rating).

The budgets are counts, not times: a change that adds a statement to any of these paths fails here.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tests.platform.play.costs import measured, token_client
from tests.platform.ratings.conftest import ready_to_end
from turnbased.clocks.models import SeatClock
from turnbased.play import selectors, services, store
from turnbased.play.models import Game, GameStatus, Move, MoveSource
from turnbased.ratings.models import RatingChange

pytestmark = pytest.mark.django_db(transaction=True)

# The token (with the write of its last use), BEGIN, the seats locked, the move's writes as one statement (log,
# snapshot, clocks, events), the bots' share of the game (bot_play_record), the result with the status; then the
# rating (tests/platform/ratings/test_query_budgets.py: the last move, whether rated already, the accounts, the
# players' locks, their rated games together today, their ratings locked, the new ratings, the ratings moved on,
# the changes: 10), the notifications' rows, COMMIT; the answer's ending (the resignation, the rematch).
LAST_MOVE = 19
# The same, and: the rating counts each player's own moves (a resignation is rated only after enough of them), the
# resigner's seat is marked left, and the answer reads the game back (a resignation answers the whole game).
RESIGNATION = 23
# The clock's task: BEGIN, the seats locked (a prepared statement), their clocks; the move as above (no token, no
# answer); COMMIT. Under "remove" the seat is handed to the bot too (its row, the game read again, and the task that
# takes its player out of the tables they wait to start queued: issue 44, fair entry).
LATE_LAST_MOVE = {"bot_turn": 17, "remove": 20}
# The token, BEGIN, the table locked, its status written, COMMIT; the answer reads the table and its seats.
ABORT = 7


@pytest.fixture(autouse=True)
def notify(settings):
    settings.WORK_DISPATCH = "notify"


def within(statements: int, budget: int, what: str, sql) -> None:
    print(f"{what}: {statements} statements (budget {budget})")
    assert statements <= budget, f"{what}: {statements} statements, over {budget}:\n" + "\n".join(sql)


def _legal(game: Game, seat: int) -> list[dict]:
    return [entry["move"] for entry in selectors.legal_moves_for(selectors.Viewer(game=game, seat=seat))]


def _ends_the_game(game: Game, seat: int, move: dict) -> bool:
    engine = store.engine_of(game)
    state, _ = engine.apply(store.replay(game), seat, move)
    return engine.is_over(state)


def one_move_from_the_end(users: list, seed: str = "ending", **create) -> Game:
    """Start a Halali! table (``None`` in ``users``: a bot's seat) and play the first legal move of whoever is to
    move until every move the next player may make ends the game (whatever a bot would choose); return it there."""
    bots = {seat: "random" for seat, user in enumerate(users) if user is None}
    people = [user for user in users if user is not None]
    game = services.create_game(creator=people[0], engine_slug="halali", players=len(users), seed=seed,
                                bots=bots, **create)
    for user in people[1:]:
        services.join_game(game_id=game.pk, user=user, invite_code=game.invite_code)
    for _ in range(500):
        game.refresh_from_db()
        assert game.status == GameStatus.ACTIVE
        seat = game.to_move[0]
        legal = _legal(game, seat)
        if all(_ends_the_game(game, seat, move) for move in legal):
            return game
        if users[seat] is None:
            services.play_bot_turn(game_id=game.pk, seq=game.seq)
        else:
            services.submit_move(game_id=game.pk, user=users[seat], expected_seq=game.seq, move=legal[0])
    raise AssertionError("the game did not come to its last move in 500 moves")


def test_the_last_move_of_a_game_played_out(alice, bob):
    game = one_move_from_the_end([alice, bob])
    seat = game.to_move[0]
    api = token_client([alice, bob][seat])
    cost, response = measured(lambda: api.post(f"/api/games/{game.pk}/moves/",
                                               {"move": _legal(game, seat)[0], "expected_seq": game.seq},
                                               format="json"))
    assert response.status_code == 201, response.json()
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED and RatingChange.objects.filter(game=game).count() == 2
    within(cost.statements, LAST_MOVE, "the last move", cost.sql)


def test_a_resignation(alice, bob):
    game = ready_to_end([alice, bob])  # each has made the moves a resignation needs to be rated
    api = token_client(bob)
    cost, response = measured(lambda: api.post(f"/api/games/{game.pk}/resign/"))
    assert response.status_code == 200, response.json()
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED and RatingChange.objects.filter(game=game).count() == 2
    within(cost.statements, RESIGNATION, "a resignation", cost.sql)


@pytest.mark.parametrize("expiry", ["bot_turn", "remove"])
def test_a_late_turn_that_ends_the_game(alice, bob, expiry):
    game = one_move_from_the_end([alice, bob], time_control={"kind": "per_move", "days_per_move": 1,
                                                            "expiry": expiry})
    seat = game.to_move[0]
    deadline = SeatClock.objects.get(game=game, seat=seat).deadline
    with time_machine.travel(deadline + timedelta(minutes=1), tick=False), \
            CaptureQueriesContext(connection) as captured:
        services.play_timeout(game_id=game.pk, seat=seat)
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED and Move.objects.get(game=game, seq=game.seq).source == MoveSource.TIMEOUT
    within(len(captured), LATE_LAST_MOVE[expiry], f"a late turn that ends the game ({expiry})", [q["sql"] for q in captured])


def test_an_abort(alice):
    game = services.create_game(creator=alice, engine_slug="halali", players=2)
    api = token_client(alice)
    cost, response = measured(lambda: api.post(f"/api/games/{game.pk}/abort/"))
    assert response.status_code == 200, response.json()
    game.refresh_from_db()
    assert game.status == GameStatus.ABORTED
    within(cost.statements, ABORT, "an abort", cost.sql)
