"""Love Letter's ``strong`` bot searches in the classic edition and plays as ``basic`` in the 2019 edition, where the
search measured weaker than the basic bot (issue 48)."""

from __future__ import annotations

import random

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


def test_in_the_2019_edition_strong_plays_the_basic_bots_move_without_searching(monkeypatch):
    monkeypatch.setattr(search.SearchBot, "search", lambda *args: pytest.fail("the 2019 edition searched"))
    bots = ENGINE.bots()
    compared = 0
    for number, (state, seat, history) in enumerate(positions("2019", 30)):
        view, moves = ENGINE.view(state, seat), ENGINE.legal_moves(state, seat)
        visible = [event.to_json() for event in history if event.visible_for(seat)]
        strong = bots["strong"].choose(view, moves, visible, random.Random(number))
        assert strong == bots["basic"].choose(view, moves, visible, random.Random(number))
        compared += 1
    assert compared == 30


def test_in_the_classic_edition_strong_searches(monkeypatch):
    searched = []
    real = search.SearchBot.search

    def counted(self, *args):
        searched.append(1)
        return real(self, *args)

    monkeypatch.setattr(search.SearchBot, "search", counted)
    for number, (state, seat, history) in enumerate(positions("classic", 10)):
        bot_move(ENGINE, "strong", state, seat, history, seed=number)
    assert searched


def test_the_strong_bot_reads_the_round_as_far_back_as_the_basic_one():
    assert history_window(ENGINE, "strong") >= history_window(ENGINE, "basic")
