"""The production topology runs: compose.yaml's processes, behind nginx with TLS, play a whole game; and
two of every stateless process do together what one would.

One stack for the module (a second start would cost the suite a minute): external PostgreSQL and Redis,
migrate and collectstatic, then every process compose.yaml runs, once per replica, with DEBUG off: two
gunicorns with deploy/gunicorn.conf.py, two stream processes, two Celery workers of each queue, one beat, the
dispatcher, the mail server, and nginx with deploy/nginx.conf.template. The first tests talk to it only as the
outside world does, HTTPS through nginx and SMTP; the later ones also address one node at a time, as nginx
does, to tell which node did what, and kill some.
"""

from __future__ import annotations

import os
import random
import re
import statistics
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack

import pytest
import requests

from tests.platform.events.streams import Reader, reading
from tests.topology.clients import MailSink, Player, Site, log_in_on_the_website, reply_by_email, sign_up, turn_email
from tests.topology.nodes import (
    drain, emails_of, events_until, first_event, from_address, is_present, mover, play_a_move, rows, start_game,
    stream_nodes, stream_opens, streams_by_address, through_nginx, web_nodes,
)
from tests.topology.stack import (
    CHAT_MESSAGES_PER_MINUTE, NGINX, RUNNING_STACK, STREAMS_PER_ACCOUNT, SWEEP_SECONDS, ProductionStack, wait_until,
)
from tests.topology.tables import Table, freeze_between_commit_and_answer
from tests.waiting import wait_for
from turnbased.local.services import BASE_DIR, free_port

pytestmark = pytest.mark.topology

@pytest.fixture(scope="module")
def running(tmp_path_factory, request):
    """Run the whole stack with an SMTP sink for its outgoing mail; yield (stack, site, sink)."""
    if not NGINX.exists():
        if os.environ.get("CI"):
            pytest.fail(f"{NGINX} is missing: .ci/run installs Debian's nginx package")
        pytest.skip("no nginx on this machine (apt-get install nginx)")
    with MailSink(free_port()) as sink, ProductionStack(
        tmp_path_factory.mktemp("topology"), database_server_url=os.environ["DATABASE_URL"], mail_sink_port=sink.port,
    ) as stack:
        request.config.stash[RUNNING_STACK] = stack  # a failing test's report shows the processes' logs
        try:
            yield stack, Site(stack.site_url, stack.certificate), sink
        finally:
            del request.config.stash[RUNNING_STACK]


def play_a_move_by_api(player, site: Site, game_id: int, rng: random.Random) -> None:
    legal = player.api.get(f"{site.url}/api/games/{game_id}/legal-moves/", timeout=10)
    assert legal.status_code == 200, legal.text
    move = rng.choice(legal.json()["moves"])
    answer = player.api.post(f"{site.url}/api/games/{game_id}/moves/",
                             json={"move": move["move"], "expected_seq": legal.json()["seq"]}, timeout=10)
    assert answer.status_code in (200, 201), answer.text


