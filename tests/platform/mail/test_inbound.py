"""Inbound: replies from players make moves, and every rejection is answered by email and changes nothing.

Mail that is not from a player of the game (forged, expired, wrong sender) is
dropped unanswered: see test_inbound_drops.py. The tests that take ``players_language`` run once
for players reading English, Hungarian and German: the same rules, every answer in their language.
"""

from __future__ import annotations

import hashlib
from datetime import date, timedelta

import pytest

from tests.platform.mail.conftest import GUARD_BOB_PRIEST, HANDMAID, move_in, reply_bytes, title_in, worded
from turnbased.kit.errors import GameNotFound, NotAllowed
from turnbased.mail import compose, reading, tasks
from turnbased.mail.inbound import handle_inbound
from turnbased.mail.models import InboundDropReason, InboundEmail
from turnbased.mail.reading import read_headers
from turnbased.mail.reply_text import MAX_COMMAND_LENGTH, first_command, html_to_text
from turnbased.mail.tokens import BadToken, ExpiredToken, read_reply_address, reply_address
from turnbased.mail.verifying import Dropped
from turnbased.play import services
from turnbased.play.models import Move

pytestmark = pytest.mark.django_db


def moves_in(game) -> int:
    return Move.objects.filter(game=game).count()


def answer(mailoutbox, address):
    return [m for m in mailoutbox if m.to == [address]][-1]


def test_a_reply_with_a_move_plays_it_and_confirms(players_language, started_game, turn_email, mailoutbox,
                                                   deliver_all):
    written = move_in(players_language, started_game, GUARD_BOB_PRIEST)  # the move as alice's language writes it
    outcome = handle_inbound(reply_bytes(turn_email, "Guard bob priest", message_id="<r1@client.example>"))
    assert outcome == "played guard bob priest"
    move = Move.objects.get(game=started_game)
    assert move.source == "email" and move.move == {"card": "guard", "target": 1, "guess": "priest"}
    confirmation = answer(mailoutbox, "alice@example.com")
    assert confirmation.subject == f"Re: {turn_email.subject}"
    assert turn_email.subject == worded(players_language, "Your turn: %(game)s",
                                        game=title_in(players_language, started_game))
    assert worded(players_language, 'Your move "%(move)s" was played.', move=written) in confirmation.body
    assert confirmation.extra_headers["In-Reply-To"] == "<r1@client.example>"


def test_the_same_reply_delivered_twice_plays_once_and_answers_once(players_language, started_game, turn_email,
                                                                     mailoutbox):
    raw = reply_bytes(turn_email, "handmaid", message_id="<same@client.example>")
    handle_inbound(raw)
    count = len(mailoutbox)
    assert handle_inbound(raw) == "duplicate"
    assert moves_in(started_game) == 1 and len(mailoutbox) == count


# The reply is kept, then handled once that commits (issue 27): a transaction of the test's own that commits.
@pytest.mark.django_db(transaction=True)
def test_the_task_processes_a_raw_message(players_language, started_game, turn_email):
    tasks.enqueue_inbound(reply_bytes(turn_email, "handmaid"), [turn_email.reply_to[0]])
    assert moves_in(started_game) == 1


NOT_A_MOVE = '"%(move)s" is not a move you can make now, so nothing was played.'


@pytest.mark.parametrize(
    ("body", "heading"),
    [
        ("guard alice priest", NOT_A_MOVE),
        ("princess", NOT_A_MOVE),
        ("dance a jig", NOT_A_MOVE),
        ("", "Your reply had no move in it, so nothing was played."),
        ("x" * 300, "That first line is too long to be a move, so nothing was played."),
    ],
)
def test_bad_commands_are_answered_with_the_reason_and_the_moves(players_language, started_game, turn_email,
                                                                 mailoutbox, body, heading):
    handle_inbound(reply_bytes(turn_email, body))
    assert moves_in(started_game) == 0
    reply = answer(mailoutbox, "alice@example.com")
    assert worded(players_language, heading, **({"move": body} if heading == NOT_A_MOVE else {})) in reply.body
    if heading == NOT_A_MOVE:  # the legal moves, as the player's language writes them
        for move in (GUARD_BOB_PRIEST, HANDMAID):
            assert f"  {move_in(players_language, started_game, move)}\n" in reply.body


