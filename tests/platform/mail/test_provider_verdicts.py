"""A provider's SPF or DKIM failure for the sender's domain drops a reply; over our own SMTP such headers do not."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json

import pytest
from django.test import Client

from tests.platform.mail.conftest import reply_bytes
from turnbased.mail.inbound import handle_inbound
from turnbased.mail.models import InboundDrop, InboundDropReason
from turnbased.mail.sender_auth import authentication_failure, provider_verdicts
from turnbased.play.models import Move

pytestmark = [
    # The reply is kept, then handled once that commits (issue 27): the tests' transactions commit.
    pytest.mark.django_db(transaction=True),
    # anymail still ships SendGrid's inbound webhook but no longer tests it against SendGrid.
    pytest.mark.filterwarnings("ignore::anymail.exceptions.AnymailNotSupportedWarning"),
]

SECRET = "hook:secret"
DKIM_FAILED_HEADER = ("Authentication-Results: mx.provider.example; dkim=fail header.d=example.com;"
                      " spf=pass smtp.mailfrom=example.com")


def with_headers_on_top(raw: bytes, *headers: str) -> bytes:
    return "".join(f"{header}\r\n" for header in headers).encode() + raw


def basic_auth() -> str:
    return "Basic " + base64.b64encode(SECRET.encode()).decode()


def post_postmark(raw: bytes, settings, listed_headers=()):
    settings.ANYMAIL = {"WEBHOOK_SECRET": SECRET}
    payload = {"RawEmail": raw.decode(), "Headers": [{"Name": n, "Value": v} for n, v in listed_headers],
               "OriginalRecipient": ""}
    return Client().post("/anymail/postmark/inbound/", json.dumps(payload), content_type="application/json",
                         HTTP_AUTHORIZATION=basic_auth())


def post_sendgrid(raw: bytes, settings, **fields):
    settings.ANYMAIL = {"WEBHOOK_SECRET": SECRET}
    data = {"email": raw.decode(), "envelope": json.dumps({"from": "alice@example.com", "to": ["x"]}), **fields}
    return Client().post("/anymail/sendgrid/inbound/", data, HTTP_AUTHORIZATION=basic_auth())


def post_mailgun(raw: bytes, settings, sender="alice@example.com"):
    settings.ANYMAIL = {"MAILGUN_WEBHOOK_SIGNING_KEY": "signing-key"}
    timestamp, token = "1800000000", "a-random-token"
    signature = hmac.new(b"signing-key", f"{timestamp}{token}".encode(), hashlib.sha256).hexdigest()
    data = {"body-mime": raw.decode(), "sender": sender, "recipient": "", "timestamp": timestamp, "token": token,
            "signature": signature}
    return Client().post("/anymail/mailgun/inbound/", data)


def moves(game) -> int:
    return Move.objects.filter(game=game).count()


def dropped(reason) -> int:
    return sum(InboundDrop.objects.filter(reason=reason).values_list("count", flat=True))


def test_a_provider_dkim_failure_for_the_senders_domain_drops_the_reply(started_game, turn_email, mailoutbox,
                                                                        settings):
    sent = len(mailoutbox)
    response = post_postmark(with_headers_on_top(reply_bytes(turn_email, "handmaid"), DKIM_FAILED_HEADER), settings)
    assert response.status_code == 200
    assert moves(started_game) == 0 and len(mailoutbox) == sent
    assert dropped(InboundDropReason.DKIM_FAILED) == 1


def test_the_same_header_through_our_own_smtp_server_is_not_trusted(started_game, turn_email):
    raw = with_headers_on_top(reply_bytes(turn_email, "handmaid"), DKIM_FAILED_HEADER)
    assert handle_inbound(raw, [turn_email.reply_to[0]]) == "played handmaid"
    assert not InboundDrop.objects.exists()


@pytest.mark.parametrize(
    "header",
    [
        # A failed signature of another domain (a mailing list's) says nothing about the player's.
        "Authentication-Results: mx.provider.example; dkim=fail header.d=lists.example.net",
        # One signature of the domain passed: the message is authentic.
        "Authentication-Results: mx.provider.example; dkim=fail header.d=example.com; dkim=pass header.d=example.com",
        # A soft failure is only a hint.
        "Authentication-Results: mx.provider.example; spf=softfail smtp.mailfrom=alice@example.com",
        "Authentication-Results: mx.provider.example; dkim=pass header.d=example.com",
        "Authentication-Results: this is not ; a valid = header",
    ],
)
def test_verdicts_that_do_not_fail_the_senders_domain_let_the_reply_play(header, started_game, turn_email,
                                                                         settings):
    assert post_postmark(with_headers_on_top(reply_bytes(turn_email, "handmaid"), header), settings).status_code == 200
    assert moves(started_game) == 1
    assert not InboundDrop.objects.exists()


def test_only_the_providers_topmost_results_count(started_game, turn_email, settings):
    """A forger can write a failing verdict lower down, but it only drops the forger's own mail."""
    raw = reply_bytes(turn_email, "handmaid").replace(
        b"Subject:", b"Authentication-Results: mx.other.example; dkim=fail header.d=example.com\r\nSubject:", 1)
    top = "Authentication-Results: mx.provider.example; dkim=pass header.d=example.com"
    assert post_postmark(with_headers_on_top(raw, top), settings).status_code == 200
    assert moves(started_game) == 1