def test_two_players_sign_up_and_finish_a_game_through_nginx_and_by_email(running):
    stack, site, sink = running
    alice, bob = sign_up(site, sink, "alice"), sign_up(site, sink, "bob")
    created = alice.api.post(f"{site.url}/api/games/", json={"game": "love-letter", "players": 2}, timeout=10)
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    joined = bob.api.post(f"{site.url}/api/games/{game_id}/join/", json={}, timeout=10)
    assert joined.status_code == 200 and joined.json()["status"] == "active", joined.text
    by_seat = {seat["index"]: {"alice": alice, "bob": bob}[seat["username"]] for seat in joined.json()["seats"]}

    # The first move is made by answering the turn email: workers deliver it to the sink, the
    # mail server takes the reply, a worker plays it.
    first = by_seat[joined.json()["to_move"][0]]
    email = wait_for(lambda: turn_email(sink, first.email, game_id, seq=0), f"the turn email to {first.username}")
    legal = first.api.get(f"{site.url}/api/games/{game_id}/legal-moves/", timeout=10).json()
    reply_by_email(stack.ports.mail_inbound, email, first.email, legal["moves"][0]["text"])
    wait_for(lambda: first.api.get(f"{site.url}/api/games/{game_id}/", timeout=10).json()["seq"] == 1,
             "the emailed move to be played")
    history = first.api.get(f"{site.url}/api/games/{game_id}/history/?since=0", timeout=10).json()
    assert history["seq"] == 1 and history["results"], history

    rng = random.Random(10)
    for _ in range(400):
        game = alice.api.get(f"{site.url}/api/games/{game_id}/", timeout=10).json()
        if game["status"] != "active":
            break
        play_a_move_by_api(by_seat[game["to_move"][0]], site, game_id, rng)
    assert game["status"] == "finished" and len(game["result"]["winners"]) == 1, game
    for player in (alice, bob):
        wait_for(lambda: any(m["Subject"].startswith("Game over") for m in sink.to(player.email)),
                 f"the game-over email to {player.username}")

    # The website works through nginx too: a form login passes Django's same-origin checks only
    # when nginx hands on the Host and the scheme correctly.
    browser = log_in_on_the_website(site, alice)
    lobby = browser.get(f"{site.url}/", timeout=10)
    assert lobby.status_code == 200 and "alice" in lobby.text


def test_a_bots_turns_are_played_by_the_bots_workers_and_by_no_other(running):
    """Bot turns have a queue and workers of their own (turnbased/config/schedule.py, compose.yaml's ``bots``): a
    game against a bot, opened through nginx, gets the bot's moves, and only the bots processes' logs show its
    turns."""
    stack, site, sink = running
    hal = sign_up(site, sink, "hal")
    created = hal.api.post(f"{site.url}/api/games/", timeout=10,
                           json={"game": "love-letter", "players": 2, "bots": {"1": "random"}})
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    rng = random.Random(4)

    def the_bot_moved() -> bool:
        if rows(stack, "SELECT 1 FROM play_move WHERE game_id = %s AND source = 'bot'", (game_id,)):
            return True
        game = hal.api.get(f"{site.url}/api/games/{game_id}/", timeout=10).json()
        if game["status"] == "active" and game["to_move"] == [0]:
            play_a_move_by_api(hal, site, game_id, rng)
        return False

    wait_for(the_bot_moved, "the bot's move", timeout=30)
    played_by = {process.name for process in stack.long_running() if "play_bot_turn[" in process.output()}
    assert played_by and played_by <= {process.name for process in stack.services["bots"]}, played_by


def test_static_files_are_served_through_nginx(running):
    stack, site, sink = running
    answer = site.session().get(f"{site.url}/static/css/site.css", timeout=10)
    assert answer.status_code == 200
    assert answer.text == (BASE_DIR / "static" / "css" / "site.css").read_text()
    assert answer.headers["Content-Type"].startswith("text/css")


def test_pages_and_api_answers_come_compressed_through_nginx_and_the_stream_does_not(running):
    stack, site, sink = running
    session = site.session()
    page = session.get(f"{site.url}/accounts/login/", headers={"Accept-Encoding": "gzip"}, timeout=10)
    assert page.status_code == 200 and page.headers.get("Content-Encoding") == "gzip" and "<html" in page.text
    schema = session.get(f"{site.url}/api/schema/?format=json", headers={"Accept-Encoding": "gzip"}, timeout=10)
    assert schema.status_code == 200 and schema.headers.get("Content-Encoding") == "gzip"


def test_plain_http_redirects_to_https(running):
    stack, site, sink = running
    answer = requests.get(f"http://127.0.0.1:{stack.ports.http}/games/1/?tab=moves", allow_redirects=False,
                          timeout=10)
    assert answer.status_code == 301
    assert answer.headers["Location"] == f"{site.url}/games/1/?tab=moves"


