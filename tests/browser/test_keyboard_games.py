"""Each game played to its end with the keyboard alone on the board: Tab to reach a thing, Enter (or Space) to use it.

alice plays every one of her moves on her page with key presses only (no click, no focus set by the test);
bob's moves are made through the services, as another person's would be, and alice's page, never loaded
again, shows them as it would at home (its polls). After each swap the focus is still in the panel, never back at
the top of the page, and the next thing to use is a few Tabs away; what a screen reader is told (the polite live
region #announcer) is each of bob's moves, in the history's words, and "Your turn.", once each. Every game is
played whole (a Love Letter game of seven short
rounds on scripted decks, a Carcassonne game on a short stack, a Savernake Forest game, a Halali! game
against a bot that plays at random: Halali's tiles are one Tab stop, the arrow keys go from tile to tile).
"""

from __future__ import annotations

import pytest

from games import get_engine
from games.bots import bot_move
from tests.browser.axe import axe_violations, described, serious
from tests.browser.test_play_in_browser import log_in
from turnbased.play import services
from turnbased.play.models import Game, GameStatus

pytestmark = pytest.mark.django_db(transaction=True)

TABS = 400  # the most Tab presses that may lead to one thing (Halali has 49 squares before its buttons)
# The most Tab presses from where the focus was left to the next thing to use, once the panel came in again.
NEAR = 12

# Every text the page writes into its live region, in order (game-page.js empties it first: skipped).
HEAR_THE_PAGE = """
window.__said = [];
document.addEventListener("DOMContentLoaded", function () {
  var region = document.getElementById("announcer");
  if (!region) return;
  new MutationObserver(function () {
    if (region.textContent) window.__said.push(region.textContent);
  }).observe(region, {childList: true, characterData: true, subtree: true});
});
"""

# Each round: bob's Priest, alice's Guard (she is first), and she draws a Handmaid: her Guard names the Priest.
ROUND = ["princess", "king", "countess", "baron", "guard", "priest", "handmaid",
         "guard", "guard", "guard", "guard", "priest", "baron", "handmaid", "prince", "prince"]


def tab_to(page, selector: str, most: int = TABS) -> int:
    """Press Tab until the focused element matches ``selector`` (fail after ``most`` presses); return the presses."""
    for presses in range(most + 1):
        if page.evaluate("selector => !!document.activeElement && document.activeElement.matches(selector)", selector):
            return presses
        page.keyboard.press("Tab")
    raise AssertionError(f"the keyboard did not reach {selector} in {most} presses")


def press_on(page, selector: str, key: str = "Enter", most: int = TABS) -> None:
    tab_to(page, selector, most)
    page.keyboard.press(key)


def focus_kept(page) -> None:
    """The focus is on something in the panel, not dropped to the page's top."""
    assert page.evaluate("() => document.activeElement !== document.body"
                         " && !!document.querySelector('#panel').contains(document.activeElement)"), \
        page.evaluate("() => document.activeElement.outerHTML.slice(0, 200)")


def shown_seq(page) -> int:
    return int(page.get_attribute("#panel", "data-seq"))


def after_move(page, game: Game) -> Game:
    """Wait until the page shows the position after the move just sent; return the game as it is now. The focus is
    still in the panel."""
    seq = game.seq
    page.wait_for_function("seq => { const panel = document.querySelector('#panel');"
                           " return panel && (panel.getAttribute('hx-get') || '').includes('seq=' + seq + '&'); }",
                           arg=seq + 1, timeout=15000)
    # The focus is placed a moment after the swap, once the board has drawn itself.
    page.wait_for_function("() => document.activeElement !== document.body", timeout=3000)
    game.refresh_from_db()
    assert game.seq == seq + 1
    focus_kept(page)
    return game


def caught_up(page, game: Game, said_before: int, focused: bool = True) -> None:
    """Wait until the page (by its own polls) shows the game's position, which the others' moves brought; check that
    it said those moves in the history's words, then that it is alice's turn, each once."""
    page.wait_for_function("seq => Number(document.querySelector('#panel').getAttribute('data-seq')) === seq",
                           arg=game.seq, timeout=15000)
    page.wait_for_function("n => window.__said.length > n", arg=said_before, timeout=5000)
    page.wait_for_timeout(100)
    said = page.evaluate("() => window.__said")[said_before:]
    assert len(said) == 1, said
    theirs = page.eval_on_selector_all(
        "#history-entries > li[data-seq]:not([data-seat='0'])",
        "(entries, seq) => entries.filter(e => Number(e.getAttribute('data-seq')) === seq)"
        ".map(e => { const c = e.cloneNode(true); c.querySelectorAll('.seq').forEach(s => s.remove());"
        " return c.textContent.replace(/\\s+/g, ' ').trim(); })", game.seq)
    assert theirs and said[0].endswith("Your turn."), (said, theirs)
    assert all(line in said[0] for line in theirs), (said, theirs)
    if focused:  # once alice has used the page (a page just opened has its focus nowhere yet)
        focus_kept(page)


