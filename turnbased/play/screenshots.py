"""Screenshots of each game's page in mid-game, for the README, in each language the site speaks
(``docs/screenshots/<slug>.png`` in English, ``<slug>.<language>.png`` in the others), at a desktop's size and
a phone's (``<slug>.phone.png``: the phone's pictures in English only, the page being the same in each language).

``python -m turnbased.local screenshots`` runs this on a throwaway database: it builds a position of
every game through the services (two accounts playing the moves the game's own bot would choose,
from fixed seeds, so the pictures only change when the pages do), serves the site, and photographs
the game page as the player to move sees it, in the system's Chromium (as the browser tests do),
with the browser asking for each language in turn (the accounts choose none).
"""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Iterable
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

from games import engines
from games.bots import bot_move
from turnbased.accounts.services.accounts import account_create
from turnbased.clocks.time_zone_choice import zone_choose
from turnbased.play import services, store
from turnbased.play.models import Game, GameStatus

OUTPUT = Path(settings.BASE_DIR) / "docs" / "screenshots"
# The browser's window for each size: a desktop, and a phone of 390 × 844 CSS pixels drawn at twice the density.
SIZES = {"desktop": {"viewport": {"width": 1280, "height": 1000}},
         "phone": {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True,
                   "has_touch": True}}
# The sizes each language is photographed at.
PHONE_LANGUAGES = ("en",)
# The browser's locale for each language's picture (its Accept-Language).
LOCALES = {"en": "en-GB", "hu": "hu-HU", "de": "de-DE"}
# Moves played before the picture (fewer if the game ends sooner; 10 for a game not listed), and the tables' seed.
MOVES_BEFORE = {"carcassonne-hg": 16, "halali": 14, "love-letter": 4, "savernake-forest": 12}
SEED = "screenshots-1"
PASSWORD = "screenshots-only-9f4c"


def chromium_path() -> str | None:
    return os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or shutil.which("chromium-browser")


def players(count: int) -> list:
    """Return ``count`` accounts (ann, ben, cat, ...) made as sign-up makes them, with their zone chosen."""
    names = ["ann", "ben", "cat", "dan", "eve", "fay"][:count]
    User = get_user_model()
    accounts = []
    for name in names:
        user = User.objects.filter(username=name).first() or account_create(
            username=name, email=f"{name}@example.com", password=PASSWORD)  # unverified: no email goes out
        zone_choose(user=user, zone="UTC")
        accounts.append(user)
    return accounts


def mid_game(slug: str) -> tuple[Game, object]:
    """Build a table of ``slug`` and play its first moves through the services; return it and the person to move."""
    engine = engines()[slug]
    people = players(engine.default_players)
    game = services.create_game(creator=people[0], engine_slug=slug, players=engine.default_players, seed=SEED)
    for person in people[1:]:
        services.join_game(game_id=game.pk, user=person)
    game.refresh_from_db()
    bot = "basic" if "basic" in engine.bots() else "random"
    for _ in range(MOVES_BEFORE.get(slug, 10)):
        if game.status != GameStatus.ACTIVE:
            break
        seat = game.to_move[0]
        move = bot_move(engine, bot, game.state, seat, [], seed=f"{SEED}:{game.seq}")
        services.submit_move(game_id=game.pk, user=people[seat], expected_seq=game.seq, move=move)
        game.refresh_from_db()
    to_move = people[game.to_move[0]] if game.status == GameStatus.ACTIVE and game.to_move else people[0]
    store.engine_of(game)  # fail here, not in the browser, for an engine that cannot load its game
    return game, to_move


@dataclass(frozen=True)
class Shot:
    """A page to photograph: the game, and the session of the person it is shown to."""

    slug: str
    game_id: int
    session_key: str
    language: str = "en"
    size: str = "desktop"

    @property
    def file_name(self) -> str:
        language = "" if self.language == "en" else f".{self.language}"
        size = "" if self.size == "desktop" else f".{self.size}"
        return f"{self.slug}{language}{size}.png"


def prepare(slugs: Iterable[str] | None = None, languages: Iterable[str] = tuple(LOCALES),
            sizes: Iterable[str] = tuple(SIZES)) -> list[Shot]:
    """Build a mid-game table of each game (every game by default) and sign its player to move in; one shot of
    it per language at a desktop's size, and at a phone's in the languages of ``PHONE_LANGUAGES``.

    Done before the browser starts: Playwright's event loop in this thread rules out database calls.
    """
    shots = []
    for slug in slugs or sorted(engines()):
        game, viewer = mid_game(slug)
        client = Client()
        client.force_login(viewer)
        session = client.cookies[settings.SESSION_COOKIE_NAME].value
        shots.extend(Shot(slug=slug, game_id=game.pk, session_key=session, language=language, size=size)
                     for size in sizes for language in languages
                     if size == "desktop" or language in PHONE_LANGUAGES)
    return shots


def photograph(base_url: str, browser, shots: list[Shot], output: Path = OUTPUT) -> list[Path]:
    """Save each shot's game page, served at ``base_url``, as ``<output>/<slug>[.<language>][.phone].png``; return
    the files.

    ``browser`` is a Playwright browser (``launched_chromium``, or the browser tests' own).
    """
    output.mkdir(parents=True, exist_ok=True)
    saved = []
    for shot in shots:
        context = browser.new_context(**SIZES[shot.size], timezone_id="UTC", locale=LOCALES[shot.language])
        try:
            context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": shot.session_key, "url": base_url}])
            page = context.new_page()
            page.goto(f"{base_url}/games/{shot.game_id}/", wait_until="load")
            page.wait_for_timeout(500)  # boards drawn by script settle
            path = output / shot.file_name
            page.screenshot(path=str(path))
            saved.append(path)
        finally:
            context.close()
    return saved


@contextmanager
def launched_chromium():
    """Start the system's Chromium under Playwright; yield the browser."""
    from playwright.sync_api import sync_playwright

    chromium = chromium_path()
    if chromium is None:
        raise RuntimeError("no Chromium on this machine (apt-get install chromium), or set CHROMIUM_PATH")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu"])
        try:
            yield browser
        finally:
            browser.close()


@contextmanager
def served_site():
    """Serve this site on a free local port in a thread (static files too, as under DEBUG); yield its URL."""
    from django.contrib.staticfiles.handlers import StaticFilesHandler
    from django.core.servers.basehttp import ThreadedWSGIServer, WSGIRequestHandler, get_internal_wsgi_application

    class QuietHandler(WSGIRequestHandler):
        def log_message(self, *args) -> None:
            pass

    server = ThreadedWSGIServer(("127.0.0.1", 0), QuietHandler, allow_reuse_address=True)
    server.set_app(StaticFilesHandler(get_internal_wsgi_application()))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
