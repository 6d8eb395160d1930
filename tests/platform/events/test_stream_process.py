"""GET /api/stream/ end to end: the stream process (uvicorn) as a subprocess in front of the test database.

Moves are made through the services in committed transactions, as the web process makes them; their
events reach the open streams through PostgreSQL's NOTIFY, and a reconnection with Last-Event-ID
gets exactly the events it missed.
"""

from __future__ import annotations

import contextlib
import signal
import time

import httpx
import pytest
from django.db import connection

from tests.platform.conftest import api_token
from tests.platform.events.streams import APPLICATION_NAME, reading, stream_process
from turnbased.accounts.services.tokens import token_revoke
from turnbased.events.models import Event
from turnbased.kit.db.listening import LISTEN_APPLICATION_NAME
from turnbased.play import services
from turnbased.play.models import Game

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

FAST = {"STREAM_HEARTBEAT_SECONDS": "1"}


def _ids_of(user) -> list[int]:
    return list(Event.objects.filter(user=user).order_by("id").values_list("id", flat=True))


def test_a_move_reaches_the_other_players_stream_and_a_reconnection_gets_exactly_what_it_missed(
        tmp_path, started_game, alice, bob):
    alice_key, bob_key = api_token(alice), api_token(bob)
    with stream_process(tmp_path, **FAST) as stream:
        with reading(stream, bob_key, last_event_id="0") as bob_stream:
            (started,) = bob_stream.take(1)
            assert started.kind == "game_started" and started.data["game"] == started_game.pk
            assert started.data["data"]["seat"] == 1 and started.data["data"]["players"] == ["alice", "bob"]
            assert bob_stream.retry == 3000
            moved_at = time.monotonic()
            services.submit_move(game_id=started_game.pk, user=alice, expected_seq=0, move={"card": "handmaid"})
            played, turn = bob_stream.take(2)
            assert (played.kind, turn.kind) == ("move_played", "your_turn")
            assert played.data["seq"] == turn.data["seq"] == 1
            assert played.data["data"]["text"] == "alice played the Handmaid: protected until alice's next turn."
            assert played.at - moved_at < 2.0, "the event came by NOTIFY, not by a later poll"
            bob_stream.nothing_more(1.5)
            assert "keep-alive" in bob_stream.comments  # a heartbeat came meanwhile
            last_seen = turn.id

        # Bob is away: he moves by another door, alice answers; bob's events wait in the table.
        for user, seat in ((bob, 1), (alice, 0)):
            game = Game.objects.get(pk=started_game.pk)
            services.submit_move(game_id=game.pk, user=user, expected_seq=game.seq, move=_any_move(game, seat=seat))
        missed = [pk for pk in _ids_of(bob) if pk > last_seen]
        assert missed

        with reading(stream, bob_key, last_event_id=str(last_seen)) as bob_again:
            assert [event.id for event in bob_again.take(len(missed))] == missed
            bob_again.nothing_more(1.5)
        with reading(stream, alice_key, query=f"?last_event_id={last_seen}") as alice_stream:
            mine = alice_stream.take(len([pk for pk in _ids_of(alice) if pk > last_seen]))
            assert {event.data["data"]["seat"] for event in mine} == {0}


def _any_move(game, *, seat: int) -> dict:
    from turnbased.play import store

    return store.engine_of(game).legal_moves(game.state, seat)[0]


def test_a_stream_without_last_event_id_starts_now_and_says_where_to_resume(tmp_path, started_game, alice, bob):
    bob_key = api_token(bob)
    with stream_process(tmp_path, **FAST) as stream:
        with reading(stream, bob_key) as bob_stream:
            bob_stream.nothing_more(1.0)  # the game's start came before: not sent
            assert bob_stream.ids == [_ids_of(bob)[-1]]  # the bare id to resume from
            services.submit_move(game_id=started_game.pk, user=alice, expected_seq=0, move={"card": "handmaid"})
            assert [event.kind for event in bob_stream.take(2)] == ["move_played", "your_turn"]


def test_nobody_reads_another_users_events(tmp_path, started_game, alice, bob, make_user):
    carol = make_user("carol")
    services.submit_move(game_id=started_game.pk, user=alice, expected_seq=0, move={"card": "handmaid"})
    with stream_process(tmp_path, **FAST) as stream:
        with reading(stream, api_token(carol), last_event_id="0") as carol_stream:
            carol_stream.nothing_more(1.5)  # events exist, none of them hers
        with reading(stream, api_token(alice), last_event_id="0") as alice_stream:
            received = alice_stream.take(len(_ids_of(alice)))
            alice_stream.nothing_more(1.0)
        assert {event.id for event in received} == set(_ids_of(alice))
        assert not Event.objects.filter(pk__in=[event.id for event in received]).exclude(user=alice).exists()