def open_page(page, live_server, game: Game, ready: str) -> None:
    page.context.add_init_script(HEAR_THE_PAGE)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector(ready)


def bot_plays(game: Game, people: list, seat: int, bot: str | None = None) -> Game:
    engine = get_engine(game.engine)
    bot = bot or ("basic" if "basic" in engine.bots() else "random")
    move = bot_move(engine, bot, game.state, seat, [], seed=f"keys:{game.seq}")
    services.submit_move(game_id=game.pk, user=people[seat], expected_seq=game.seq, move=move)
    game.refresh_from_db()
    return game


def table(slug: str, people: list, **options) -> Game:
    game = services.create_game(creator=people[0], engine_slug=slug, players=2, seed="keys", options=options)
    services.join_game(game_id=game.pk, user=people[1], invite_code=game.invite_code)
    game.refresh_from_db()
    return game


def no_serious_violations(page) -> None:
    found = serious(axe_violations(page, within="#board"))
    assert found == [], described(found)


def test_love_letter_whole_game_with_the_keyboard(browser, live_server, alice, bob):
    game = table("love-letter", [alice, bob], deck=[ROUND] * 7, first_player=0)
    page = log_in(browser, live_server, "alice")
    open_page(page, live_server, game, ".ll-board.ll-js")
    for round_number in range(1, 8):
        page.wait_for_selector(".ll-board.ll-js")
        assert page.inner_text(".ll-turn-prompt").startswith("Your turn: choose which of your two cards to play")
        # From the first round's top of the page the skip link leads to the board; then the focus stays near.
        press_on(page, '.ll-hand .ll-big[data-card="guard"]', most=TABS if round_number == 1 else NEAR)
        press_on(page, '.ll-target[data-seat="1"]')  # the first player the Guard may choose has the focus
        press_on(page, '.ll-guess[data-card="priest"]')
        assert "if bob holds the Priest, bob is out of the round" in page.inner_text(".ll-summary")
        said_before = page.evaluate("() => window.__said.length")
        press_on(page, ".ll-confirm")
        game = after_move(page, game)
        if round_number < 7:  # alice won the round and starts the next: told once
            page.wait_for_function("n => window.__said.length > n", arg=said_before, timeout=5000)
            assert page.evaluate("() => window.__said")[said_before:] == ["Your turn."]
        end = page.locator(".ll-round-end")
        assert end.get_attribute("open") is not None  # the round just ended: its summary is open
        assert page.inner_text(".ll-round-end summary") == (
            f"Round {round_number} is over: alice was the last player standing.")
        assert "The set-aside card was the Princess." in end.inner_text()
    assert game.status == GameStatus.FINISHED and game.result["winners"] == [0]
    assert page.inner_text(".ll-turn-prompt") == "The game is over: you win with 7 tokens."
    assert "alice scores a token for winning the round." in page.inner_text(".ll-round-end")
    no_serious_violations(page)


def test_carcassonne_whole_game_on_a_short_stack_with_the_keyboard(browser, live_server, alice, bob):
    people = [alice, bob]
    game = table("carcassonne-hg", people, tiles=["R-L62", "R-L00", "R-L15", "R-L33"], first_player=0)
    page = log_in(browser, live_server, "alice")
    open_page(page, live_server, game, ".cb-board.cb-js")
    first = True
    while game.status == GameStatus.ACTIVE:
        if game.to_move != [0]:
            said_before = page.evaluate("() => window.__said.length")
            game = bot_plays(game, people, game.to_move[0])
            if game.status == GameStatus.ACTIVE:
                caught_up(page, game, said_before)
            continue
        page.wait_for_selector(".cb-board.cb-js")
        # The tile to place comes before the board, for the keyboard as for the eye.
        assert page.evaluate("() => document.querySelector('.cb-drawn-box').compareDocumentPosition("
                             "document.querySelector('.cb-svg')) & Node.DOCUMENT_POSITION_FOLLOWING")
        press_on(page, ".cb-spot.cb-on", most=TABS if first else NEAR)
        first = False
        assert page.locator(".cb-deploy").is_visible()
        # Pieces, and the markers offering them, are drawn shapes: no letter stands for a piece.
        assert page.locator(".cb-piece text, .cb-region-marker text").count() == 0
        press_on(page, ".cb-confirm")
        game = after_move(page, game)
    open_page(page, live_server, game, ".cb-board.cb-js")
    assert page.locator(".cb-final").is_visible()
    tiles = page.get_by_role("img", name=" on 0,0 turned 0° (start tile)")
    assert tiles.count() == 1
    no_serious_violations(page)


def arrow_to(page, square: str) -> None:
    """Reach Halali's tile on ``square`` as a keyboard player does: Tab to the board's one tile stop, then the arrow
    keys from tile to tile (Right and Left go in reading order). From the page's top the skip link leads there."""
    if page.evaluate("document.activeElement === document.body"):
        press_on(page, '.skip-link[href="#board"]')
    tab_to(page, ".hb-tile")
    order = page.eval_on_selector_all(".hb-tile", "tiles => tiles.map(tile => tile.getAttribute('data-square'))")
    here = page.evaluate("document.activeElement.getAttribute('data-square')")
    steps = order.index(square) - order.index(here)
    for _ in range(abs(steps)):
        page.keyboard.press("ArrowRight" if steps > 0 else "ArrowLeft")
    assert page.evaluate("document.activeElement.getAttribute('data-square')") == square


