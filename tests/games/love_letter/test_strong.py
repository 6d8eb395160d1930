"""Love Letter's ``strong`` bot searches in both editions, the 2019 edition with the others' moves kept out of the
tree (issue 48)."""

from __future__ import annotations

import pytest

from games import search
from games.bots import bot_move, history_window
from games.love_letter import ENGINE


def positions(edition: str, count: int = 40):
    """Yield (state, seat, history) along a game between basic bots."""
    state = ENGINE.setup(["a", "b"], ENGINE.validate_options(2, {"edition": edition}), f"strong-{edition}")
    history = []
    for number in range(count):
        if not ENGINE.to_move(state):
            return
        seat = ENGINE.to_move(state)[0]
        yield state, seat, history
        move = bot_move(ENGINE, "basic", state, seat, history, seed=f"play:{number}")
        state, events = ENGINE.apply(state, seat, move)
        history = history + events


@pytest.mark.parametrize(("edition", "others_in_tree"), [("classic", True), ("2019", False)])
def test_strong_searches_with_its_editions_settings(monkeypatch, edition, others_in_tree):
    searched = []
    real = search.SearchBot.search

    def counted(self, *args):
        searched.append(self.settings.others_in_tree)
        return real(self, *args)

    monkeypatch.setattr(search.SearchBot, "search", counted)
    for number, (state, seat, history) in enumerate(positions(edition, 10)):
        bot_move(ENGINE, "strong", state, seat, history, seed=number)
    assert searched and set(searched) == {others_in_tree}


def test_the_strong_bot_reads_as_far_back_as_its_worlds_need():
    assert history_window(ENGINE, "strong") == ENGINE.world_history_moves
