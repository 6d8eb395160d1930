"""A takeback in two real browsers (issue 46): the player who just moved asks through the confirm page, the other
agrees under the board, and the game is back before the move; each page is clean under axe-core."""

from __future__ import annotations

import pytest

from games import get_engine
from games.record import canonical_json
from tests.browser.axe import axe_violations, described, serious
from tests.browser.test_play_in_browser import log_in
from turnbased.agreements.models import Proposal, ProposalStatus
from turnbased.play import services

pytestmark = pytest.mark.django_db(transaction=True)


def test_one_player_asks_to_take_a_move_back_and_the_other_agrees(browser, live_server, alice, bob):
    game = services.create_game(creator=alice, engine_slug="savernake-forest", players=2, seed="t1")
    services.join_game(game_id=game.pk, user=bob)
    game.refresh_from_db()
    start = canonical_json(game.state)
    services.submit_move(game_id=game.pk, user=alice, expected_seq=0,
                         move=get_engine(game.engine).legal_moves(game.state, 0)[0])

    alice_page = log_in(browser, live_server, "alice")
    alice_page.goto(f"{live_server.url}/games/{game.pk}/")
    alice_page.get_by_role("link", name="Take back my last move…").click()
    alice_page.wait_for_url(f"{live_server.url}/games/{game.pk}/takeback/")
    found = serious(axe_violations(alice_page))
    assert not found, "the confirm page:\n" + described(found)
    alice_page.get_by_role("button", name="Ask to take it back").click()
    alice_page.wait_for_url(f"{live_server.url}/games/{game.pk}/#agreements")
    assert "Waiting for the others' answers" in alice_page.inner_text("#agreements")

    bob_page = log_in(browser, live_server, "bob")
    bob_page.goto(f"{live_server.url}/games/{game.pk}/")
    assert "alice asks to take back move 1" in bob_page.inner_text("#agreements")
    found = serious(axe_violations(bob_page, within="#agreements"))
    assert not found, "the agreements panel:\n" + described(found)
    bob_page.on("dialog", lambda dialog: dialog.accept())  # "Let the move be taken back?"
    bob_page.get_by_role("button", name="Agree", exact=True).click()
    bob_page.wait_for_url(f"{live_server.url}/games/{game.pk}/#agreements")
    assert Proposal.objects.get(game=game).status == ProposalStatus.ACCEPTED
    game.refresh_from_db()
    assert game.seq == 2 and canonical_json(game.state) == start and game.to_move == [0]
    assert "took back move 1" in bob_page.inner_text("body")


def test_one_player_proposes_a_pause_and_the_other_agrees(browser, live_server, alice, bob):
    """A pause by vote (agreements at the table): chosen on its confirm page, agreed under the board; the panel then
    says the clocks are stopped, and each page is clean under axe-core."""
    game = services.create_game(creator=alice, engine_slug="halali", players=2, seed="pause",
                                time_control={"kind": "per_move", "days_per_move": 3})
    services.join_game(game_id=game.pk, user=bob)

    alice_page = log_in(browser, live_server, "alice")
    alice_page.goto(f"{live_server.url}/games/{game.pk}/")
    alice_page.get_by_role("link", name="a pause…").click()
    alice_page.wait_for_url(f"{live_server.url}/games/{game.pk}/propose/pause/")
    found = serious(axe_violations(alice_page))
    assert not found, "the confirm page:\n" + described(found)
    alice_page.get_by_label("Days").select_option("5")
    alice_page.get_by_role("button", name="Propose it").click()
    alice_page.wait_for_url(f"{live_server.url}/games/{game.pk}/#agreements")
    assert "proposes to pause the clocks" in alice_page.inner_text("#agreements")

    bob_page = log_in(browser, live_server, "bob")
    bob_page.goto(f"{live_server.url}/games/{game.pk}/")
    assert "for 5 days" in bob_page.inner_text("#agreements")
    bob_page.on("dialog", lambda dialog: dialog.accept())  # "Pause the clocks?"
    bob_page.get_by_role("button", name="Agree", exact=True).click()
    bob_page.wait_for_url(f"{live_server.url}/games/{game.pk}/#agreements")
    assert Proposal.objects.get(game=game).status == ProposalStatus.ACCEPTED
    assert "every clock at this table is stopped until" in bob_page.inner_text("#panel")
