"""What watch follows, without a server: the stream where there is one, else new turns found by polling."""

from __future__ import annotations

import itertools

import httpx

from turnbased_client import Client, StreamEvent
from turnbased_client.render import event_line
from turnbased_client.watching import Positions, follow, turn_event

TURN = {"game": 12, "name": "Love Letter #12", "engine": "love-letter", "seq": 3, "seat": 0,
        "waiting_since": "2026-12-01T09:30:00Z", "deadline": None, "last_move": "bob played the Priest.",
        "url": "/games/12/"}


def client(answer) -> Client:
    return Client("http://game.test", token="k", transport=httpx.MockTransport(answer))


def page(*turns) -> dict:
    return {"next": None, "previous": None, "results": list(turns)}


def test_with_a_stream_the_games_waiting_come_first_then_its_events_each_position_told_once():
    seen = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request.url.path)
        if request.url.path == "/api/me/turns/":
            return httpx.Response(200, json=page(TURN))
        assert request.url.path == "/api/stream/"
        return httpx.Response(200, text=('id: 1\nevent: your_turn\ndata: {"game": 12, "seq": 3}\n\n'
                                         'id: 2\nevent: your_turn\ndata: {"game": 12, "seq": 5}\n\n'))

    events = follow(client(answer), interval=5, sleep=lambda seconds: None)
    assert next(events) == turn_event(TURN)  # listed once the stream was open, so nothing falls between
    assert next(events) == StreamEvent("your_turn", {"game": 12, "seq": 5}, "2")  # seq 3 was told already
    assert seen == ["/api/stream/", "/api/me/turns/"]


def test_without_a_stream_each_new_position_waiting_is_told_once():
    answers = [[], [TURN], [TURN], [TURN, {**TURN, "game": 13}], [{**TURN, "seq": 5}]]
    polls: list[float] = []
    notices: list[str] = []

    def answer(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/api/stream/":
            return httpx.Response(404, json={"detail": "Not found."})
        return httpx.Response(200, json=page(*answers.pop(0)))

    events = follow(client(answer), interval=7, sleep=polls.append, notice=notices.append)
    told = [next(events) for _ in range(3)]
    assert [(event.data["game"], event.data["seq"]) for event in told] == [(12, 3), (13, 3), (12, 5)]
    assert polls == [7] * 4 and "no event stream" in notices[0]


def test_an_event_reads_as_one_line_whatever_its_data():
    assert event_line(turn_event(TURN)) == "[your_turn] #12 Love Letter #12 seq 3 - bob played the Priest."
    chat = {"id": 9, "kind": "message_posted", "game": 12, "seq": 3, "created_at": "2026-12-01T09:30:00Z",
            "data": {"name": "Love Letter #12", "engine": "love-letter", "seat": 0, "author": "bob", "text": "gg"}}
    told = event_line(StreamEvent("message_posted", chat, "9"))
    assert told == "[message_posted] #12 Love Letter #12 seq 3 - bob: gg"
    over = {**chat, "kind": "game_finished", "data": {"name": "Halali! #4", "result": {"summary": "ann won"}}}
    assert event_line(StreamEvent("game_finished", over)) == "[game_finished] #12 Halali! #4 seq 3 - ann won"
    assert event_line(StreamEvent("chat_message", {"game": {"id": 4}, "text": "hi"})) == "[chat_message] #4 - hi"
    assert event_line(StreamEvent("ping", {"at": 1})) == '[ping] {"at": 1}'
    assert event_line(StreamEvent("message", "plain")) == "[message] plain"


def test_a_your_turn_below_the_latest_position_seen_of_its_game_is_dropped():
    """After a two-step move (the Chancellor) the step between may come after the answer to the last step."""
    positions = Positions()
    turn = StreamEvent("your_turn", {"game": 12, "seq": 4}, "1")
    assert positions.is_news(turn)
    positions.saw(12, 6)  # the answer to my second step: the game is at seq 6
    assert not positions.is_news(StreamEvent("your_turn", {"game": 12, "seq": 5}, "2"))  # the step between
    assert not positions.is_news(turn)  # told already
    assert positions.is_news(StreamEvent("move_played", {"game": 12, "seq": 7}, "3"))
    assert not positions.is_news(StreamEvent("your_turn", {"game": 12, "seq": 6}, "4"))  # another game moved on
    assert positions.is_news(StreamEvent("your_turn", {"game": 12, "seq": 7}, "5"))
    assert positions.is_news(StreamEvent("your_turn", {"game": 13, "seq": 1}, "6"))  # each game its own


def test_watch_tells_no_turn_its_game_has_moved_past():
    def answer(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/api/me/turns/":
            return httpx.Response(200, json=page({**TURN, "seq": 9}))
        return httpx.Response(200, text=('id: 1\nevent: your_turn\ndata: {"game": 12, "seq": 7}\n\n'
                                         'id: 2\nevent: move_played\ndata: {"game": 12, "seq": 10}\n\n'
                                         'id: 3\nevent: your_turn\ndata: {"game": 12, "seq": 9}\n\n'
                                         'id: 4\nevent: your_turn\ndata: {"game": 12, "seq": 11}\n\n'))

    events = follow(client(answer), interval=5, sleep=lambda seconds: None)  # reconnects for ever: take three
    told = [event.data["seq"] for event in itertools.islice(events, 3)]
    assert told == [9, 10, 11]  # the turn at 7 is past the listed one at 9; the one at 9 was told, and is past 10
