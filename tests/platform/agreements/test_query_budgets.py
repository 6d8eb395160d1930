"""What agreements cost to read: the game page's agreements panel and the API's list of proposals take a fixed
number of statements, whatever the game's length and however many proposals the table has seen; a spectator's
page reads nothing of them."""

from __future__ import annotations

import pytest
from django.test import Client

from games import get_engine
from tests.platform.play.costs import measured, token_client
from turnbased.agreements import services
from turnbased.play import services as play_services

pytestmark = pytest.mark.django_db(transaction=True)

# The session, its user, the game and its seats (the viewer's place), the waiting proposal and its answers (with
# none waiting, the log's last entry instead: whether my takeback is offered).
PANEL = 6
# The token (and its use noted), the game with its seats, the latest proposals (the newest: the one waiting) and
# their answers.
LISTED = 5


def within(cost, budget: int, what: str) -> None:
    print(f"{what}: {cost.statements} statements (budget {budget})")
    assert cost.statements <= budget, f"{what}: {cost}, over {budget}:\n" + "\n".join(cost.sql)
    # Reads only (the token's lookup notes its use at most once an interval, in the same statement).
    assert all(sql.startswith(("SELECT", "WITH noted AS")) for sql in cost.sql), cost.sql


def _forest(alice, bob):
    game = play_services.create_game(creator=alice, engine_slug="savernake-forest", players=2, seed="t1")
    play_services.join_game(game_id=game.pk, user=bob)
    game.refresh_from_db()
    return game


def _play(game, people):
    game.refresh_from_db()
    seat = game.to_move[0]
    move = get_engine(game.engine).legal_moves(game.state, seat)[0]
    play_services.submit_move(game_id=game.pk, user=people[seat], expected_seq=game.seq, move=move)
    game.refresh_from_db()


def _costs(game, alice, bob) -> tuple:
    web = Client()
    web.force_login(bob)
    panel, page = measured(lambda: web.get(f"/games/{game.pk}/agreements/"))
    assert page.status_code == 200
    api = token_client(bob)
    api.get("/api/me/")  # the token made and used once, outside the measure
    listed, answer = measured(lambda: api.get(f"/api/games/{game.pk}/proposals/"))
    assert answer.status_code == 200 and answer.json()["waiting"] is not None
    return panel, listed


def test_the_panel_and_the_list_cost_the_same_early_and_late_with_few_or_many_proposals(alice, bob):
    people = {0: alice, 1: bob}
    early = _forest(alice, bob)
    _play(early, people)
    services.takeback_ask(game_id=early.pk, user=alice)
    few = _costs(early, alice, bob)

    late = _forest(alice, bob)
    for turn in range(8):  # many moves, and takebacks asked and withdrawn (as many as a day allows, but one)
        _play(late, people)
        if late.to_move == [1] and turn < 2:
            proposal = services.takeback_ask(game_id=late.pk, user=alice)
            services.proposal_withdraw(game_id=late.pk, proposal_id=proposal.pk, user=alice)
        _play(late, people)
    while late.to_move != [1]:
        _play(late, people)
    services.takeback_ask(game_id=late.pk, user=alice)
    many = _costs(late, alice, bob)

    for (name, budget), cheap, dear in zip((("agreements panel", PANEL), ("proposals list", LISTED)), few, many):
        within(cheap, budget, f"{name}, early")
        within(dear, budget, f"{name}, late")
        assert dear.statements == cheap.statements, f"{name} grew with the game: {cheap} then {dear}"


def test_a_spectators_game_page_reads_nothing_of_the_agreements(alice, bob, carol):
    game = _forest(alice, bob)
    _play(game, {0: alice, 1: bob})
    services.takeback_ask(game_id=game.pk, user=alice)
    web = Client()
    web.force_login(carol)
    cost, page = measured(lambda: web.get(f"/games/{game.pk}/"))
    assert page.status_code == 200
    assert not [sql for sql in cost.sql if "agreements_" in sql], cost.sql
