"""A Hungarian and a German player at one table, each in their own language, in real browsers.

They play a whole Love Letter game (a scripted deal that ends in ten moves, through every kind of
round end the deal gives: a wrong guess, a right one, the last token) and a stretch of Savernake
Forest, typing each move in their own language's notation; one move of Savernake Forest is sent by
replying to the turn email. After every move each player's page is read, and the emails they get
(the turn email, the answer to the reply): no English word may be in any of them
(``test_every_page_in_every_language.leftovers``: a word of the texts the project translates that no
translation into that language uses).
"""

from __future__ import annotations

import pytest
from django.core import mail
from django.utils import translation

from games import get_engine
from tests.browser.test_play_in_browser import log_in
from tests.platform.mail.conftest import reply_bytes
from tests.platform.test_every_page_in_every_language import WORD, leftovers, read_text
from tests.waiting import wait_for
from turnbased.accounts.services.languages import language_choose
from turnbased.mail import compose
from turnbased.mail.inbound import handle_inbound
from turnbased.play import selectors, services
from turnbased.play.models import Game, GameStatus

pytestmark = pytest.mark.django_db(transaction=True)

# Each round of the scripted Love Letter game, top card first: the set-aside card, three face up, the hands
# dealt from the starter on, then the starter's draw and the other's. The starter holds a Guard and draws a
# Priest; the other holds a Baron and draws a Guard.
_REST = ["guard", "guard", "guard", "priest", "baron", "handmaid", "prince", "prince"]


ROUND_DECK = ["princess", "king", "countess", "handmaid", "guard", "baron", "priest", "guard", *_REST]


# (starter, the moves of the round): "wrong" — the starter names a card the other does not hold and the
# other's Guard names the starter's Priest (the other wins and starts next); "right" — the starter names the
# other's Baron at once.
ROUNDS = [(0, "wrong"), (1, "wrong")] + [(0, "right")] * 6


def _round_moves(starter: int, how: str) -> list[tuple[int, dict]]:
    other = 1 - starter
    if how == "right":
        return [(starter, {"card": "guard", "target": other, "guess": "baron"})]
    return [(starter, {"card": "guard", "target": other, "guess": "princess"}),
            (other, {"card": "guard", "target": starter, "guess": "priest"})]


def english_on(page, language: str, names: set[str]) -> list[str]:
    return leftovers(read_text(page.content(), language), language, names)


def type_move(page, text: str) -> None:
    """Type a move into the page's text form (opening the fold a board puts it in) and send it."""
    form = page.locator("form.text-move")
    if not form.is_visible():
        page.locator("details:has(form.text-move) > summary").first.click()
    form.locator("input[name=text]").fill(text)
    form.locator("button[type=submit]").click()


def worded_move(game: Game, seat: int, move: dict, language: str) -> str:
    """Return how ``move`` is written in ``language`` (one of the seat's legal moves)."""
    legal = [entry["move"] for entry in selectors.legal_moves_for(selectors.Viewer(game=game, seat=seat))]
    assert move in legal, (move, legal)
    with translation.override(language):
        return get_engine(game.engine).describe_move(game.state, move)


@pytest.fixture
def players(make_user):
    zsofi, jonas = make_user("zsofi"), make_user("jonas")
    language_choose(user=zsofi, language="hu")
    language_choose(user=jonas, language="de")
    return {"hu": zsofi, "de": jonas}


def _pages(browser, live_server, players, game):
    pages = {}
    for language, user in players.items():
        pages[language] = log_in(browser, live_server, user.username)
        pages[language].goto(f"{live_server.url}/games/{game.pk}/")
    return pages


def _check(pages, names, where: str) -> None:
    for language, page in pages.items():
        page.reload()
        found = english_on(page, language, names)
        assert not found, f"{where}: English on the {language} page: {found}"


def test_a_hungarian_and_a_german_player_play_a_whole_love_letter_game(browser, live_server, players):
    zsofi, jonas = players["hu"], players["de"]
    game = services.create_game(creator=zsofi, engine_slug="love-letter", players=2,
                                options={"deck": ROUND_DECK, "first_player": 0})
    services.join_game(game_id=game.pk, user=jonas)
    game.refresh_from_db()
    language_of = {seat.index: ("hu" if seat.user == zsofi else "de") for seat in game.seats.all()}
    assert language_of == {0: "hu", 1: "de"}
    names = {word.lower() for user in (zsofi, jonas) for word in WORD.findall(user.username)}
    pages = _pages(browser, live_server, players, game)
    _check(pages, names, "the start")
    for starter, how in ROUNDS:
        for seat, move in _round_moves(starter, how):
            game.refresh_from_db()
            assert game.to_move == [seat], (starter, how, game.to_move)
            language = language_of[seat]
            before = game.seq
            type_move(pages[language], worded_move(game, seat, move, language))
            wait_for(lambda: Game.objects.get(pk=game.pk).seq > before, "the move to be played", timeout=20)
            _check(pages, names, f"after move {before + 1}")
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED and game.result["winners"] == [0]
    for language, page in pages.items():
        assert "zsofi" in page.inner_text("main")  # the end screen names the winner, in each language


def test_a_hungarian_and_a_german_player_play_savernake_forest_on_the_web_and_by_email(browser, live_server,
                                                                                      players):
    zsofi, jonas = players["hu"], players["de"]
    game = services.create_game(creator=zsofi, engine_slug="savernake-forest", players=2, seed="nyelvek")
    services.join_game(game_id=game.pk, user=jonas)
    game.refresh_from_db()
    language_of = {seat.index: ("hu" if seat.user == zsofi else "de") for seat in game.seats.all()}
    user_of = {seat.index: seat.user for seat in game.seats.all()}
    names = {word.lower() for user in (zsofi, jonas) for word in WORD.findall(user.username)}
    pages = _pages(browser, live_server, players, game)
    _check(pages, names, "the start")
    for _ in range(6):
        game.refresh_from_db()
        seat = game.to_move[0]
        legal = selectors.legal_moves_for(selectors.Viewer(game=game, seat=seat))
        before = game.seq
        type_move(pages[language_of[seat]], worded_move(game, seat, legal[len(legal) // 2]["move"],
                                                        language_of[seat]))
        wait_for(lambda: Game.objects.get(pk=game.pk).seq > before, "the move to be played", timeout=20)
        _check(pages, names, f"after move {before + 1}")

    # One move by email: the turn email in the player's language, a reply in it, the answer in it too.
    game.refresh_from_db()
    seat = game.to_move[0]
    language, mover = language_of[seat], user_of[seat]
    mail.outbox.clear()
    turn_email = compose.turn_email(game, mover)  # the page is open, so the email itself would wait: write it now
    legal = selectors.legal_moves_for(selectors.Viewer(game=game, seat=seat))
    move = worded_move(game, seat, legal[0]["move"], language)
    before = game.seq
    assert handle_inbound(reply_bytes(turn_email, move)).startswith("played"), move
    assert Game.objects.get(pk=game.pk).seq == before + 1
    for message in [turn_email, *mail.outbox]:
        text = " ".join([message.subject, message.body, *(read_text(html, language) for html, _ in message.alternatives)])
        found = leftovers(text, language, names)
        assert not found, f"English in the {language} email {message.subject!r}: {found}"
    _check(pages, names, "after the email move")
