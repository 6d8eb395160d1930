"""The client's machinery without a server: errors, retries, conditional reads, pages (httpx.MockTransport)."""

from __future__ import annotations

import json

import httpx
import pytest

from turnbased_client import ApiError, Client, ConnectionFailed, TurnbasedError
from turnbased_client.core import site_root


def client_answering(*answers, sleeps: list | None = None, **options) -> tuple[Client, list[httpx.Request]]:
    """Return a client whose server gives ``answers`` in turn (each a Response or an exception), and its requests."""
    seen: list[httpx.Request] = []
    queue = list(answers)

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        given = queue.pop(0)
        if isinstance(given, Exception):
            raise given
        return given

    waits = sleeps if sleeps is not None else []
    return Client("http://game.test", token="k", transport=httpx.MockTransport(answer), sleep=waits.append,
                  **options), seen


def test_an_error_answer_raises_one_error_with_the_status_and_the_detail():
    api, _ = client_answering(httpx.Response(422, json={"detail": "Illegal move: no such card.",
                                                        "errors": {"text": ["bad"]}}))
    with pytest.raises(ApiError) as raised:
        api.submit_move(3, expected_seq=1, text="guard nobody")
    assert (raised.value.status, raised.value.detail) == (422, "Illegal move: no such card.")
    assert raised.value.errors == {"text": ["bad"]} and str(raised.value) == "422: Illegal move: no such card."


def test_a_stale_position_error_carries_the_current_seq():
    api, _ = client_answering(httpx.Response(409, json={"detail": "Stale", "seq": 9, "game": {"id": 3}}))
    with pytest.raises(ApiError) as raised:
        api.submit_move(3, expected_seq=1, text="handmaid")
    assert raised.value.current_seq == 9 and raised.value.body["game"] == {"id": 3}


def test_a_move_asks_for_the_movers_answer_unless_told_otherwise():
    played = {"seq": 2, "text": "handmaid", "replayed": False, "game_seq": 2, "status": "active", "to_move": [1],
              "view": {}, "legal_moves": [], "result": None}
    api, seen = client_answering(httpx.Response(201, json=played), httpx.Response(201, json=played))
    api.submit_move(3, expected_seq=1, text="handmaid")
    api.submit_move(3, expected_seq=1, text="handmaid", minimal=False)
    assert [request.headers.get("Prefer") for request in seen] == ["return=minimal", None]


def test_a_problem_document_and_a_body_that_is_not_json_give_a_detail_too():
    problem = {"type": "about:blank", "title": "Not Found", "status": 404}
    assert ApiError.from_answer(404, problem).detail == "Not Found"
    assert ApiError.from_answer(502, "<html>Bad gateway</html>").detail == "<html>Bad gateway</html>"
    assert ApiError.from_answer(500, None, reason="Internal Server Error").detail == "Internal Server Error"


def test_a_503_is_sent_again_after_its_retry_after_and_a_move_keeps_its_idempotency_key():
    sleeps: list[float] = []
    played = {"seq": 2, "text": "handmaid", "replayed": False, "game": {}}
    api, seen = client_answering(httpx.Response(503, json={"detail": "Database away"}, headers={"Retry-After": "2"}),
                                 httpx.Response(201, json=played), sleeps=sleeps)
    assert api.submit_move(3, expected_seq=1, text="handmaid") == played
    assert sleeps == [2.0] and len(seen) == 2
    keys = [json.loads(request.content)["idempotency_key"] for request in seen]
    assert keys[0] == keys[1] and len(keys[0]) >= 16


def test_a_429_that_asks_too_long_a_wait_is_raised_at_once():
    api, seen = client_answering(httpx.Response(429, json={"detail": "Slow down"}, headers={"Retry-After": "600"}),
                                 max_retry_wait=30)
    with pytest.raises(ApiError) as raised:
        api.games()
    assert raised.value.status == 429 and raised.value.retry_after == 600 and len(seen) == 1


def test_retries_stop_after_the_configured_number():
    api, seen = client_answering(*[httpx.Response(503, json={"detail": "away"})] * 3, retries=2)
    with pytest.raises(ApiError):
        api.me()
    assert len(seen) == 3


def test_a_read_is_sent_again_after_a_dropped_connection_but_a_post_is_not():
    api, seen = client_answering(httpx.ConnectError("refused"),
                                 httpx.Response(200, json={"next": None, "previous": None, "results": []}))
    assert api.games() == [] and len(seen) == 2
    api, seen = client_answering(httpx.ReadTimeout("slow"))
    with pytest.raises(ConnectionFailed):
        api.resign(4)
    assert len(seen) == 1