def test_an_old_email_after_the_game_moved_on_gets_the_current_position(players_language, started_game, turn_email,
                                                                        alice, mailoutbox):
    handle_inbound(reply_bytes(turn_email, "handmaid"))
    assert handle_inbound(reply_bytes(turn_email, "guard bob priest")) == "stale"
    assert moves_in(started_game) == 1
    reply = answer(mailoutbox, "alice@example.com")
    moved_on = worded(players_language, 'Your move "%(move)s" was not played: the game has moved on since that email.',
                      move="guard bob priest")
    assert moved_on in reply.body and worded(players_language, "Waiting for %(names)s.", names="bob") in reply.body


def test_not_your_turn(players_language, started_game, turn_email, bob, mailoutbox):
    # A token made for bob at the current seq, while it is alice's turn.
    address = reply_address(user_id=bob.pk, game_id=started_game.pk, seq=0)
    handle_inbound(reply_bytes(turn_email, "priest alice", sender="bob@example.com", to=address))
    assert moves_in(started_game) == 0
    assert worded(players_language, "It is not your turn.") in answer(mailoutbox, "bob@example.com").body


def test_an_html_only_reply_is_read(players_language, started_game, turn_email):
    html = ("<html><body><div dir='ltr'>handmaid</div><br><div class='gmail_quote'>On Sunday turnbased wrote:"
            "<blockquote>guard bob priest</blockquote></div></body></html>")
    handle_inbound(reply_bytes(turn_email, None, html=html))
    assert Move.objects.get(game=started_game).move == {"card": "handmaid"}