def test_postmarks_received_spf_fail_drops_the_reply(started_game, turn_email, mailoutbox, settings):
    sent = len(mailoutbox)
    listed = [("Received-SPF", "fail (example.com: domain does not designate 192.0.2.1) "
                               "client-ip=192.0.2.1; envelope-from=\"alice@example.com\"; helo=mx.evil.example;")]
    assert post_postmark(reply_bytes(turn_email, "handmaid"), settings, listed).status_code == 200
    assert moves(started_game) == 0 and len(mailoutbox) == sent
    assert dropped(InboundDropReason.SPF_FAILED) == 1


def test_sendgrids_spf_field_fail_drops_the_reply(started_game, turn_email, mailoutbox, settings):
    sent = len(mailoutbox)
    assert post_sendgrid(reply_bytes(turn_email, "handmaid"), settings, SPF="fail").status_code == 200
    assert moves(started_game) == 0 and len(mailoutbox) == sent
    assert dropped(InboundDropReason.SPF_FAILED) == 1


def test_sendgrids_dkim_field_fail_drops_the_reply(started_game, turn_email, settings):
    response = post_sendgrid(reply_bytes(turn_email, "handmaid"), settings, SPF="pass", dkim="{@example.com : fail}")
    assert response.status_code == 200
    assert moves(started_game) == 0 and dropped(InboundDropReason.DKIM_FAILED) == 1


def test_sendgrids_passing_fields_let_the_reply_play(started_game, turn_email, settings):
    response = post_sendgrid(reply_bytes(turn_email, "handmaid"), settings, SPF="pass", dkim="{@example.com : pass}")
    assert response.status_code == 200
    assert moves(started_game) == 1


def test_mailguns_spf_fail_drops_the_reply(started_game, turn_email, settings):
    raw = with_headers_on_top(reply_bytes(turn_email, "handmaid"), "X-Mailgun-Spf: Fail")
    assert post_mailgun(raw, settings).status_code == 200
    assert moves(started_game) == 0 and dropped(InboundDropReason.SPF_FAILED) == 1


def test_a_verdict_needs_a_real_player_first(started_game, turn_email, mailoutbox, settings):
    """The address and the sender are checked before the verdicts: a wrong sender is counted as such."""
    raw = with_headers_on_top(reply_bytes(turn_email, "handmaid", sender="mallory@example.net"), DKIM_FAILED_HEADER)
    post_postmark(raw, settings)
    assert dropped(InboundDropReason.WRONG_SENDER) == 1 and dropped(InboundDropReason.DKIM_FAILED) == 0


class SesEvent:
    def __init__(self, spf_status):
        self.esp_event = {"receipt": {"spfVerdict": {"status": spf_status}}}


def test_amazon_ses_spf_verdicts_are_read():
    from anymail.inbound import AnymailInboundMessage

    message = AnymailInboundMessage.parse_raw_mime_bytes(b"From: alice@example.com\r\n\r\nhandmaid\r\n")
    message.envelope_sender = "bounce@mail.example.com"
    verdicts = provider_verdicts("Amazon SES", SesEvent("FAIL").esp_event, message)
    assert verdicts == [["spf", "fail", "mail.example.com"]]
    assert authentication_failure(verdicts, "alice@example.com") == "spf_failed"
    assert authentication_failure(provider_verdicts("Amazon SES", SesEvent("PASS").esp_event, message),
                                  "alice@example.com") is None
    # An SPF failure of an unrelated bounce domain is not the sender's.
    message.envelope_sender = "bounce@esp.example.org"
    assert authentication_failure(provider_verdicts("Amazon SES", SesEvent("FAIL").esp_event, message),
                                  "alice@example.com") is None
