"""The README's screenshots script still runs: one game's page photographed from a position built through the services."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings

from games import engines
from turnbased.play import screenshots
from turnbased.play.models import Game, GameStatus


@pytest.mark.django_db(transaction=True)
def test_the_script_photographs_a_mid_game_page(browser, live_server, tmp_path):
    # ``browser`` skips the test where no Chromium is installed, as for every browser test.
    shots = screenshots.prepare(["love-letter"], ["en", "hu"])
    saved = screenshots.photograph(live_server.url, browser, shots, output=tmp_path)
    assert saved == [tmp_path / "love-letter.png", tmp_path / "love-letter.hu.png", tmp_path / "love-letter.phone.png"]
    for picture in saved:
        assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and picture.stat().st_size > 10_000
    assert saved[0].read_bytes() != saved[1].read_bytes()  # the page in another language
    # The phone's picture: 390 × 844 CSS pixels at twice the density (PNG's width and height at bytes 16-24).
    header = saved[2].read_bytes()[16:24]
    assert (int.from_bytes(header[:4], "big"), int.from_bytes(header[4:], "big")) == (780, 1688)
    game = Game.objects.get()
    assert game.status == GameStatus.ACTIVE and game.seq == screenshots.MOVES_BEFORE["love-letter"]


def test_the_readme_shows_a_screenshot_of_every_game():
    readme = (Path(settings.BASE_DIR) / "README.md").read_text()
    for slug in engines():
        for name in (f"{slug}.png", f"{slug}.phone.png",
                     *(f"{slug}.{language}.png" for language in screenshots.LOCALES if language != "en")):
            picture = Path(settings.BASE_DIR) / "docs" / "screenshots" / name
            assert picture.is_file(), f"no {picture.name}: run python -m turnbased.local screenshots {slug}"
            assert f"(docs/screenshots/{name})" in readme, f"README.md does not show {picture.name}"