def test_an_api_body_over_the_limit_gets_a_json_413_from_nginx(running):
    stack, site, sink = running
    answer = site.session().post(f"{site.url}/api/accounts/", data=b"{" + b" " * (1024 * 1024 + 1) + b"}",
                                 headers={"Content-Type": "application/json"}, timeout=10)
    assert answer.status_code == 413
    assert answer.headers["Content-Type"] == "application/problem+json"
    problem = answer.json()
    assert "larger than 1 MB" in problem["detail"] and (problem["type"], problem["status"]) == ("about:blank", 413)


def test_the_event_stream_comes_through_nginx_as_each_event_is_written(running):
    """nginx routes /api/stream/ to the stream process and buffers nothing: a move's event arrives at once."""
    stack, site, sink = running
    carol, dave = sign_up(site, sink, "carol"), sign_up(site, sink, "dave")
    game_id = carol.api.post(f"{site.url}/api/games/", json={"game": "love-letter", "players": 2}, timeout=10).json()["id"]
    joined = dave.api.post(f"{site.url}/api/games/{game_id}/join/", json={}, timeout=10).json()
    by_seat = {seat["index"]: {"carol": carol, "dave": dave}[seat["username"]] for seat in joined["seats"]}
    mover, watcher = by_seat[joined["to_move"][0]], by_seat[1 - joined["to_move"][0]]
    with watcher.api.get(f"{site.url}/api/stream/", stream=True, timeout=10) as stream:
        assert stream.status_code == 200 and stream.headers["Content-Type"].startswith("text/event-stream")
        # Chunks as they arrive (a fixed size would wait for more bytes than an event has).
        lines = stream.iter_lines(chunk_size=None, decode_unicode=True)
        assert next(lines).startswith("retry: ")  # the opening came through before any event
        play_a_move_by_api(mover, site, game_id, random.Random(1))
        # The first event is the move. (Not "your_turn" next: a move can end the round with the watcher
        # knocked out, and the round's winner moves first in the next one.)
        first = next(line for line in lines if line.startswith("event: "))
    assert first == "event: move_played", first
    refused = requests.get(f"{site.url}/api/stream/", verify=str(site.certificate), timeout=10)
    assert refused.status_code == 401 and refused.json()["detail"]


# --- Two of every stateless process -----------------------------------------------------------------------------
# compose.yaml runs two web, two stream, two worker, two mailer, two hooks and two bots processes: the tests below
# address one node at a time (as nginx does: tests/topology/nodes.py) and count what the two do together.

# Each test's players (gus only chats in the rate limit's test: the limit counts per account and address).
PLAYERS = ("ann", "ben", "cat", "dan", "eve", "fay", "gus")


@pytest.fixture(scope="module")
def players(running) -> dict[str, Player]:
    """Sign the players up at once, each from a loopback address of their own (as real players come from theirs)."""
    stack, site, sink = running
    with ThreadPoolExecutor(len(PLAYERS)) as pool:
        signed_up = pool.map(lambda name, address: sign_up(site, sink, name, address=address), PLAYERS,
                             [f"127.0.0.{11 + number}" for number in range(len(PLAYERS))])
        return {player.username: player for player in signed_up}


def test_a_move_made_through_one_web_node_reaches_a_stream_held_by_the_other(running, players):
    stack, site, sink = running
    ann, ben = players["ann"], players["ben"]
    game_id, by_seat = start_game(site, ann, ben)
    web = web_nodes(stack)[0]
    sessions = {player.username: web.session(player, address=player.address) for player in (ann, ben)}
    rng, delays = random.Random(3), []
    with reading(stream_nodes(stack)[1], ann.token) as followed:
        for _ in range(40):  # moves, of which ben's (about half) are timed
            player = mover(lambda p: sessions[p.username], web.url(""), game_id, by_seat)
            if player is None or len(delays) == 5:
                break
            seq, sent = play_a_move(sessions[player.username], web.url(""), game_id, rng)
            if player is ann:
                continue  # a player is told of the others' moves, not of their own
            event = first_event(followed, lambda e, seq=seq: e.kind == "move_played" and e.data["seq"] == seq,
                                f"move {seq} on the other stream node")
            delays.append(event.at - sent)
    print(f"\nmove sent to {web.name} -> event on {stack.services['stream'][1].name}: "
          f"{len(delays)} moves, median {statistics.median(delays) * 1000:.0f} ms, max {max(delays) * 1000:.0f} ms")
    assert len(delays) >= 3 and max(delays) < 2.0, delays


