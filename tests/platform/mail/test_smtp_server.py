"""The local SMTP servers: the inbound one takes 1 MB per message (552 beyond), and only live reply addresses we signed;
both read a message whose text is not valid, and neither fails on it."""

from __future__ import annotations

import smtplib
from datetime import date, timedelta
from email import policy
from email.message import EmailMessage

import pytest

from tests.platform.mail.conftest import reply_bytes
from turnbased.mail.models import InboundDrop, InboundDropReason, InboundEmail, LocalMessage
from turnbased.mail.tokens import reply_address
from turnbased.play.models import Move

# The servers run in their own threads, with their own database connections.
pytestmark = pytest.mark.django_db(transaction=True)


def message_of(size: int, to: str) -> bytes:
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = "alice@example.com", to, "big"
    message.set_content("handmaid\n" + ("x" * 75 + "\n") * (size // 76 + 1))
    return message.as_bytes(policy=policy.SMTP)  # CRLF line ends, as on the wire


def test_a_message_over_one_megabyte_is_refused_with_552(mail_servers, alice, settings):
    assert settings.MAIL_INBOUND_MAX_BYTES == 1024 * 1024
    address = reply_address(user_id=alice.pk, game_id=1, seq=0)
    raw = message_of(settings.MAIL_INBOUND_MAX_BYTES, address)
    with smtplib.SMTP("127.0.0.1", mail_servers["inbound"], timeout=10) as smtp:
        smtp.ehlo()
        assert smtp.esmtp_features["size"] == str(settings.MAIL_INBOUND_MAX_BYTES)
        # A client that declares the size is refused before it sends anything...
        with pytest.raises(smtplib.SMTPSenderRefused) as declared:
            smtp.sendmail("alice@example.com", [address], raw)
        assert declared.value.smtp_code == 552
        # ...and one that does not is refused once the data passes the limit.
        smtp.mail("alice@example.com")
        smtp.rcpt(address)
        code, _ = smtp.data(raw)
        assert code == 552


def test_a_message_under_the_limit_is_accepted(mail_servers, alice):
    address = reply_address(user_id=alice.pk, game_id=1, seq=0)
    with smtplib.SMTP("127.0.0.1", mail_servers["inbound"], timeout=10) as smtp:
        assert smtp.sendmail("alice@example.com", [address], message_of(500_000, address)) == {}


@pytest.mark.parametrize(
    ("make_address", "reason", "words"),
    [
        (lambda user, days: reply_address(user_id=user.pk, game_id=1, seq=0).replace(".0.", ".1.", 1),
         InboundDropReason.FORGED_ADDRESS, "No such mailbox"),
        (lambda user, days: reply_address(user_id=user.pk, game_id=1, seq=0,
                                          today=date.today() - timedelta(days=days + 1)),
         InboundDropReason.EXPIRED_ADDRESS, "expired"),
        (lambda user, days: "games@turnbased.localhost", InboundDropReason.NO_REPLY_ADDRESS, "No such mailbox"),
    ],
    ids=["forged", "expired", "not a reply address"],
)
def test_recipients_we_did_not_sign_are_refused_and_counted(make_address, reason, words, mail_servers, alice,
                                                            settings):
    address = make_address(alice, settings.REPLY_TOKEN_MAX_AGE_DAYS)
    with smtplib.SMTP("127.0.0.1", mail_servers["inbound"], timeout=10) as smtp:
        with pytest.raises(smtplib.SMTPRecipientsRefused) as refused:
            smtp.sendmail("alice@example.com", [address], message_of(10, address))
    code, text = refused.value.recipients[address]
    assert code == 550 and words.encode() in text
    assert InboundDrop.objects.get(reason=reason).count == 1


def test_a_reply_over_smtp_plays(started_game, turn_email, mail_servers):
    with smtplib.SMTP("127.0.0.1", mail_servers["inbound"], timeout=10) as smtp:
        raw = reply_bytes(turn_email, "handmaid").replace(b"\n", b"\r\n")
        smtp.sendmail("alice@example.com", [turn_email.reply_to[0]], raw)
    assert Move.objects.get(game=started_game).move == {"card": "handmaid"}


def test_the_sink_keeps_a_message_whose_text_is_not_valid_as_it_reads(mail_servers):
    """Issue 42: a part in UTF-7 decoded to a lone surrogate and one in an unknown charset raised: the sink answered
    451, and the sender tried again for ever."""
    raw = (b"From: games@turnbased.localhost\r\nTo: alice@example.com\r\nSubject: caf\xe9 +2AA-\r\n"
           b"Message-ID: <odd@turnbased.localhost>\r\nMIME-Version: 1.0\r\n"
           b"Content-Type: multipart/alternative; boundary=XyZ\r\n\r\n"
           b"--XyZ\r\nContent-Type: text/plain; charset=utf-7\r\n\r\nhello +2AA- there\r\n"
           b"--XyZ\r\nContent-Type: text/html; charset=x-no-such-charset\r\n\r\n<p>caf\xc3\xa9 \xff</p>\r\n--XyZ--\r\n")
    with smtplib.SMTP("127.0.0.1", mail_servers["sink"], timeout=10) as smtp:
        assert smtp.sendmail("games@turnbased.localhost", ["alice@example.com"], raw) == {}
    kept = LocalMessage.objects.get(message_id="<odd@turnbased.localhost>")
    assert kept.text == "hello \ufffd there" and kept.html == "<p>café \ufffd</p>"
    assert kept.subject == "caf\ufffd +2AA-"  # a header's byte that is not UTF-8, as the mailbox shows it


def test_a_reply_whose_bytes_are_not_utf8_is_read_and_answered(started_game, turn_email, mail_servers, mailoutbox):
    """The reply's text in a charset it does not declare: what cannot be read is left out, and the move is played."""
    raw = reply_bytes(turn_email, "handmaid").replace(b"\nhandmaid\n", b"\nhandmaid\n\xff\xfe caf\xe9\n", 1)
    raw = raw.replace(b"Subject: ", b"Subject: \xff ", 1).replace(b"\n", b"\r\n")
    with smtplib.SMTP("127.0.0.1", mail_servers["inbound"], timeout=10) as smtp:
        assert smtp.sendmail("alice@example.com", [turn_email.reply_to[0]], raw) == {}
    assert Move.objects.get(game=started_game).move == {"card": "handmaid"}
    assert InboundEmail.objects.get().status == "moved"
