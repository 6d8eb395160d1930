"""What watch follows, without a server: the stream where there is one, else new turns found by polling."""

from __future__ import annotations


import httpx

from turnbased_client import Client, StreamEvent
from turnbased_client.render import event_line
from turnbased_client.watching import follow

TURN = {"game": 12, "name": "Love Letter #12", "engine": "love-letter", "seq": 3, "seat": 0,
        "waiting_since": "2026-12-01T09:30:00Z", "deadline": None, "last_move": "bob played the Priest.",
        "url": "/games/12/"}


def client(answer) -> Client:
    return Client("http://game.test", token="k", transport=httpx.MockTransport(answer))


def test_with_a_stream_the_events_come_from_it():
    def answer(request: httpx.Request) -> httpx.Response:
        assert request.url.path == "/api/stream/"
        return httpx.Response(200, text='id: 1\nevent: your_turn\ndata: {"game": 12, "seq": 3}\n\n')

    events = follow(client(answer), interval=5, sleep=lambda seconds: None)
    assert next(events) == StreamEvent("your_turn", {"game": 12, "seq": 3}, "1")


def test_without_a_stream_each_new_position_waiting_is_told_once():
    answers = [[], [TURN], [TURN], [TURN, {**TURN, "game": 13}], [{**TURN, "seq": 5}]]
    polls: list[float] = []
    notices: list[str] = []

    def answer(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/api/stream/":
            return httpx.Response(404, json={"detail": "Not found."})
        return httpx.Response(200, json={"turns": answers.pop(0)})

    events = follow(client(answer), interval=7, sleep=polls.append, notice=notices.append)
    told = [next(events) for _ in range(3)]
    assert [(event.data["game"], event.data["seq"]) for event in told] == [(12, 3), (13, 3), (12, 5)]
    assert polls == [7] * 5 and "no event stream" in notices[0]


def test_an_event_reads_as_one_line_whatever_its_data():
    assert event_line(StreamEvent("your_turn", TURN)) == "[your_turn] #12 Love Letter #12 seq 3 - bob played the Priest."
    assert event_line(StreamEvent("chat_message", {"game": {"id": 4}, "text": "hi"})) == "[chat_message] #4 - hi"
    assert event_line(StreamEvent("ping", {"at": 1})) == '[ping] {"at": 1}'
    assert event_line(StreamEvent("message", "plain")) == "[message] plain"
