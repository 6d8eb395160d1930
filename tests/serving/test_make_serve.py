"""`make serve` hosts the service for real on one machine (issue 29): production settings, mail delivered, backups
scheduled, everything supervised.

The whole of ``python -m turnbased.local serve`` (what ``make serve`` runs), once for the module, on a data folder
and ports of its own, with its embedded PostgreSQL and Redis, set up as an operator would: a ``serve.env`` in the
data folder naming the domain, the relay (an SMTP server in this process stands in for it), replies by SMTP and
a quick backup schedule. The test stands in for the proxy in front (it sends what nginx sends: the Host, the
scheme, the client's address) and otherwise talks to the service as the world does: two players sign up through
the API, confirm by the emailed link, finish a game (the first move by replying to the turn email), and the last
scheduled backup, restored with ``python -m turnbased.local restore`` once the service stopped, holds it.
"""

from __future__ import annotations

import itertools
import os
import random
import re
import secrets
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
import requests
from requests.adapters import HTTPAdapter

from tests.faults.test_make_run import command_lines
from tests.topology.clients import MailSink, log_in_on_the_website, reply_by_email, sign_up, turn_email
from tests.waiting import wait_for
from turnbased.local.services import BASE_DIR, free_port, port_answers
from turnbased.local.backup import backups, taken_at

pytestmark = [pytest.mark.serving]

SITE = "https://games.example.test"
PORTS = ("WEB_PORT", "STREAM_PORT", "REDIS_PORT")
# What the test runner sets for the tests themselves; an operator's environment has none of it.
NOT_AN_OPERATORS = ("DATABASE_URL", "CELERY_BROKER_URL", "CACHE_URL", "WORK_DISPATCH", "STREAM_URL",
                    "DATABASE_CONN_MAX_AGE", "DJANGO_SETTINGS_MODULE", "TURNBASED_DATA_DIR", "DJANGO_HTTPS",
                    "TESTS_ONLY_FAST_PASSWORD_HASHING", "EMAIL_PORT", "MAIL_INBOUND_PORT")
BACKUP_INTERVAL_HOURS = 0.001  # 3.6 s: a backup taken after the game, within the test's few seconds
START_TIMEOUT = 120.0
# What each process prints once it is ready to work (the web, the stream and the mail server: their ports answer).
READY_LINES = ("celery@", "mailer@", "hooks@", "bots@", "beat: Starting", "dispatch: listening on turnbased_work",
               "backup: wrote")


class ThroughTheProxy(HTTPAdapter):
    """What the proxy in front does for each request to ``SITE``: it reaches gunicorn on loopback with the Host,
    X-Forwarded-Proto and X-Forwarded-For that nginx sets (deploy/nginx.conf.template)."""

    addresses = (f"203.0.113.{n}" for n in itertools.count(1))  # each session a client of its own

    def __init__(self, web_port: int):
        super().__init__()
        self.web_port, self.client_address = web_port, next(self.addresses)

    def send(self, request, **kwargs):
        parts = urlsplit(request.url)
        proxied = request.copy()
        proxied.url = urlunsplit(parts._replace(scheme="http", netloc=f"127.0.0.1:{self.web_port}"))
        proxied.headers.update({"Host": parts.netloc, "X-Forwarded-Proto": "https",
                                "X-Forwarded-For": self.client_address})
        response = super().send(proxied, **kwargs)
        response.url, response.request = request.url, request  # cookies and redirects as for the site itself
        return response


@dataclass
class Site:
    """The site at its public address, reached through the stand-in proxy (tests.topology.clients's Site)."""

    url: str
    web_port: int

    def session(self, address: str | None = None) -> requests.Session:
        """Return a session through the stand-in proxy; each is a client of its own address (``address``, which
        tests.topology's clients name, is a loopback one there: here the proxy gives every session its own)."""
        session = requests.Session()
        session.trust_env = False
        session.mount(self.url, ThroughTheProxy(self.web_port))
        return session


