"""Each game's board mid-game and finished, for the browser tests that look at it (test_every_page_accessible.py).

Each game's position is built through the services (the game's own bot chooses the moves, from fixed
seeds; Carcassonne's finished game on a short scripted stack); ``assert_board_named`` checks what a
screen reader says of the board's pieces.
"""

from __future__ import annotations

import re

from games import get_engine
from games.bots import bot_move
from games.carcassonne_hg import tiles
from turnbased.play import services
from turnbased.play.models import Game, GameStatus

SIZES = {"desktop": {"width": 1280, "height": 1000}, "phone": {"width": 390, "height": 844}}
MID_GAME = {"carcassonne-hg": 16, "halali": 14, "love-letter": 4, "savernake-forest": 12}
BOARD_READY = {"carcassonne-hg": ".cb-board.cb-js", "halali": ".hb-board.hb-js", "love-letter": ".ll-board.ll-js",
               "savernake-forest": ".sf-board"}
# Carcassonne played to its end on a short stack: the first land tiles of the catalogue that make rivers and lakes.
SHORT_STACK = 6


def play(game: Game, people: list, moves: int | None, seed: str) -> Game:
    """Play ``moves`` moves (None: to the end) chosen by the game's bot, each through the services."""
    engine = get_engine(game.engine)
    bot = "basic" if "basic" in engine.bots() else "random"
    played = 0
    while game.status == GameStatus.ACTIVE and (moves is None or played < moves):
        seat = game.to_move[0]
        move = bot_move(engine, bot, game.state, seat, [], seed=f"{seed}:{game.seq}")
        services.submit_move(game_id=game.pk, user=people[seat], expected_seq=game.seq, move=move)
        game.refresh_from_db()
        played += 1
        assert played < 2000, "the game did not end"
    return game


def table(slug: str, people: list, **options) -> Game:
    game = services.create_game(creator=people[0], engine_slug=slug, players=len(people), seed="boards-a11y",
                                options=options)
    for person in people[1:]:
        services.join_game(game_id=game.pk, user=person, invite_code=game.invite_code)
    game.refresh_from_db()
    return game


def position(slug: str, people: list, finished: bool) -> Game:
    if not finished:
        return play(table(slug, people), people, MID_GAME[slug], "mid")
    options = {"tiles": tiles.deck("revised", "land")[:SHORT_STACK]} if slug == "carcassonne-hg" else {}
    game = play(table(slug, people, **options), people, None, "end")
    assert game.status == GameStatus.FINISHED
    return game


# What each board's pieces must be called by a screen reader: (the elements, the name each must have).
NAMED = {
    "carcassonne-hg": (".cb-tiles .cb-tile", re.compile(r"^(an?|the) .+ on -?\d+,-?\d+ turned \d+° (by (alice|bob)|\(start tile\))")),
    "halali": (".hb-tile", re.compile(r"(, moved by (alice|bob)|, neutral)(, locked)?$|^face-down tile at [a-g][1-7]$")),
    "love-letter": (".ll-card", re.compile(r"^[A-Z][a-z]+,? \d")),
    "savernake-forest": (".sf-cell", re.compile(r"; in (alice|bob)'s forest$")),
}
# A line of the accessibility tree that is one or two stray letters (a letter drawn on a piece, say).
STRAY = re.compile(r"^\s*- text: [^\W\d_]{1,2}$", re.M)


def names_on_the_board(page, slug: str) -> list[str]:
    """Return the name of each of the board's pieces (tiles, cards) shown now: its label, its title or its text."""
    selector, _ = NAMED[slug]
    return page.eval_on_selector_all(selector, """nodes => nodes.filter(node => node.getClientRects().length)
        .map(node => node.getAttribute("aria-label")
        || (node.querySelector(":scope > title") || {}).textContent || node.innerText.replace(/\\s+/g, " ").trim())""")


def assert_board_named(page, slug: str) -> None:
    """Every tile and card on the board has a name that says what it is (and whose), and no stray letter is read
    out (a letter drawn on a piece, say)."""
    named = names_on_the_board(page, slug)
    assert named and all(NAMED[slug][1].search(name) for name in named), named
    assert not STRAY.findall(page.locator("#board").aria_snapshot())