def test_an_oversized_reply_is_refused(players_language, started_game, turn_email, mailoutbox, settings):
    handle_inbound(reply_bytes(turn_email, "handmaid\n" + "padding " * (settings.MAIL_INBOUND_MAX_BYTES // 8)))
    assert moves_in(started_game) == 0
    refused = worded(players_language, "Your reply was too large to read, so nothing was played.")
    assert refused in answer(mailoutbox, "alice@example.com").body


def test_a_garbled_message_changes_nothing(started_game, turn_email, mailoutbox):
    count = len(mailoutbox)
    assert handle_inbound(b"\x00\xff\xfe garbage \x80 without headers") == "dropped: no_reply_address"
    assert len(mailoutbox) == count and not InboundEmail.objects.exists()
    garbled = reply_bytes(turn_email, "handmaid").replace(b"Content-Type: text/plain", b"Content-Type: text/\xff\x00")
    handle_inbound(garbled)
    assert moves_in(started_game) <= 1  # a readable enough message from the player may still play
    assert InboundEmail.objects.count() == 1 and len(mailoutbox) == count + 1


@pytest.mark.parametrize("refusal", [NotAllowed("You are not playing in this game."), GameNotFound()],
                         ids=["not allowed", "game gone"])
def test_a_reply_the_door_refuses_is_answered_once_with_the_reason_and_plays_nothing(
        started_game, turn_email, mailoutbox, monkeypatch, refusal):
    # The player and the game were checked when the reply came; the door may still refuse (a seat given up, a game
    # deleted meanwhile): the player is told why, once.
    def refuse(**kwargs):
        raise refusal

    monkeypatch.setattr(services, "submit_move", refuse)
    sent = len(mailoutbox)
    assert handle_inbound(reply_bytes(turn_email, "handmaid")) == refusal.detail
    [refused] = mailoutbox[sent:]
    assert refused.to == ["alice@example.com"]
    assert "Nothing was played." in refused.body and str(refusal.detail) in refused.body
    assert moves_in(started_game) == 0 and InboundEmail.objects.get().status == "rejected"


def test_show_help_and_resign(players_language, started_game, turn_email, mailoutbox):
    # The English words, which every player may write whatever their language (test_commands.py: their own).
    assert handle_inbound(reply_bytes(turn_email, "show")) == "show"
    assert worded(players_language, "Here is the game as it stands.") in answer(mailoutbox, "alice@example.com").body
    assert handle_inbound(reply_bytes(turn_email, "HELP")) == "help"
    assert list(InboundEmail.objects.values_list("status", flat=True)) == ["answered", "answered"]
    assert worded(players_language, "How to play by email.") in answer(mailoutbox, "alice@example.com").body
    assert moves_in(started_game) == 0
    handle_inbound(reply_bytes(turn_email, "resign"))
    started_game.refresh_from_db()
    assert started_game.status == "finished" and started_game.result["winners"] == [1]
    assert worded(players_language, "You resigned.") in answer(mailoutbox, "alice@example.com").body


@pytest.mark.parametrize("header", ["Delivered-To", "X-Original-To", "Cc", "envelope"])
def test_the_reply_address_is_found_in_the_envelope_or_any_header_that_names_it(started_game, turn_email, header):
    # A list's or a forwarder's reply reaches us with the address elsewhere than in To.
    address = turn_email.reply_to[0]
    raw = reply_bytes(turn_email, "handmaid", to="the-table@lists.example")
    if header == "envelope":
        assert handle_inbound(raw, [address]) == "played handmaid"
    else:
        assert handle_inbound(raw.replace(b"To: ", f"{header}: {address}\r\nTo: ".encode(), 1)) == "played handmaid"
    assert InboundEmail.objects.get().recipient.lower() == address.lower()


def test_the_sender_is_matched_whatever_the_case_of_the_address(started_game, turn_email):
    assert handle_inbound(reply_bytes(turn_email, "handmaid", sender="ALICE@Example.COM")) == "played handmaid"


def test_what_is_kept_of_a_reply(started_game, turn_email, monkeypatch):
    answers = []
    written = compose.answer_email

    def answer_email(**kwargs):
        answers.append((kwargs["heading"], kwargs["detail"]))
        return written(**kwargs)

    monkeypatch.setattr(compose, "answer_email", answer_email)
    raw = reply_bytes(turn_email, "handmaid", message_id="<kept@client.example>")
    handle_inbound(raw)
    # The move is logged under the message's own key, and its answer says no more than that it was played.
    key = f"email:{hashlib.sha256(b'<kept@client.example>').hexdigest()[:40]}"
    assert Move.objects.get(game=started_game).idempotency_key == key
    assert answers == [('Your move "handmaid" was played.', "")]
    record = InboundEmail.objects.get()
    assert (record.message_id, record.sender, record.recipient, record.command, record.status, record.outcome) == (
        "<kept@client.example>", "alice@example.com", turn_email.reply_to[0], "handmaid", "moved",
        "played handmaid")
    assert record.subject == f"Re: {turn_email.subject}"[:200]


def test_a_reply_without_a_message_id_is_known_by_its_digest(started_game, turn_email):
    raw = reply_bytes(turn_email, "handmaid", message_id="<gone@client.example>")
    raw = raw.replace(b"Message-ID: <gone@client.example>\n", b"")
    assert b"Message-ID" not in raw
    assert handle_inbound(raw) == "played handmaid" and handle_inbound(raw) == "duplicate"
    assert InboundEmail.objects.get().message_id == f"<sha256-{hashlib.sha256(raw).hexdigest()[:40]}>"
    assert moves_in(started_game) == 1


def test_a_subject_is_kept_cut_and_one_in_an_unknown_encoding_as_written(started_game, turn_email):
    raw = reply_bytes(turn_email, "show", message_id="<one@client.example>")
    subject = raw.split(b"Subject: ", 1)[1].split(b"\n", 1)[0]
    handle_inbound(raw.replace(subject, b"=?no-such-charset?q?hello?="))
    assert InboundEmail.objects.get().subject == "=?no-such-charset?q?hello?="
    long = reply_bytes(turn_email, "show", message_id="<two@client.example>")
    handle_inbound(long.replace(subject, b"x" * 300))
    assert InboundEmail.objects.get(message_id="<two@client.example>").subject == "x" * 200


def test_a_first_line_too_long_to_be_a_move_is_kept_cut(started_game, turn_email):
    assert handle_inbound(reply_bytes(turn_email, "handmaid " * 40)) == "too long"
    assert len(InboundEmail.objects.get().command) == MAX_COMMAND_LENGTH and moves_in(started_game) == 0


def test_a_reply_without_a_subject_is_kept_without_one(started_game, turn_email):
    raw = reply_bytes(turn_email, "handmaid")
    subject = raw.split(b"Subject: ", 1)[1].split(b"\n", 1)[0]
    assert handle_inbound(raw.replace(b"Subject: " + subject + b"\n", b"")) == "played handmaid"
    assert InboundEmail.objects.get().subject == ""


def test_headers_the_parser_gives_up_on_leave_only_the_digest_and_the_envelope(turn_email, monkeypatch):
    def gives_up(self, data):
        raise ValueError("garbled")

    monkeypatch.setattr(reading.BytesHeaderParser, "parsebytes", gives_up)
    raw = reply_bytes(turn_email, "handmaid")
    address = turn_email.reply_to[0]
    headers = read_headers(raw, ["someone@else.example", address])
    assert headers == reading.Headers(message_id=f"<sha256-{hashlib.sha256(raw).hexdigest()[:40]}>", sender="",
                                      recipient=address, subject="")


def test_two_senders_name_nobody_and_a_drop_says_why(turn_email):
    raw = reply_bytes(turn_email, "handmaid", sender="alice@example.com, mallory@example.net")
    assert read_headers(raw).sender == ""
    assert read_headers(reply_bytes(turn_email, "handmaid", sender="Alice <alice@example.com>")).sender == (
        "alice@example.com")
    dropped = Dropped(InboundDropReason.WRONG_SENDER)
    assert dropped.reason == str(dropped) == InboundDropReason.WRONG_SENDER


def test_reply_tokens_are_signed_and_survive_case_folding(alice):
    address = reply_address(user_id=alice.pk, game_id=5, seq=9)
    assert read_reply_address(address.upper()).seq == 9
    with pytest.raises(BadToken):
        read_reply_address(address.replace(".9.", ".8."))
    with pytest.raises(BadToken):
        read_reply_address("someone@example.com")
    with pytest.raises(ExpiredToken):
        read_reply_address(address, today=date.today() + timedelta(days=365))


@pytest.mark.parametrize(
    ("text", "command"),
    [
        ("handmaid\n\nOn Sun, Nov 29, 2026 at 10:00 turnbased wrote:\n> guard bob priest", "handmaid"),
        ("\n\n  Guard   Bob  Priest  \n-- \nAlice", "Guard Bob Priest"),
        ("> quoted only\n", ""),
        ("-----Original Message-----\nguard", ""),
        ("prince self\r\nSent from my phone", "prince self"),
    ],
)
def test_the_command_is_the_first_line_of_new_text(text, command):
    assert first_command(text) == command


def test_html_quotes_are_left_out():
    assert html_to_text("<p>king bob</p><blockquote>guard</blockquote>").split() == ["king", "bob"]


# The reply is kept, then handled once that commits (issue 27): a transaction of the test's own that commits.
@pytest.mark.django_db(transaction=True)
def test_a_reply_through_the_providers_inbound_webhook_plays(started_game, turn_email, settings):
    import base64
    import json

    from django.test import Client

    settings.ANYMAIL = {"WEBHOOK_SECRET": "hook:secret"}
    payload = {"RawEmail": reply_bytes(turn_email, "handmaid").decode(), "Headers": []}
    credentials = base64.b64encode(b"hook:secret").decode()
    response = Client().post("/anymail/postmark/inbound/", json.dumps(payload), content_type="application/json",
                             HTTP_AUTHORIZATION=f"Basic {credentials}")
    assert response.status_code == 200
    assert Move.objects.get(game=started_game).move == {"card": "handmaid"}
    forged = Client().post("/anymail/postmark/inbound/", json.dumps(payload), content_type="application/json")
    assert forged.status_code in (400, 401, 403)