def test_refusals_are_json(tmp_path, alice):
    key = api_token(alice)
    with stream_process(tmp_path, STREAM_MAX_PER_USER="1") as stream:
        for token in (None, "not-a-token", key[:-1] + ("A" if key[-1] != "A" else "B")):
            with reading(stream, token) as refused:
                assert refused.status_code == 401, refused.text
                assert refused.headers["content-type"] == "application/problem+json"  # issue 42
                assert refused.json()["detail"] and refused.headers["www-authenticate"] == "Token"
        for bad in ("-1", "x", "١٢".encode(), "1" * 19):
            with reading(stream, key, last_event_id=bad) as refused:
                assert refused.status_code == 400 and "Last-Event-ID" in refused.json()["detail"], refused.text
        with reading(stream, key):
            with reading(stream, key) as second:
                assert second.status_code == 429 and second.json()["detail"], second.text
        assert httpx.post(stream.url, headers={"Authorization": f"Token {key}"}).status_code == 405
        not_text = httpx.get(stream.url, headers={"Authorization": b"Token \xff\xfe"})
        assert not_text.status_code == 400 and "Authorization" in not_text.json()["detail"]  # as the web process
        other = httpx.get(stream.url.replace("/api/stream/", "/api/games/"))
        assert other.status_code == 404 and other.json()["detail"]


def test_the_caps_count_an_accounts_and_an_addresss_streams_across_every_stream_process(tmp_path, alice, bob,
                                                                                      make_user):
    """Issue 27: each process counted its own streams, so two processes let an account hold twice its cap."""
    caps = {"STREAM_MAX_PER_USER": "2", "STREAM_MAX_PER_ADDRESS": "3"}
    alices = api_token(alice)
    (tmp_path / "one").mkdir()
    (tmp_path / "two").mkdir()
    with stream_process(tmp_path / "one", **caps) as one, stream_process(tmp_path / "two", **caps) as two:
        with reading(one, alices), reading(two, alices):
            with reading(two, alices) as third:
                assert third.status_code == 429 and "2 streams" in third.json()["detail"], third.text
            with reading(one, api_token(bob)):  # the address's third
                with reading(two, api_token(make_user("carol"))) as fourth:
                    assert fourth.status_code == 429 and "address" in fourth.json()["detail"], fourth.text
        with reading(one, alices), reading(two, alices):  # the ended streams gave their places back
            pass


def _refused_for_the_address(answer) -> bool:
    """Whether the stream was refused (429) for its address's cap: ``reading`` yields a Reader for an opened one."""
    return isinstance(answer, httpx.Response) and answer.status_code == 429 and "address" in answer.json()["detail"]


@pytest.mark.parametrize("forged", ["203.0.113.7", "203.0.113.7, 198.51.100.9", "2001:db8::7"])
def test_a_forged_x_forwarded_for_does_not_dodge_the_address_cap(forged, tmp_path, alice, bob):
    """Issue 42: uvicorn ran with its proxy headers on, which trust X-Forwarded-For from loopback by default, so a
    client there counted its streams under any address it named. With no proxy in front (TRUSTED_PROXY_COUNT 0, as
    here) the header is only text: the stream is counted under the connection's own address."""
    with stream_process(tmp_path, STREAM_MAX_PER_ADDRESS="1") as stream:
        with reading(stream, api_token(alice)) as first:
            assert first.response.status_code == 200, "the first stream opened"
            with reading(stream, api_token(bob), headers={"X-Forwarded-For": forged}) as forging:
                assert _refused_for_the_address(forging), getattr(forging, "text", "the stream opened")


def test_behind_one_proxy_a_stream_is_counted_under_the_address_the_proxy_forwarded(tmp_path, alice, bob,
                                                                                   make_user):
    """TRUSTED_PROXY_COUNT=1 (nginx in front, which writes X-Forwarded-For afresh): the last entry, whatever a
    client put before it."""
    with stream_process(tmp_path, STREAM_MAX_PER_ADDRESS="1", TRUSTED_PROXY_COUNT="1") as stream:
        with reading(stream, api_token(alice), headers={"X-Forwarded-For": "198.51.100.9"}) as first:
            assert first.response.status_code == 200, "the first stream opened"
            with reading(stream, api_token(bob), headers={"X-Forwarded-For": "203.0.113.7"}) as elsewhere:
                assert elsewhere.response.status_code == 200, "another address has its own place"
                carols = api_token(make_user("carol"))
                with reading(stream, carols, headers={"X-Forwarded-For": "203.0.113.8, 198.51.100.9"}) as same:
                    assert _refused_for_the_address(same), getattr(same, "text", "the stream opened")


