"""The README's screenshots script still runs: one game's page photographed from a position built through the services."""

from __future__ import annotations

import pytest

from turnbased.play import screenshots
from turnbased.play.models import Game, GameStatus

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_script_photographs_a_mid_game_page(browser, live_server, tmp_path):
    # ``browser`` skips the test where no Chromium is installed, as for every browser test.
    shots = screenshots.prepare(["love-letter"])
    saved = screenshots.photograph(live_server.url, browser, shots, output=tmp_path)
    assert saved == [tmp_path / "love-letter.png"]
    assert saved[0].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and saved[0].stat().st_size > 10_000
    game = Game.objects.get()
    assert game.status == GameStatus.ACTIVE and game.seq == screenshots.MOVES_BEFORE["love-letter"]
