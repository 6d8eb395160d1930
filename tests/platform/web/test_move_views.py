"""A turn with many legal moves folds their buttons out of the panel; opening the fold asks for them (issue 47)."""

from __future__ import annotations

import re

from django.test import Client

from tests.browser.positions import position
from tests.platform.play.costs import measured
from turnbased.play import selectors


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_many_moves_come_when_asked_and_the_panel_stays_small(alice, bob):
    game = position("savernake-forest", [alice, bob], finished=False)
    player = [alice, bob][game.to_move[0]]
    other = bob if player == alice else alice
    legal = selectors.legal_moves_for(selectors.Viewer(game=game, seat=game.to_move[0]))
    assert len(legal) > 40
    page = _client(player).get(f"/games/{game.pk}/").content.decode()
    assert 'class="move"' not in page and f"/games/{game.pk}/moves/" in page
    fragment = _client(player).get(f"/games/{game.pk}/moves/", HTTP_HX_REQUEST="true").content.decode()
    assert fragment.count('class="move"') == len(legal) and "<html" not in fragment
    assert f'name="expected_seq" value="{game.seq}"' in fragment
    whole = _client(player).get(f"/games/{game.pk}/moves/").content.decode()
    assert "<html" in whole and whole.count('class="move"') == len(legal)
    # The others, and a visitor, see no one's moves.
    assert 'class="move"' not in _client(other).get(f"/games/{game.pk}/moves/").content.decode()
    assert 'class="move"' not in Client().get(f"/games/{game.pk}/moves/").content.decode()


def test_a_few_moves_stay_in_the_panel(alice, bob, start_scripted_game):
    game = start_scripted_game(alice, bob)
    page = _client(alice).get(f"/games/{game.pk}/").content.decode()
    assert len(re.findall(r'class="move"', page)) >= 2 and "all-moves" not in page


def test_a_private_games_moves_are_no_strangers(alice, bob, carol, start_scripted_game):
    game = start_scripted_game(alice, bob, visibility="private")
    assert _client(carol).get(f"/games/{game.pk}/moves/").status_code == 404
    assert _client(alice).get(f"/games/999999/moves/").status_code == 404


# The fold's buttons: the session, its user, the game (its state with it) and its seats. The view and the legal moves
# come from the state, with no statement per move, and nothing is written.
MOVE_BUTTONS = 4


def test_the_folded_moves_cost_a_few_statements_however_many_there_are(alice, bob):
    game = position("savernake-forest", [alice, bob], finished=False)
    player = [alice, bob][game.to_move[0]]
    client = _client(player)
    cost, response = measured(lambda: client.get(f"/games/{game.pk}/moves/", HTTP_HX_REQUEST="true"))
    legal = response.content.decode().count('class="move"')
    assert legal > 40 and cost.statements <= MOVE_BUTTONS, "\n".join(cost.sql)
    assert all(sql.startswith("SELECT") for sql in cost.sql), cost.sql
