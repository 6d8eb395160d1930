"""The local mail servers and the development mailbox page."""

from __future__ import annotations

import smtplib
import socket
from email.message import EmailMessage

import pytest
from django.test import Client

from turnbased.mail import delivery
from turnbased.mail.models import LocalMessage
from turnbased.mail.smtp import InboundHandler, SinkHandler, start_server
from turnbased.notifications.models import Notification
from turnbased.play.models import Move

pytestmark = pytest.mark.django_db(transaction=True)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def servers(settings):
    sink, inbound = free_port(), free_port()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", sink
    settings.MAIL_INBOUND_HOST, settings.MAIL_INBOUND_PORT = "127.0.0.1", inbound
    settings.DEBUG = True
    running = [start_server(SinkHandler(), "127.0.0.1", sink), start_server(InboundHandler(), "127.0.0.1", inbound)]
    yield {"sink": sink, "inbound": inbound}
    for server in running:
        server.stop()


def test_the_inbound_server_accepts_only_game_addresses(servers):
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = "a@example.com", "postmaster@turnbased.localhost", "hi"
    message.set_content("hello")
    with smtplib.SMTP("127.0.0.1", servers["inbound"], timeout=5) as smtp, pytest.raises(smtplib.SMTPRecipientsRefused):
        smtp.send_message(message)


def test_the_sink_keeps_mail_and_the_mailbox_replies_through_the_inbound_server(servers, started_game):
    for pk in Notification.objects.values_list("pk", flat=True):
        delivery.deliver(pk)
    kept = LocalMessage.objects.get(recipients=["alice@example.com"], subject__startswith="Your turn")
    assert "Your hand: Guard (1), Handmaid (4)" in kept.text and kept.html and kept.reply_to.startswith("play+")

    client = Client()
    listing = client.get("/mailbox/?to=alice@example.com").content.decode()
    assert kept.subject in listing and "bob@example.com" in listing
    page = client.get(f"/mailbox/{kept.pk}/").content.decode()
    assert "Send reply" in page and "srcdoc" in page
    client.post(f"/mailbox/{kept.pk}/", {"body": "handmaid"})  # the reply goes to the inbound server, then a task
    assert Move.objects.get(game=started_game).move == {"card": "handmaid"}
    assert LocalMessage.objects.filter(recipients=["alice@example.com"], subject__startswith="Re:").exists()


def test_the_mailbox_exists_only_in_development(settings):
    settings.DEBUG = False
    assert Client().get("/mailbox/").status_code == 404
