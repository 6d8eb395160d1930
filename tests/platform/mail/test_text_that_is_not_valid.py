"""Email whose text is not valid is read and answered, or refused cleanly; never a server error (issue 42).

A person cannot fix what their mail client wrote, so a message's own text is read leniently: what does not
decode in its charset, or decodes to a lone surrogate (UTF-7 writes ``\\ud800`` as ``+2AA-``), becomes U+FFFD
and the reply is answered. A provider's webhook is a request like any other: JSON holding a lone surrogate is
refused with a 400 before anything is kept (``request_guards.only_for_a_configured_mail_provider``), while a
message posted in a form travels in its own charset and is kept.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json

import pytest
from django.test import Client

from tests.platform.mail.conftest import latest_to, reply_bytes, worded
from turnbased.chat.models import Message
from turnbased.mail.inbound import handle_inbound
from turnbased.mail.models import AcceptedReply, InboundEmail
from turnbased.play.models import Move

pytestmark = pytest.mark.django_db


def in_charset(raw: bytes, charset: str) -> bytes:
    """Return a reply as a mail client writing ``charset`` sends it (its text is ASCII, so its bytes stay)."""
    assert b'charset="utf-8"' in raw
    return raw.replace(b'charset="utf-8"', f'charset="{charset}"'.encode())


def test_a_say_whose_text_decodes_to_a_lone_surrogate_is_posted_readable_and_answered(players_language,
                                                                                      started_game, turn_email,
                                                                                      mailoutbox):
    """The say was never posted nor answered: PostgreSQL refused the message's text, every time it was tried."""
    assert handle_inbound(in_charset(reply_bytes(turn_email, "say hi +2AA- there"), "utf-7")) == "said"
    assert Message.objects.get().text == "hi \ufffd there"
    answer = latest_to(mailoutbox, "alice@example.com", "Re:")
    assert worded(players_language, "Your message was posted to the table.") in answer.body


def test_a_move_whose_text_decodes_to_a_lone_surrogate_is_answered(started_game, turn_email, mailoutbox):
    assert handle_inbound(in_charset(reply_bytes(turn_email, "handmaid +2AA-"), "utf-7")).startswith("illegal")
    assert not Move.objects.filter(game=started_game).exists()
    assert InboundEmail.objects.get().command == "handmaid \ufffd"  # the record keeps what could be read
    assert "is not a move you can make now" in latest_to(mailoutbox, "alice@example.com", "Re:").body


# -- the providers' webhooks ---------------------------------------------------------------------------------

SECRET = "hook:secret"


def post_postmark(settings, **payload):
    """Post Postmark's inbound JSON; the test client raises what the server did not answer (a 500)."""
    settings.ANYMAIL = {"WEBHOOK_SECRET": SECRET}
    return Client().post("/anymail/postmark/inbound/", json.dumps(payload), content_type="application/json",
                         HTTP_AUTHORIZATION="Basic " + base64.b64encode(SECRET.encode()).decode())


def post_mailgun(settings, **fields: str | bytes):
    """Post Mailgun's inbound form as Mailgun does, each field's bytes as given."""
    settings.ANYMAIL = {"MAILGUN_WEBHOOK_SIGNING_KEY": "signing-key"}
    timestamp, token = "1800000000", "a-random-token"
    signature = hmac.new(b"signing-key", f"{timestamp}{token}".encode(), hashlib.sha256).hexdigest()
    given = {"timestamp": timestamp, "token": token, "signature": signature, "sender": "alice@example.com",
             "recipient": "", **fields}
    body = b"".join(f'--XyZ\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'.encode()
                    + (value if isinstance(value, bytes) else value.encode()) + b"\r\n" for name, value in given.items())
    return Client().generic("POST", "/anymail/mailgun/inbound/", body + b"--XyZ--\r\n",
                            content_type="multipart/form-data; boundary=XyZ")


@pytest.mark.parametrize("where", ["OriginalRecipient", "RawEmail", "Headers"])
def test_a_provider_json_with_a_lone_surrogate_is_refused_and_nothing_is_kept(started_game, turn_email, settings,
                                                                              where):
    """In OriginalRecipient it reached the database (a JSON column): a 500, the provider retrying for days."""
    raw = reply_bytes(turn_email, "handmaid").decode()
    payload = {"RawEmail": raw, "Headers": [], "OriginalRecipient": turn_email.reply_to[0]}
    payload[where] = {"OriginalRecipient": "\ud800" + turn_email.reply_to[0],
                      "RawEmail": raw.replace("Subject: ", "Subject: \udc00"),
                      "Headers": [{"Name": "Received-SPF", "Value": "pass \ud800"}]}[where]
    refused = post_postmark(settings, **payload)
    assert refused.status_code == 400 and b"lone surrogate" in refused.content
    assert AcceptedReply.objects.count() == 0


def test_a_provider_json_with_text_beyond_the_basic_plane_is_kept(started_game, turn_email, settings):
    raw = reply_bytes(turn_email, "handmaid").decode().replace("Subject: ", "Subject: \U0001f600 ")
    assert "\\ud83d" in json.dumps(raw)  # sent as a pair of surrogate escapes
    assert post_postmark(settings, RawEmail=raw, Headers=[], OriginalRecipient="").status_code == 200
    assert AcceptedReply.objects.count() == 1


def test_a_message_in_another_charset_in_a_providers_form_is_kept_not_refused(started_game, turn_email, settings):
    """Forms must be UTF-8, but not a provider's: it posts the message as it came, in the message's own charset."""
    raw = reply_bytes(turn_email, "handmaid")
    raw = in_charset(raw, "iso-8859-1").replace(b"\nhandmaid\n", b"\nhandmaid\ncaf\xe9\n", 1)
    assert post_mailgun(settings, **{"body-mime": raw}).status_code == 200
    assert AcceptedReply.objects.count() == 1


def test_a_providers_parsed_headers_with_a_lone_surrogate_are_refused_not_a_server_error(started_game, turn_email,
                                                                                        settings):
    """Mailgun's parsed fields carry the headers as JSON inside the form, which anymail reads, a lone surrogate and
    all: the message cannot be written out again, and the webhook answers 400."""
    headers = json.dumps([["From", "alice@example.com"], ["To", turn_email.reply_to[0] + "\ud800"],
                          ["Subject", "Re: \ud800"]])
    assert post_mailgun(settings, **{"message-headers": headers, "body-plain": "handmaid"}).status_code == 400
    assert AcceptedReply.objects.count() == 0
