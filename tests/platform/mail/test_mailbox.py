"""The local mail servers and the development mailbox page."""

from __future__ import annotations

import smtplib
from email.message import EmailMessage

import pytest
from django.test import Client

from turnbased.mail import delivery
from turnbased.mail.models import LocalMessage
from turnbased.notifications.models import Notification
from turnbased.play.models import Move

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def servers(mail_servers, settings):
    settings.DEBUG = True
    return mail_servers


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
