"""Reading Server-Sent Events: the text/event-stream format, and resuming with Last-Event-ID after a drop."""

from __future__ import annotations

import httpx
import pytest

from turnbased_client import ApiError, Client, StreamEvent
from turnbased_client.stream import OPENED, StreamState, parse_event_stream


def events_of(text: str, state: StreamState | None = None) -> list[StreamEvent]:
    return list(parse_event_stream(text.splitlines(), state))


def test_each_event_has_its_kind_its_json_data_and_its_id():
    text = ('id: 41\nevent: your_turn\ndata: {"game": 12, "seq": 7}\n\n'
            'id: 42\nevent: chat_message\ndata: {"game": 12, "text": "hi"}\n\n')
    assert events_of(text) == [StreamEvent("your_turn", {"game": 12, "seq": 7}, "41"),
                               StreamEvent("chat_message", {"game": 12, "text": "hi"}, "42")]


def test_data_lines_join_with_newlines_and_text_that_is_not_json_stays_text():
    assert events_of('data: {"a":\ndata: 1}\n\n') == [StreamEvent("message", {"a": 1}, None)]
    assert events_of("data: line one\ndata:line two\n\n") == [StreamEvent("message", "line one\nline two", None)]


def test_comments_empty_events_and_unknown_fields_are_skipped_and_an_unfinished_event_is_dropped():
    text = ": keep-alive\n\nid: 4\n\nevent: nothing\n\nfoo: bar\ndata: 1\n\nid: 5\ndata: cut off"
    state = StreamState()
    assert events_of(text, state) == [StreamEvent("message", 1, "4")]
    # The bare id (the stream's opening) counts; the cut-off event's does not: the next connection asks for it.
    assert state.last_event_id == "4"


def test_the_id_carries_over_to_later_events_and_retry_sets_the_delay():
    state = StreamState()
    events = events_of("retry: 2500\nid: 9\ndata: 1\n\ndata: 2\n\n", state)
    assert [event.id for event in events] == ["9", "9"] and state.retry_seconds == 2.5


def test_crlf_line_ends_are_read_like_newlines():
    assert events_of("event: game_over\r\ndata: {}\r\n\r\n") == [StreamEvent("game_over", {}, None)]


def streaming_client(*bodies, sleeps: list) -> tuple[Client, list[httpx.Request]]:
    """A client whose /api/stream/ answers each body in turn (a Response, an exception, or stream text)."""
    seen: list[httpx.Request] = []
    queue = list(bodies)

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        given = queue.pop(0)
        if isinstance(given, (Exception, httpx.Response)):
            if isinstance(given, Exception):
                raise given
            return given
        return httpx.Response(200, text=given, headers={"Content-Type": "text/event-stream"})

    return Client("http://game.test", token="k", transport=httpx.MockTransport(answer), sleep=sleeps.append), seen


def test_a_dropped_stream_reconnects_with_the_last_event_id_and_misses_nothing():
    sleeps: list[float] = []
    api, seen = streaming_client(
        'retry: 1000\nid: 1\nevent: game_started\ndata: {"game": 3}\n\nid: 2\nevent: your_turn\ndata: {"seq": 0}\n\n',
        httpx.RemoteProtocolError("peer closed"),
        httpx.Response(503, json={"detail": "busy"}, headers={"Retry-After": "7"}),
        'id: 3\nevent: move\ndata: {"seq": 1}\n\n',
        sleeps=sleeps,
    )
    events = api.stream_events()
    got = [next(events) for _ in range(3)]
    assert [event.id for event in got] == ["1", "2", "3"] and got[2].kind == "move"
    assert "Last-Event-ID" not in seen[0].headers
    assert [request.headers["Last-Event-ID"] for request in seen[1:]] == ["2", "2", "2"]
    assert [request.url.params["last_event_id"] for request in seen[1:]] == ["2", "2", "2"]
    assert seen[0].headers["Accept"] == "text/event-stream" and seen[0].headers["Authorization"] == "Token k"
    assert len(sleeps) == 3 and sleeps[2] >= 7  # after the 503: its Retry-After at least
    assert sleeps[0] < 1.3  # the server's retry (1 s), jittered: the first connection ended, it did not fail


def test_a_stream_resumes_from_a_given_event_id():
    api, seen = streaming_client("id: 8\ndata: {}\n\n", sleeps=[])
    assert next(api.stream_events(last_event_id="7")).id == "8"
    assert seen[0].headers["Last-Event-ID"] == "7"


def test_a_server_without_the_stream_and_a_bad_token_raise_instead_of_retrying():
    for status in (404, 401):
        api, seen = streaming_client(httpx.Response(status, json={"detail": "no"}), sleeps=[])
        with pytest.raises(ApiError) as raised:
            next(api.stream_events())
        assert raised.value.status == status and len(seen) == 1


def test_without_reconnect_the_events_end_with_the_connection_and_a_busy_server_raises():
    api, seen = streaming_client("data: 1\n\n", sleeps=[])
    assert [event.data for event in api.stream_events(reconnect=False)] == [1] and len(seen) == 1
    api, seen = streaming_client(httpx.Response(503, json={"detail": "busy"}), sleeps=[])
    with pytest.raises(ApiError):
        next(api.stream_events(reconnect=False))


def test_a_stream_at_its_own_address_gets_the_token_and_the_rest_stays_on_the_site():
    seen: list[httpx.Request] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        if request.url.path == "/api/stream/":
            return httpx.Response(200, text="id: 3\ndata: {}\n\n")
        return httpx.Response(200, json={"time_zone": "UTC", "reminder_lead_hours": 0})

    api = Client("http://game.test", token="k", stream_url="http://game.test:8001/",
                 transport=httpx.MockTransport(answer))
    assert next(api.stream_events()).id == "3" and api.me()["time_zone"] == "UTC"
    assert [str(request.url) for request in seen] == ["http://game.test:8001/api/stream/", "http://game.test/api/me/"]
    assert seen[0].headers["Authorization"] == "Token k"
    assert Client("http://game.test/api/").stream_url == "http://game.test"


def test_opened_marks_each_connection_and_renew_after_reconnects_at_once_where_it_was():
    sleeps: list[float] = []
    api, seen = streaming_client('id: 1\ndata: "a"\n\n: keep-alive\n\nid: 2\ndata: "b"\n\n',
                                 'id: 3\ndata: "c"\n\n', sleeps=sleeps)
    events = api.stream_events(opened=True, renew_after=0)
    got = [next(events) for _ in range(4)]
    # renew_after=0: each connection is closed after its first event, and the next opened at once after it.
    assert [(event.kind, event.data, event.id) for event in got] == [
        (OPENED, None, None), ("message", "a", "1"), (OPENED, None, "1"), ("message", "c", "3")]
    assert seen[1].headers["Last-Event-ID"] == "1" and sleeps == []