def test_a_rate_limit_counted_across_both_web_nodes_is_reached_at_its_rate_not_twice_it(running, players):
    stack, site, sink = running
    gus = players["gus"]
    game_id, _ = start_game(site, gus, players["ann"])
    nodes = web_nodes(stack)
    sessions = [node.session(gus, address=gus.address) for node in nodes]
    answered = []  # (node, status) of each chat message, the nodes taken in turn
    for number in range(2 * CHAT_MESSAGES_PER_MINUTE + 1):
        node = number % 2
        answer = sessions[node].post(nodes[node].url(f"/api/games/{game_id}/messages/"),
                                     json={"text": f"hi {number}"}, timeout=10)
        assert answer.status_code in (201, 429), answer.text
        answered.append((nodes[node].name, answer.status_code))
        if answer.status_code == 429 and len(answered) > CHAT_MESSAGES_PER_MINUTE + 1:
            break  # refused by both nodes
    accepted = [name for name, status in answered if status == 201]
    print(f"\nchat messages at {CHAT_MESSAGES_PER_MINUTE}/min, nodes in turn: {len(accepted)} accepted "
          f"({accepted.count(nodes[0].name)} by {nodes[0].name}, {accepted.count(nodes[1].name)} by "
          f"{nodes[1].name}), then refused by {[name for name, status in answered if status == 429]}")
    assert len(accepted) == CHAT_MESSAGES_PER_MINUTE, answered
    assert [status for _, status in answered[CHAT_MESSAGES_PER_MINUTE:]] == [429, 429], answered


def test_the_stream_cap_of_an_account_holds_across_both_stream_nodes(running, players):
    stack, site, sink = running
    dan = players["dan"]
    nodes = stream_nodes(stack)
    with ExitStack() as held:
        opened = []  # per attempt, the nodes in turn: a Reader (200) or the refused answer
        for number in range(STREAMS_PER_ACCOUNT + 2):
            opened.append(held.enter_context(reading(nodes[number % 2], dan.token)))
        statuses = [getattr(stream, "status_code", 200) for stream in opened]
        print(f"\n{STREAMS_PER_ACCOUNT} streams an account, the two nodes in turn: {statuses}")
        assert statuses == [200] * STREAMS_PER_ACCOUNT + [429, 429], statuses
    # Every stream closed: each node takes a new one soon (their slots were given back, not left to lapse).
    for node in nodes:
        wait_for(lambda node=node: stream_opens(node, dan.token), f"{node.process.name} to take a stream again",
                 timeout=10, every=0.2)


def test_a_stream_through_nginx_is_counted_under_its_clients_address_not_nginxs(running, players):
    """compose.yaml's stream process trusts nginx's X-Forwarded-For: else every stream counted under nginx's address,
    and the whole site could hold STREAM_MAX_PER_ADDRESS streams."""
    stack, site, sink = running
    eve = players["eve"]
    with reading(through_nginx(stack), eve.token, transport=from_address(stack, eve.address)) as followed:
        assert isinstance(followed, Reader), followed
        counted = streams_by_address(stack)
    assert counted.get(eve.address) == 1, counted