@dataclass
class Served:
    process: subprocess.Popen
    log: Path
    data: Path
    environment: dict[str, str]
    site: Site
    sink: MailSink
    inbound_port: int
    finished_games: int = 0

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def check_running(self) -> None:
        code = self.process.poll()
        assert code is None, f"make serve exited with {code}:\n{self.output()[-4000:]}"

    def stop(self) -> int:
        """Stop it as systemd or Ctrl-C does; return its exit code."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(60)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            raise


def operator_settings(sink_port: int, inbound_port: int) -> str:
    """Return the serve.env an operator writes for this machine (deploy/serve.env.example)."""
    return "\n".join([
        f"SITE_URL={SITE}",
        "MAIL_DOMAIN=games.example.test",
        "EMAIL_HOST=127.0.0.1",  # the relay
        f"EMAIL_PORT={sink_port}",
        f"MAIL_INBOUND_PORT={inbound_port}",  # replies by SMTP
        f"BACKUP_INTERVAL_HOURS={BACKUP_INTERVAL_HOURS}",
        "BACKUP_KEEP=2",
        "WEB_CONCURRENCY=2",  # gunicorn's size does not matter here; fewer workers leave the shared cores to the rest
        "",
    ])


def operator_environment(data: Path) -> dict[str, str]:
    environment = {name: value for name, value in os.environ.items() if name not in NOT_AN_OPERATORS}
    environment.update({name: str(free_port()) for name in PORTS}, TURNBASED_DATA_DIR=str(data), PYTHONUNBUFFERED="1")
    return environment


@pytest.fixture(scope="module")
def served():
    # Under the repository's .data, not pytest's temporary folder: the embedded PostgreSQL runs as a user of its own
    # when the tests run as root, and another pytest run starting meanwhile makes that folder root's alone again.
    folder = BASE_DIR / ".data" / f"serve-{os.getpid()}-{secrets.token_hex(3)}"
    data, inbound_port = folder / "data", free_port()
    data.mkdir(parents=True)
    with MailSink(free_port()) as sink:
        (data / "serve.env").write_text(operator_settings(sink.port, inbound_port))
        environment = operator_environment(data)
        log = folder / "make-serve.log"
        with log.open("w") as output:
            process = subprocess.Popen([sys.executable, "-m", "turnbased.local", "serve"], env=environment,
                                       cwd=BASE_DIR, stdout=output, stderr=subprocess.STDOUT, start_new_session=True)
        running = Served(process, log, data, environment, Site(SITE, int(environment["WEB_PORT"])), sink,
                         inbound_port)
        try:
            def ready() -> bool:
                running.check_running()
                text = running.output()
                ports = (running.site.web_port, int(environment["STREAM_PORT"]), inbound_port)
                return all(line in text for line in READY_LINES) and all(port_answers(port) for port in ports)
            wait_for(ready, "make serve to be ready", timeout=START_TIMEOUT, every=0.25)
            yield running
        except BaseException:
            print(running.output()[-6000:])
            raise
        finally:
            running.stop()
            shutil.rmtree(folder, ignore_errors=True)


def get(site: Site, path: str, **kwargs) -> requests.Response:
    return site.session().get(f"{site.url}{path}", allow_redirects=False, timeout=10, **kwargs)


def test_it_serves_the_production_settings_behind_the_proxy(served):
    site = served.site
    missing = get(site, "/no-such-page/")
    assert missing.status_code == 404
    assert "<title>Page not found · turnbased</title>" in missing.text and "DEBUG = True" not in missing.text
    assert get(site, "/mailbox/").status_code == 404  # no local mailbox: mail leaves for the relay
    assert "mailbox" not in get(site, "/accounts/login/").text
    answer = get(site, "/static/css/site.css")  # collected at the start, served by whitenoise
    assert answer.status_code == 200 and answer.text == (BASE_DIR / "static" / "css" / "site.css").read_text()
    assert missing.headers["Strict-Transport-Security"].startswith("max-age=31536000")
    # HTTPS only: what did not come through the proxy's TLS is sent there; another host name is refused.
    plain = requests.get(f"http://127.0.0.1:{site.web_port}/games/1/", headers={"Host": "games.example.test"},
                         allow_redirects=False, timeout=10)
    assert plain.status_code == 301 and plain.headers["Location"] == f"{SITE}/games/1/"
    other_host = requests.get(f"http://127.0.0.1:{site.web_port}/", headers={"X-Forwarded-Proto": "https"},
                              allow_redirects=False, timeout=10)
    assert other_host.status_code == 400
    # No demo accounts, and the keys that sign for the site are readable by the service's user alone.
    assert "log in as" not in served.output() and not (served.data / "demo-accounts.json").exists()
    for key in ("secret_key", "vapid_private_key"):
        assert (served.data / key).stat().st_mode & 0o077 == 0, key


def test_two_players_sign_up_and_finish_a_game_with_mail_through_the_relay(served):
    site, sink = served.site, served.sink
    alice, bob = sign_up(site, sink, "alice"), sign_up(site, sink, "bob")  # confirmed by the relay's emails
    created = alice.api.post(f"{site.url}/api/games/", json={"game": "love-letter", "players": 2}, timeout=10)
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    joined = bob.api.post(f"{site.url}/api/games/{game_id}/join/", json={}, timeout=10).json()
    by_seat = {seat["index"]: {"alice": alice, "bob": bob}[seat["username"]] for seat in joined["seats"]}

    # The first move by replying to the turn email: the relay got it, the inbound server takes the answer.
    first = by_seat[joined["to_move"][0]]
    email = wait_for(lambda: turn_email(sink, first.email, game_id, seq=0), f"the turn email to {first.username}")
    legal = first.api.get(f"{site.url}/api/games/{game_id}/legal-moves/", timeout=10).json()
    reply_by_email(served.inbound_port, email, first.email, legal["moves"][0]["text"])
    wait_for(lambda: first.api.get(f"{site.url}/api/games/{game_id}/", timeout=10).json()["seq"] == 1,
             "the emailed move to be played")

    rng = random.Random(29)
    for _ in range(400):
        game = alice.api.get(f"{site.url}/api/games/{game_id}/", timeout=10).json()
        if game["status"] != "active":
            break
        player = by_seat[game["to_move"][0]]
        legal = player.api.get(f"{site.url}/api/games/{game_id}/legal-moves/", timeout=10).json()
        moved = player.api.post(f"{site.url}/api/games/{game_id}/moves/", timeout=10,
                                json={"move": rng.choice(legal["moves"])["move"], "expected_seq": legal["seq"]})
        assert moved.status_code in (200, 201), moved.text
    assert game["status"] == "finished", game
    served.finished_games += 1
    ended = datetime.now(UTC)
    for player in (alice, bob):
        wait_for(lambda: any(m["Subject"].startswith("Game over") for m in sink.to(player.email)),
                 f"the game-over email to {player.username}")
    browser = log_in_on_the_website(site, alice)  # the form's CSRF check passes with the proxy's Host and scheme
    assert "alice" in browser.get(f"{site.url}/", timeout=10).text

    # The schedule takes a backup after the game; the oldest go, the newest two stay.
    folder = served.data / "backups"
    wait_for(lambda: backups(folder) and taken_at(backups(folder)[-1]) > ended, "a backup after the game",
             timeout=4 * BACKUP_INTERVAL_HOURS * 3600)
    assert len(backups(folder)) <= 2
    assert all(path.stat().st_mode & 0o077 == 0 for path in backups(folder))

    text = served.output()
    processes = [line for line in (BASE_DIR / "Procfile").read_text().splitlines()
                 if line.strip() and not line.startswith("#")]
    assert text.count(" started (pid=") == len(processes) + 1, text[-4000:]  # the Procfile's and the backups'
    assert "exited on its own" not in text and " stopped (rc=" not in text, text[-4000:]  # none crashed
    assert "local mail sink" not in text  # the mail server took replies only


def test_it_stops_on_sigterm_and_the_last_backup_restores(served):
    assert served.stop() == 0, served.output()[-4000:]
    time.sleep(0.5)
    left = [line for line in command_lines().values() if str(served.data) in line]
    assert left == [], left
    newest = backups(served.data / "backups")[-1]
    restored = subprocess.run([sys.executable, "-m", "turnbased.local", "restore", str(newest)],
                              env=served.environment, cwd=BASE_DIR, capture_output=True, text=True, timeout=120)
    assert restored.returncode == 0, restored.stdout + restored.stderr
    assert f"checked {served.finished_games} game(s), 0 differ" in restored.stdout, restored.stdout


def test_it_refuses_to_start_without_its_settings(tmp_path):
    environment = operator_environment(tmp_path / "data")
    refused = subprocess.run([sys.executable, "-m", "turnbased.local", "serve"], env=environment, cwd=BASE_DIR,
                             capture_output=True, text=True, timeout=60)
    assert refused.returncode == 2, refused.stdout + refused.stderr
    for name in ("SITE_URL", "MAIL_DOMAIN", "EMAIL_HOST"):
        assert re.search(rf"- {name} is not set", refused.stdout), refused.stdout
    template = tmp_path / "data" / "serve.env"  # written for the operator to fill in, nothing else started
    assert template.read_text() == (BASE_DIR / "deploy" / "serve.env.example").read_text()
    assert template.stat().st_mode & 0o077 == 0  # the relay's password goes in it
    assert sorted(path.name for path in (tmp_path / "data").iterdir()) == ["serve.env"]