def test_a_create_is_sent_again_under_its_idempotency_key_after_a_dropped_connection():
    table = {"id": 7, "status": "open"}
    api, seen = client_answering(httpx.ReadTimeout("slow"), httpx.Response(201, json=table))
    assert api.create_game("halali") == table and len(seen) == 2
    keys = [request.headers["Idempotency-Key"] for request in seen]
    assert keys[0] == keys[1] and len(keys[0]) >= 16
    api.http.close()
    api, seen = client_answering(httpx.Response(201, json=table), httpx.Response(201, json=table))
    api.create_game("halali")
    api.create_game("halali")
    assert seen[0].headers["Idempotency-Key"] != seen[1].headers["Idempotency-Key"]  # a key per call
    # A move names its body's key in the header too.
    played = {"seq": 2, "text": "handmaid", "replayed": False, "game": {}}
    api, seen = client_answering(httpx.ConnectError("refused"), httpx.Response(201, json=played))
    api.submit_move(3, expected_seq=1, text="handmaid", idempotency_key="mine")
    assert [request.headers["Idempotency-Key"] for request in seen] == ["mine", "mine"]
    assert all(json.loads(request.content)["idempotency_key"] == "mine" for request in seen)


def test_a_game_read_sends_its_etag_back_and_a_304_returns_the_answer_it_had():
    game = {"id": 5, "seq": 3}
    api, seen = client_answering(httpx.Response(200, json=game, headers={"ETag": '"v1"'}),
                                 httpx.Response(304, headers={"ETag": '"v1"'}))
    first = api.game(5)
    first["seq"] = 99  # the caller's copy: the cache keeps its own
    assert api.game(5) == game
    assert "If-None-Match" not in seen[0].headers and seen[1].headers["If-None-Match"] == '"v1"'


def test_reads_that_are_not_conditional_send_no_etag():
    # A game's record carries the moment it was exported: the API gives it no ETag (docs/api.md).
    api, seen = client_answering(httpx.Response(200, json={"format": "x"}, headers={"ETag": '"x"'}),
                                 httpx.Response(200, json={"format": "x"}))
    api.record(5)
    api.record(5)
    assert "If-None-Match" not in seen[1].headers


def test_a_list_answer_may_be_a_list_a_list_under_its_key_or_cursor_pages_followed_to_the_end():
    api, _ = client_answering(httpx.Response(200, json=[{"id": 1}]))
    assert api.tokens() == [{"id": 1}]
    api, seen = client_answering(
        httpx.Response(200, json={"next": "http://game.test/api/tokens/?cursor=abc", "previous": None,
                                  "results": [{"id": 1}]}),
        httpx.Response(200, json={"next": None, "previous": "http://game.test/api/tokens/",
                                  "results": [{"id": 2}]}))
    assert api.tokens() == [{"id": 1}, {"id": 2}]
    assert seen[1].url.params["cursor"] == "abc" and seen[1].headers["Authorization"] == "Token k"


def test_a_page_with_keys_of_its_own_comes_back_whole_with_every_pages_results():
    api, seen = client_answering(
        httpx.Response(200, json={"seq": 9, "next": "/api/games/4/history/?cursor=c2&since=2", "previous": None,
                                  "results": [{"seq": 3}]}),
        httpx.Response(200, json={"seq": 9, "next": None, "previous": "/api/games/4/history/?since=2",
                                  "results": [{"seq": 4}]}))
    assert api.history(4, since=2) == {"seq": 9, "next": None, "previous": None, "results": [{"seq": 3}, {"seq": 4}]}
    assert seen[1].url.params["cursor"] == "c2" and seen[1].url.params["since"] == "2"


def test_a_page_link_to_another_site_is_not_followed_with_the_token():
    api, seen = client_answering(httpx.Response(200, json={"next": "http://evil.test/steal", "results": []}))
    with pytest.raises(TurnbasedError, match="off this site"):
        api.tokens()
    assert len(seen) == 1


def test_path_parameters_are_quoted():
    api, seen = client_answering(httpx.Response(200, json={}))
    api.player("a/b?c")
    assert seen[0].url.raw_path == b"/api/players/a%2Fb%3Fc/"


def test_the_site_may_be_given_with_a_slash_or_its_api_path():
    assert site_root("http://h.test/") == site_root("http://h.test/api/") == "http://h.test"
    with pytest.raises(ValueError):
        site_root("h.test")


def test_a_client_may_ask_for_its_texts_in_a_language():
    api, seen = client_answering(httpx.Response(200, json={"language": "hu", "time_zone": "UTC",
                                                           "reminder_lead_hours": 12}), language="hu")
    assert api.me()["language"] == "hu" and seen[0].headers["Accept-Language"] == "hu"
    plain, seen = client_answering(httpx.Response(200, json={}))
    plain.me()
    assert "Accept-Language" not in seen[0].headers  # the account's language, then