def test_presence_noted_by_the_stream_nodes_holds_back_the_turn_email_a_mailer_decides(running, players):
    """Each stream node notes its player on the game's page in the shared cache; the mailers (the mail queue's
    workers), deciding the turn email of the game's start, find them there and hold it back."""
    stack, site, sink = running
    eve, fay, ann, ben = (players[name] for name in ("eve", "fay", "ann", "ben"))
    created = eve.api.post(f"{site.url}/api/games/", json={"game": "love-letter", "players": 2}, timeout=10)
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    nodes = stream_nodes(stack)
    with reading(nodes[0], eve.token, query=f"?game={game_id}") as eve_there, \
            reading(nodes[1], fay.token, query=f"?game={game_id}") as fay_there:
        assert isinstance(eve_there, Reader) and isinstance(fay_there, Reader)
        for player in (eve, fay):  # each stream node has noted its player's page as open, in the shared cache
            wait_for(lambda player=player: is_present(stack, player, game_id), f"{player.username}'s presence", 10)
        joined = web_nodes(stack)[1].session(fay, address=fay.address).post(
            web_nodes(stack)[1].url(f"/api/games/{game_id}/join/"), json={}, timeout=10)
        assert joined.status_code == 200 and joined.json()["status"] == "active", joined.text
        # A game started after it, between players away from their pages: its first mover's turn email comes.
        control_id, _ = start_game(site, ann, ben)
        wait_for(lambda: any(emails_of(sink, player, control_id, "Your turn") for player in (ann, ben)),
                 "the turn email of a game nobody watches")
        time.sleep(2)  # and a little more for the first game's, queued before it, had it been coming
        held = [player.username for player in (eve, fay) if emails_of(sink, player, game_id, "Your turn")]
        waiting = rows(stack, "SELECT count(*) FROM notifications_notification WHERE game_id = %s "
                              "AND kind = 'your_turn' AND sent_at IS NULL AND skipped_at IS NULL", (game_id,))[0][0]
    assert held == [] and waiting == 1, (held, waiting)


def test_a_cached_setting_dropped_through_one_web_node_is_not_served_stale_by_the_other(running, players):
    """A person's language and time zone are cached (accounts.readers); a change through one node drops the entry in
    the shared cache, so the other node's next page reads the new one."""
    stack, site, sink = running
    cat = players["cat"]
    cookie = "; ".join(f"{c.name}={c.value}" for c in log_in_on_the_website(site, cat).cookies)  # caches the settings
    first, second = web_nodes(stack)

    def language_of_the_page() -> str:
        page = second.session(address=cat.address).get(second.url("/"), headers={"Cookie": cookie}, timeout=10)
        assert page.status_code == 200, page.text[:500]
        return re.search(r'<html lang="([^"]*)"', page.text)[1]

    settings_through_first = first.session(cat, address=cat.address)
    try:
        assert language_of_the_page() == "en"
        changed = settings_through_first.patch(first.url("/api/me/"), json={"language": "de"}, timeout=10)
        assert changed.status_code == 200, changed.text
        assert language_of_the_page() == "de"
    finally:
        settings_through_first.patch(first.url("/api/me/"), json={"language": ""}, timeout=10)


def began(line: str) -> float:
    """Return when the request of an access-log line began (``began=msec-request_time``, seconds since the epoch)."""
    finished, took = line.split(" began=", 1)[1].split()[0].split("-")
    return float(finished) - float(took)


