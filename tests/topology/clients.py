"""What talks to the running stack from outside: HTTPS clients through nginx, an SMTP sink, a mail client."""

from __future__ import annotations

import re
import smtplib
import threading
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import getaddresses, make_msgid
from html.parser import HTMLParser
from pathlib import Path

import requests
from aiosmtpd.controller import Controller
from requests.adapters import HTTPAdapter

from tests.waiting import wait_for

PASSWORD = "a-long-enough-pass-9"
REPLY_ADDRESS = re.compile(r"play\+(?P<user>\d+)\.(?P<game>\d+)\.(?P<seq>\d+)\.")


class MailSink:
    """An SMTP server in this process that keeps every message the service sends."""

    def __init__(self, port: int):
        self.port = port
        self.messages: list[EmailMessage] = []
        self._lock = threading.Lock()
        self._controller = Controller(self, hostname="127.0.0.1", port=port)

    async def handle_DATA(self, server, session, envelope):
        message = message_from_bytes(envelope.original_content or envelope.content, policy=policy.default)
        with self._lock:
            self.messages.append(message)
        return "250 OK"

    def __enter__(self) -> MailSink:
        self._controller.start()
        return self

    def __exit__(self, *exc_info) -> None:
        self._controller.stop()

    def to(self, address: str) -> list[EmailMessage]:
        with self._lock:
            return [m for m in self.messages if address in [a for _, a in getaddresses(m.get_all("To", []))]]


def reply_to_of(message: EmailMessage) -> str:
    addresses = [address for _, address in getaddresses(message.get_all("Reply-To", []))]
    return addresses[0] if addresses else ""


def turn_email(sink: MailSink, address: str, game_id: int, seq: int) -> EmailMessage | None:
    """Return the email that asks ``address`` to move at ``seq`` of the game, if it has come."""
    for message in sink.to(address):
        match = REPLY_ADDRESS.match(reply_to_of(message))
        if match and int(match["game"]) == game_id and int(match["seq"]) == seq:
            return message
    return None


def reply_by_email(port: int, original: EmailMessage, sender: str, body: str) -> None:
    """Answer ``original`` as a mail client would: from the player, to its Reply-To, quoting it."""
    reply = EmailMessage()
    reply["From"] = sender
    reply["To"] = reply_to_of(original)
    reply["Subject"] = f"Re: {original['Subject']}"
    reply["Message-ID"] = make_msgid(domain="client.example")
    reply["In-Reply-To"] = original["Message-ID"]
    reply.set_content(f"{body}\n\nturnbased wrote:\n> (quoted turn email)\n")
    with smtplib.SMTP("127.0.0.1", port, timeout=10) as smtp:
        smtp.send_message(reply)


class FromAddress(HTTPAdapter):
    """Connect from a given loopback address (any of 127.0.0.0/8 is this machine's): a client of its own to nginx,
    which hands that address on (X-Forwarded-For) to the rate limits and stream caps that count addresses."""

    def __init__(self, address: str):
        self.address = address
        super().__init__()

    def init_poolmanager(self, *args, **kwargs):
        super().init_poolmanager(*args, source_address=(self.address, 0), **kwargs)


class Site:
    """HTTPS through nginx, trusting only the test's own certificate."""

    def __init__(self, url: str, certificate: Path):
        self.url = url
        self.certificate = certificate

    def session(self, address: str = "127.0.0.1") -> requests.Session:
        """Return a session to nginx from ``address``."""
        session = requests.Session()
        session.verify = str(self.certificate)
        session.trust_env = False  # no proxy or CA bundle from the environment: straight to nginx
        session.mount("https://", FromAddress(address))
        return session


@dataclass
class Player:
    username: str
    email: str
    token: str
    password: str = PASSWORD
    api: requests.Session = field(repr=False, default=None)
    address: str = "127.0.0.1"  # where the player connects from


CONFIRMATION_LINK = re.compile(r"https://\S+/accounts/confirm-email/[^/\s]+/")


def sign_up(site: Site, sink: MailSink, username: str, address: str = "127.0.0.1") -> Player:
    """Sign a player up through the API from ``address``, confirm the email address by its emailed link, and get an
    API token."""
    email = f"{username}@example.com"
    session = site.session(address)
    answer = session.post(f"{site.url}/api/accounts/", json={"username": username, "email": email,
                                                             "password": PASSWORD}, timeout=10)
    assert answer.status_code == 201, answer.text
    assert "token" not in answer.json(), "no token before the address is confirmed"
    link = wait_for(lambda: next((match.group(0) for message in sink.to(email)
                                  for match in [CONFIRMATION_LINK.search(message.get_body(("plain",)).get_content())]
                                  if match), None), f"the confirmation email to {email}")
    assert link.startswith(site.url), link
    post_the_page_form(site, site.session(address), link)
    answer = session.post(f"{site.url}/api/auth/token/", json={"username": username, "password": PASSWORD,
                                                               "name": "topology test"}, timeout=10)
    assert answer.status_code == 200, answer.text
    token = answer.json()["token"]
    session.headers["Authorization"] = f"Token {token}"
    return Player(username=username, email=email, token=token, api=session, address=address)


class _FormFields(HTMLParser):
    """Collect the named inputs of a page's forms."""

    def __init__(self):
        super().__init__()
        self.fields: dict[str, str] = {}

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "input" and attributes.get("name"):
            self.fields[attributes["name"]] = attributes.get("value") or ""


def post_the_page_form(site: Site, session: requests.Session, url: str, **fields: str) -> requests.Response:
    """Open a page and post its form back as a browser does (its fields, the CSRF token, Origin)."""
    page = session.get(url, timeout=10)
    assert page.status_code == 200, f"{url}: {page.status_code} {page.text[:2000]}"
    form = _FormFields()
    form.feed(page.text)
    answer = session.post(url, data={**form.fields, **fields}, allow_redirects=False, timeout=10,
                          headers={"Origin": site.url, "Referer": url})
    assert answer.status_code == 302, f"{url}: {answer.status_code} {answer.text[:2000]}"
    return answer


def log_in_on_the_website(site: Site, player: Player) -> requests.Session:
    """Log in with the web form, as a browser does (CSRF token, Origin header); return the session."""
    session = site.session(player.address)
    post_the_page_form(site, session, f"{site.url}/accounts/login/", login=player.username, password=player.password)
    return session