def keyboard_players_choice(moves: list[dict], played: int) -> dict:
    """Mostly a flip while tiles lie face down, which brings the game's end near (a random player's game is three
    times as long); every third move the last legal one, an exit, a step or a capture when there is one."""
    flips = [move for move in moves if "flip" in move]
    if flips and played % 3:
        return flips[len(flips) // 2]
    return moves[-1]


def halali_kind(move: dict) -> str:
    return "pass" if move.get("pass") else "flip" if "flip" in move else "exit" if move["to"] == "out" else "move"


def test_halali_to_the_end_with_every_kind_of_move_made_with_the_keyboard(browser, live_server, alice, bob, settings):
    """alice makes each kind of move with the keyboard the first time she may (a flip, a step or capture, an
    exit, a pass); her other moves, chosen the same way, go in through the services, so the game reaches its
    end at a browser's cost of a few moves, not of a whole game's."""
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {**rates, "moves": "6000/min"}}
    people = [alice, bob]
    game = table("halali", people, first_blue=0)
    page = log_in(browser, live_server, "alice")
    open_page(page, live_server, game, ".hb-board.hb-js")
    played, kinds = 0, set()
    while game.status == GameStatus.ACTIVE:
        if game.to_move != [0]:
            game = bot_plays(game, people, game.to_move[0], bot="random")  # a bot that takes no time to think
            continue
        legal = get_engine("halali").legal_moves(game.state, 0)
        new = [move for move in legal if halali_kind(move) not in kinds]
        move = new[len(new) // 2] if new else keyboard_players_choice(legal, played)
        played += 1
        if not new:
            services.submit_move(game_id=game.pk, user=alice, expected_seq=game.seq, move=move)
            game.refresh_from_db()
            continue
        if shown_seq(page) != game.seq:  # the moves made meanwhile come in by the page's own polls
            page.wait_for_function("seq => Number(document.querySelector('#panel').getAttribute('data-seq')) === seq",
                                   arg=game.seq, timeout=15000)
            page.wait_for_selector(".hb-board.hb-js")
        if move.get("pass"):
            press_on(page, ".hb-pass")
        elif "flip" in move:
            arrow_to(page, move["flip"])
            page.keyboard.press("Enter")
            press_on(page, ".hb-confirm-go")
        else:
            arrow_to(page, move["from"])
            page.keyboard.press("Enter")
            target = (f'.hb-dest.hb-on[data-exit="{move["exit"]}"]' if move["to"] == "out"
                      else f'.hb-dest.hb-on[data-to="{move["to"]}"]')
            press_on(page, target)
            press_on(page, ".hb-confirm-go")
        game = after_move(page, game)
        assert game.moves.order_by("-seq").first().move == move
        kinds.add(halali_kind(move))
    assert game.status == GameStatus.FINISHED
    assert {"flip", "move", "exit"} <= kinds, kinds
    open_page(page, live_server, game, ".hb-board.hb-js")
    no_serious_violations(page)


# make test plays three games to the end with the keyboard; Savernake Forest's is the longest whole game of all
# (its moves are the halali's kinds of control: a choice of cards and of places), so make test-long plays it.
@pytest.mark.long
def test_savernake_forest_whole_game_with_the_keyboard(browser, live_server, alice, bob):
    people = [alice, bob]
    game = table("savernake-forest", people)
    page = log_in(browser, live_server, "alice")
    open_page(page, live_server, game, ".sf-board")  # its controls show on alice's turn
    played = 0
    while game.status == GameStatus.ACTIVE:
        if game.to_move != [0]:
            said_before = page.evaluate("() => window.__said.length")
            game = bot_plays(game, people, game.to_move[0])
            if game.status == GameStatus.ACTIVE:
                caught_up(page, game, said_before, focused=played > 0)
            continue
        page.wait_for_selector(".sf-board .sf-controls")
        press_on(page, ".sf-slot:not([disabled])", most=TABS if not played else NEAR)
        press_on(page, ".sf-open.sf-can")
        for _ in range(6):  # the survivor of each shared path, and where the helper's token goes, if asked
            if page.locator(".sf-confirm:not([disabled])").count():
                break
            if page.locator(".sf-keep:not([hidden]) input[type=radio]").count():
                press_on(page, ".sf-keep:not([hidden]) input[type=radio]", " ")
            elif page.locator(".sf-token:not([hidden]) .sf-token-options button").count():
                press_on(page, ".sf-token:not([hidden]) .sf-token-options button")
        press_on(page, ".sf-confirm:not([disabled])")
        game = after_move(page, game)
        played += 1
    assert played >= 10 and game.status == GameStatus.FINISHED
    open_page(page, live_server, game, ".sf-board")
    no_serious_violations(page)