def test_a_web_node_killed_with_moves_in_flight_loses_none_and_doubles_none(running, players):
    """Three tables play through nginx while web node 1 freezes and then dies (SIGKILL of its whole process group):
    frozen the moment a move it has committed is not answered yet, so the kill surely falls on writes in flight,
    that one among them, rather than between requests. Each client sends a lost write again under its
    Idempotency-Key until it is answered; afterwards each game's log holds exactly the moves answered, and the chat
    each message answered, once."""
    stack, site, sink = running
    doomed, survivor = web_nodes(stack)
    tables = [Table(site, *start_game(site, players[first], players[second]), random.Random(number))
              for number, (first, second) in enumerate((("ann", "ben"), ("cat", "dan"), ("eve", "fay")))]
    for table in tables:
        table.start()
    access_log = stack.folder / "logs" / "nginx-access.log"
    try:
        wait_for(lambda: all(len(table.moves) >= 2 or not table.is_alive() for table in tables), "a few moves", 60)
        freeze_between_commit_and_answer(stack, stack.services["web"][0], tables)
        # Requests begun from here on: the frozen node answers none of them, and a line of one it answered before
        # may yet be written after this (nginx logs a request when it ends), so lines are told by when they began.
        killed_at = time.time()
        stack.kill(stack.services["web"][0])
        at_kill = [len(table.moves) for table in tables]
        wait_for(lambda: all(len(table.moves) >= count + 3 or not table.is_alive()
                             for table, count in zip(tables, at_kill)), "moves after the kill", 60)
    finally:
        for table in tables:
            table.stop.set()
        for table in tables:
            table.join(60)
        stack.start_again(stack.services["web"][0])
    for table in tables:
        assert table.error is None and not table.is_alive(), table.error
        logged = rows(stack, "SELECT seq, idempotency_key FROM play_move WHERE game_id = %s ORDER BY seq",
                      (table.game_id,))
        answered = sorted((seq, key) for seq, key, _ in table.moves)
        assert logged == answered, (table.game_id, logged, answered)  # none lost, none twice
        said = rows(stack, "SELECT text FROM chat_message WHERE game_id = %s", (table.game_id,))
        assert Counter(text for text, in said) == Counter(table.messages), (said, table.messages)
    after_kill = [line for line in access_log.read_text().splitlines()
                  if began(line) >= killed_at and line.split('" ')[1].split()[0] not in ("499", "502", "504")]
    last_upstreams = {line.rsplit("upstream=", 1)[1].split(", ")[-1] for line in after_kill}
    lost, replayed = sum(table.lost_answers for table in tables), sum(table.replays for table in tables)
    print(f"\n{sum(at_kill)} moves before the kill, {sum(len(table.moves) for table in tables) - sum(at_kill)} after; "
          f"{lost} writes lost their answer when {doomed.name} died and were sent again, {replayed} of them done "
          f"already (answered as the first time); {len(after_kill)} requests after it, served by "
          f"{sorted(last_upstreams)} ({survivor.name} is 127.0.0.1:{survivor.port})")
    assert replayed >= 1 and lost >= replayed, (lost, replayed)
    assert last_upstreams == {f"127.0.0.1:{survivor.port}"}, last_upstreams


