"""Helpers for email tests: deliver the outbox, write replies as a mail client would, play in each language."""

from __future__ import annotations

from email.message import EmailMessage
from email.utils import make_msgid

import pytest
from django.utils import translation

from turnbased.accounts.services.languages import language_choose
from turnbased.local.services import free_port
from turnbased.mail import delivery
from turnbased.mail.smtp import InboundHandler, SinkHandler, start_server
from turnbased.notifications.models import Notification, NotificationKind


# The languages email play is checked in: English, and every language the site speaks besides.
LANGUAGES = ("en", "hu", "de")


@pytest.fixture(params=LANGUAGES)
def players_language(request, alice, bob):
    """Set alice's and bob's accounts to each language in turn: email play must work alike in every one.

    Ask for it before the game and its emails (first among a test's fixtures), so every email is written
    for players who already read that language.
    """
    for user in (alice, bob):
        language_choose(user=user, language=request.param)
    return request.param


def worded(language: str, text: str, **values) -> str:
    """Return ``text`` as the catalogs word it in ``language``, ``values`` put in: what a player reading that
    language must find in an email."""
    with translation.override(language):
        found = translation.gettext(text)
    return found % values if values else found


def title_in(language: str, game) -> str:
    """Return the table's name as a reader of ``language`` sees it (the game's name is the game's to word)."""
    with translation.override(language):
        return game.title


def move_in(language: str, game, move: dict) -> str:
    """Return how ``move`` is written in ``language`` (the game's notation, as the emails list the legal moves)."""
    from games import get_engine

    game.refresh_from_db()
    with translation.override(language):
        return get_engine(game.engine).describe_move(game.state, move)


GUARD_BOB_PRIEST = {"card": "guard", "target": 1, "guess": "priest"}
HANDMAID = {"card": "handmaid"}


@pytest.fixture
def deliver_all():
    """Deliver every unsettled outbox row now; return what happened to each."""

    def deliver():
        return [delivery.deliver(pk) for pk in Notification.objects.filter(sent_at=None, skipped_at=None)
                .order_by("pk").values_list("pk", flat=True)]

    return deliver


def reply_bytes(original, body: str | None = None, *, sender: str | None = None, html: str | None = None,
                to: str | None = None, message_id: str | None = None) -> bytes:
    """Build a reply to ``original`` (a sent EmailMessage) the way a mail client would."""
    reply = EmailMessage()
    reply["From"] = sender or original.to[0]
    reply["To"] = to or original.reply_to[0]
    reply["Subject"] = f"Re: {original.subject}"
    reply["Message-ID"] = message_id or make_msgid(domain="client.example")
    reply["In-Reply-To"] = original.extra_headers["Message-ID"]
    quoted = "\n".join(f"> {line}" for line in original.body.splitlines())
    if body is not None:
        reply.set_content(f"{body}\n\nOn Sun, 29 Nov 2026 at 10:00, turnbased wrote:\n{quoted}\n")
    if html is not None:
        if body is None:
            reply.set_content(html, subtype="html")
        else:
            reply.add_alternative(html, subtype="html")
    return bytes(reply)


def latest_to(mailoutbox, address: str, subject_start: str = ""):
    return [m for m in mailoutbox if m.to == [address] and m.subject.startswith(subject_start)][-1]


@pytest.fixture
def turn_email(started_game, mailoutbox):
    """Alice's turn email for the scripted game (she holds a Guard and a Handmaid)."""
    row = Notification.objects.get(game=started_game, kind=NotificationKind.YOUR_TURN, user__username="alice")
    delivery.deliver(row.pk)  # sent now, or already (a test whose commits run the delivery task)
    email = latest_to(mailoutbox, "alice@example.com")  # her only email yet, in her language
    assert email.reply_to
    return email


@pytest.fixture
def mail_servers(settings):
    """Run the real SMTP sink and inbound server on free loopback ports; return their ports."""
    ports = {"sink": free_port(), "inbound": free_port()}
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", ports["sink"]
    settings.MAIL_INBOUND_HOST, settings.MAIL_INBOUND_PORT = "127.0.0.1", ports["inbound"]
    running = [start_server(SinkHandler(), "127.0.0.1", ports["sink"]),
               start_server(InboundHandler(), "127.0.0.1", ports["inbound"])]
    yield ports
    for server in running:
        server.stop()