def test_a_revoked_token_receives_nothing_more(tmp_path, started_game, alice, bob):
    key = api_token(bob, name="to revoke")
    with stream_process(tmp_path, **FAST) as stream:
        with reading(stream, key) as bob_stream:
            token = bob.auth_token_set.get(name="to revoke")
            token_revoke(user=bob, token_id=token.pk)
            services.submit_move(game_id=started_game.pk, user=alice, expected_seq=0, move={"card": "handmaid"})
            bob_stream.nothing_more(1.5)
        with reading(stream, key) as refused:
            assert refused.status_code == 401


def test_revoking_a_token_closes_its_open_stream_at_once_and_no_other(tmp_path, alice, bob):
    """Issue 27: an idle stream of a revoked token stayed open (and counted against the cap) for up to an hour."""
    revoked, kept = api_token(bob, name="to revoke"), api_token(bob, name="kept")
    with stream_process(tmp_path, STREAM_HEARTBEAT_SECONDS="30") as stream:  # no heartbeat, no event: only the wake
        with reading(stream, revoked) as closing, reading(stream, kept) as staying:
            time.sleep(1)  # past the stream's first read: ending there is not what this holds
            token_revoke(user=bob, token_id=bob.auth_token_set.get(name="to revoke").pk)
            assert closing.ended.wait(5), "the revoked token's stream ended at once"
            assert not staying.ended.wait(1), "the other token's stream goes on"
        with reading(stream, revoked) as refused:
            assert refused.status_code == 401


def test_events_still_come_when_the_listen_connection_is_lost(tmp_path, started_game, alice, bob):
    with stream_process(tmp_path, **FAST, STREAM_POLL_SECONDS="1") as stream:
        with reading(stream, api_token(bob)) as bob_stream:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                               "WHERE application_name = %s AND datname = current_database()", [LISTEN_APPLICATION_NAME])
                assert cursor.fetchone(), "the stream process had a LISTEN connection"
            services.submit_move(game_id=started_game.pk, user=alice, expected_seq=0, move={"card": "handmaid"})
            assert [event.kind for event in bob_stream.take(2, timeout=10)] == ["move_played", "your_turn"]
        assert "LISTEN connection was lost" in stream.process.output()


def _stream_connections() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE application_name IN (%s, %s) "
                       "AND datname = current_database()", [APPLICATION_NAME, LISTEN_APPLICATION_NAME])
        return cursor.fetchone()[0]


def test_open_streams_hold_no_database_connection(tmp_path, start_scripted_game, make_user):
    """However many streams are open and woken, the process holds its threads' connections and the LISTEN one."""
    players = [make_user(f"player{number}") for number in range(12)]
    games = [start_scripted_game(players[number], players[number + 1]) for number in range(0, 12, 2)]
    keys = [api_token(player) for player in players]
    with stream_process(tmp_path, STREAM_DATABASE_THREADS="2", STREAM_MAX_PER_ADDRESS="100") as stream:
        with contextlib.ExitStack() as streams:
            readers = [streams.enter_context(reading(stream, key)) for key in keys for _ in range(2)]
            most = _stream_connections()
            for game in games:
                first = game.seats.get(index=0).user
                services.submit_move(game_id=game.pk, user=first, expected_seq=0, move={"card": "handmaid"})
                most = max(most, _stream_connections())
            for reader in readers[2::4]:  # the second player's streams: told of the move, then their turn
                assert [event.kind for event in reader.take(2)] == ["move_played", "your_turn"]
                most = max(most, _stream_connections())
    assert 1 <= most <= 2 + 1, f"{most} connections for 24 streams"


def test_a_stopping_stream_process_ends_its_streams_cleanly(tmp_path, alice):
    """uvicorn waits 2 s (--timeout-graceful-shutdown), then the open streams end and the client resumes elsewhere."""
    with stream_process(tmp_path) as stream:
        with reading(stream, api_token(alice)) as alice_stream:
            started = time.monotonic()
            stream.process.signal(signal.SIGTERM)
            assert alice_stream.ended.wait(10), "the stream did not end"
            assert time.monotonic() - started < 5
            stream.process.popen.wait(10)
    assert "Exception in ASGI application" not in stream.process.output(), stream.process.tail()