def test_a_second_beat_started_by_mistake_does_nothing_twice(running, players):
    """Both beats send every sweep (each SWEEP_SECONDS here) for a while: a deadline's reminder is emailed once, and a
    late turn is played once. (tests/faults/test_two_beats.py races many late turns; this is the stack as deployed.)"""
    stack, site, sink = running
    ann, ben, cat, dan = (players[name] for name in ("ann", "ben", "cat", "dan"))
    beats = [stack.services["beat"][0], stack.start_extra("beat-2", [
        "celery", "-A", "turnbased", "beat", "--loglevel=info", f"--schedule={stack.folder / 'beat-2-schedule'}"],
        like="beat")]

    def sweeps(beat) -> int:
        return beat.output().count("Sending due task sweep-clocks")

    before = [sweeps(beat) for beat in beats]
    one_day = {"time_control": {"kind": "per_move", "days_per_move": 1}}
    timeouts = "SELECT count(*) FROM play_move WHERE game_id = %s AND source = 'timeout'"
    try:
        for player in (ann, ben):  # a one-day clock's deadline is within their reminder lead from the start
            answer = player.api.patch(f"{site.url}/api/me/", json={"reminder_lead_hours": 48}, timeout=10)
            assert answer.status_code == 200, answer.text
        wait_until(lambda: "beat: Starting" in beats[1].output(), "the second beat to start", beats)
        reminded, by_seat = start_game(site, ann, ben, **one_day)
        late_game, _ = start_game(site, cat, dan, **one_day)
        rows(stack, "UPDATE clocks_seatclock SET deadline = now() - interval '1 minute' "
                    "WHERE game_id = %s AND turn_started_at IS NOT NULL", (late_game,))
        (first_seat,), = rows(stack, "SELECT seat FROM clocks_seatclock WHERE game_id = %s "
                                     "AND turn_started_at IS NOT NULL", (reminded,))
        wait_for(lambda: 0 in emails_of(sink, by_seat[first_seat], reminded, "Reminder"), "the reminder email", 30)
        wait_for(lambda: rows(stack, timeouts, (late_game,))[0][0] >= 1, "the late turn to be played", 30)
        done = sweeps(beats[1])  # then two sweeps more from each beat: none may do the work again
        wait_for(lambda: sweeps(beats[1]) >= done + 2, "two more sweeps from the second beat", 5 * SWEEP_SECONDS)
        time.sleep(1)  # and the sweeps they sent last run
        sent = [sweeps(beat) - count for beat, count in zip(beats, before)]
    finally:
        stack.stop_extra(beats[1])
    reminders = {player.username: Counter(emails_of(sink, player, reminded, "Reminder")) for player in (ann, ben)}
    told = Counter(rows(stack, "SELECT user_id, seq FROM events_event WHERE game_id = %s AND kind = 'deadline_near'",
                        (reminded,)))
    played_late = rows(stack, timeouts, (late_game,))[0][0]
    print(f"\nsweeps of the clocks sent by each beat meanwhile: {sent}; late turns played: {played_late}; "
          f"reminder emails by player and seq: {reminders}; deadline_near events by player and seq: {told}")
    assert min(sent) >= 2, sent
    assert played_late == 1
    assert reminders[by_seat[first_seat].username][0] == 1
    assert all(count == 1 for seen in reminders.values() for count in seen.values()), reminders
    assert told and all(count == 1 for count in told.values()), told


def test_a_stream_node_killed_loses_no_event_for_a_client_that_resumes(running, players):
    """A client follows its stream on stream node 1 while its game goes on; the node is killed; the client reconnects
    through nginx (which finds node 2) with Last-Event-ID and gets every event it missed, in order, none twice."""
    stack, site, sink = running
    cat, dan = players["cat"], players["dan"]
    game_id, by_seat = start_game(site, cat, dan)
    table = Table(site, game_id, by_seat, random.Random(5))
    doomed, survivor = stream_nodes(stack)
    try:
        with reading(doomed, cat.token) as first:
            start = first.ids[-1]  # the opening's id: where a stream that resumes from here begins
            table.start()
            received = first.take(3, timeout=30)
            stack.kill(doomed.process)
            assert first.ended.wait(10), "the stream did not end with its node"
            received += drain(first)
        with reading(through_nginx(stack), cat.token, last_event_id=str(received[-1].id),
                     transport=from_address(stack, cat.address)) as again:
            assert isinstance(again, Reader), again
            wait_for(lambda: len(table.moves) >= 8 or not table.is_alive(), "moves after the kill", 60)
            table.stop.set()
            table.join(60)
            (last,), = rows(stack, "SELECT max(id) FROM events_event WHERE user_id = "
                                   "(SELECT id FROM auth_user WHERE username = %s)", (cat.username,))
            received += events_until(again, last)
        with reading(survivor, cat.token, last_event_id=str(start)) as everything:
            expected = events_until(everything, last)
    finally:
        table.stop.set()
        stack.start_again(doomed.process)
    ids = [event.id for event in received]
    played = [event.data["seq"] for event in expected if event.kind == "move_played"]
    print(f"\n{len(ids)} events followed across the kill of {doomed.process.name} ({len(table.moves)} moves); "
          f"the same {len(expected)} to a stream resuming from the start")
    assert table.error is None, table.error
    assert ids == [event.id for event in expected], (ids, [event.id for event in expected])
    # A player is told of the others' moves (their own they sent).
    assert played == [seq for seq, _, seat in table.moves if by_seat[seat] is dan], (played, table.moves)
