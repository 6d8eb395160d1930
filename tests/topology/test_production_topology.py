"""The production topology runs: compose.yaml's processes, behind nginx with TLS, play a whole game.

One stack for the module: external PostgreSQL and Redis, migrate and collectstatic, gunicorn with
deploy/gunicorn.conf.py and DEBUG off, two Celery workers, beat, the mail server and nginx with
deploy/nginx.conf.template, all started from compose.yaml. The test talks to it only as the outside
world does: HTTPS through nginx, and SMTP.
"""

from __future__ import annotations

import ipaddress
import os
import random

import pytest
import requests

from tests.topology.clients import MailSink, Site, log_in_on_the_website, reply_by_email, sign_up, turn_email
from tests.topology.stack import (
    NGINX, RUNNING_STACK, STAND_INS, ProductionStack, django_services, load_compose, nginx_template_path, template_variables,
)
from tests.waiting import wait_for
from turnbased.local import BASE_DIR, free_port

pytestmark = pytest.mark.topology

PUBLIC_PORTS = {"nginx": {"80", "443"}, "mail": {"2526"}}


def published_ports(service: dict) -> set[str]:
    """Return the container ports a compose service publishes on the host."""
    ports = set()
    for entry in service.get("ports", []):
        if isinstance(entry, dict):
            ports.add(str(entry["target"]))
        else:
            ports.add(str(entry).rsplit(":", 1)[-1].split("/")[0])
    return ports


def test_only_nginx_publishes_the_web_and_only_mail_publishes_smtp():
    compose = load_compose()
    published = {name: published_ports(service) for name, service in compose["services"].items()
                 if published_ports(service)}
    assert published == PUBLIC_PORTS
    assert "network_mode" not in compose["services"]["web"]  # host networking would expose it too


def test_gunicorn_trusts_the_scheme_only_from_nginx_in_compose():
    compose = load_compose()
    nginx_address = compose["services"]["nginx"]["networks"]["default"]["ipv4_address"]
    subnet = compose["networks"]["default"]["ipam"]["config"][0]["subnet"]
    assert ipaddress.ip_address(nginx_address) in ipaddress.ip_network(subnet)
    assert compose["services"]["web"]["environment"]["FORWARDED_ALLOW_IPS"] == nginx_address
    assert compose["services"]["nginx"]["environment"]["WEB_UPSTREAM"] == "web:8000"


def test_the_test_runs_exactly_the_services_compose_lists():
    compose = load_compose()
    assert set(compose["services"]) == set(STAND_INS) | set(django_services(compose))
    for name in django_services(compose):
        assert compose["services"][name].get("command"), f"{name} has no command for the test to run"


def test_compose_sets_every_variable_of_the_nginx_template():
    compose = load_compose()
    template = nginx_template_path(compose).read_text()
    assert set(compose["services"]["nginx"]["environment"]) == template_variables(template)


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


def test_static_files_are_served_through_nginx(running):
    stack, site, sink = running
    answer = site.session().get(f"{site.url}/static/css/site.css", timeout=10)
    assert answer.status_code == 200
    assert answer.text == (BASE_DIR / "static" / "css" / "site.css").read_text()
    assert answer.headers["Content-Type"].startswith("text/css")


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
    assert answer.headers["Content-Type"] == "application/json"
    assert "larger than 1 MB" in answer.json()["detail"]


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
