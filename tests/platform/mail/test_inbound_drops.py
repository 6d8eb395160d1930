"""Mail that is not from a player of the game its address names is dropped: no answer, no move, one counter row."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.contrib.admin.sites import site
from django.db.models import QuerySet, Sum

from tests.platform.mail.conftest import reply_bytes
from turnbased.mail.inbound import handle_inbound
from turnbased.mail.models import InboundDrop, InboundDropReason, InboundEmail
from turnbased.mail.reading import MAX_FROM_CHARS, read_headers
from turnbased.mail.tokens import reply_address
from turnbased.mail.verifying import count_drop
from turnbased.play.models import Move

pytestmark = pytest.mark.django_db


def forged_address(turn_email) -> str:
    local, domain = turn_email.reply_to[0].split("@")
    user, game, seq, day, signature = local.removeprefix("play+").split(".")
    return f"play+{user}.{game}.{int(seq) + 1}.{day}.{signature}@{domain}"


def dropped(reason: str) -> int:
    return InboundDrop.objects.filter(reason=reason).aggregate(total=Sum("count"))["total"] or 0


def assert_dropped_unanswered(outcome, reason, started_game, mailoutbox, sent_before):
    assert outcome == f"dropped: {reason}"
    assert Move.objects.filter(game=started_game).count() == 0
    assert len(mailoutbox) == sent_before, [m.to for m in mailoutbox[sent_before:]]
    assert not InboundEmail.objects.exists()  # no row with the message's content
    assert dropped(reason) == 1


def test_a_reply_from_another_address_gets_no_answer(players_language, started_game, turn_email, mailoutbox):
    sent = len(mailoutbox)
    outcome = handle_inbound(reply_bytes(turn_email, "handmaid", sender="mallory@example.net"))
    assert_dropped_unanswered(outcome, InboundDropReason.WRONG_SENDER, started_game, mailoutbox, sent)


def test_a_reply_from_an_address_its_owner_has_not_confirmed_gets_no_answer(started_game, alice, turn_email,
                                                                          mailoutbox):
    """The player's address changed to one not confirmed yet: no move is taken from it, and no answer."""
    from allauth.account.models import EmailAddress

    EmailAddress.objects.filter(user=alice).update(verified=False)
    sent = len(mailoutbox)
    outcome = handle_inbound(reply_bytes(turn_email, "handmaid"))
    assert_dropped_unanswered(outcome, InboundDropReason.WRONG_SENDER, started_game, mailoutbox, sent)


def test_a_from_header_over_the_length_limit_names_no_sender_even_ending_in_the_players_address(
        started_game, turn_email, mailoutbox):
    sent = len(mailoutbox)
    padded = '"' + "a" * MAX_FROM_CHARS + '" <alice@example.com>'
    outcome = handle_inbound(reply_bytes(turn_email, "handmaid", sender=padded))
    assert_dropped_unanswered(outcome, InboundDropReason.WRONG_SENDER, started_game, mailoutbox, sent)


def test_a_from_header_of_the_length_limit_is_read_and_one_over_it_is_not(turn_email):
    # On one line (a mail client folds a long header; the limit counts what is read, as it comes).
    raw = reply_bytes(turn_email, "handmaid")
    written = raw.split(b"From: ", 1)[1].split(b"\n", 1)[0].rstrip(b"\r")
    for length, sender in ((MAX_FROM_CHARS, "alice@example.com"), (MAX_FROM_CHARS + 1, "")):
        value = ('"' + "a" * (length - len(' <alice@example.com>') - 2) + '" <alice@example.com>').encode()
        assert len(value) == length
        assert read_headers(raw.replace(b"From: " + written, b"From: " + value, 1)).sender == sender


def test_a_forged_address_gets_no_answer(players_language, started_game, turn_email, mailoutbox):
    sent = len(mailoutbox)
    outcome = handle_inbound(reply_bytes(turn_email, "handmaid", to=forged_address(turn_email)))
    assert_dropped_unanswered(outcome, InboundDropReason.FORGED_ADDRESS, started_game, mailoutbox, sent)


def test_an_expired_address_gets_no_answer(started_game, alice, turn_email, mailoutbox, settings):
    old = reply_address(user_id=alice.pk, game_id=started_game.pk, seq=0,
                        today=date.today() - timedelta(days=settings.REPLY_TOKEN_MAX_AGE_DAYS + 1))
    sent = len(mailoutbox)
    outcome = handle_inbound(reply_bytes(turn_email, "handmaid", to=old))
    assert_dropped_unanswered(outcome, InboundDropReason.EXPIRED_ADDRESS, started_game, mailoutbox, sent)


def test_an_address_for_someone_not_seated_gets_no_answer(started_game, turn_email, carol, mailoutbox):
    # Signed by us, but carol has no seat in this game: a leaked secret key or a bug, never a player.
    address = reply_address(user_id=carol.pk, game_id=started_game.pk, seq=0)
    sent = len(mailoutbox)
    outcome = handle_inbound(reply_bytes(turn_email, "handmaid", sender="carol@example.com", to=address))
    assert_dropped_unanswered(outcome, InboundDropReason.UNKNOWN_PLAYER, started_game, mailoutbox, sent)


def test_mail_to_no_reply_address_gets_no_answer(started_game, turn_email, mailoutbox):
    sent = len(mailoutbox)
    outcome = handle_inbound(reply_bytes(turn_email, "handmaid", to="games@turnbased.localhost"))
    assert_dropped_unanswered(outcome, InboundDropReason.NO_REPLY_ADDRESS, started_game, mailoutbox, sent)


def test_two_from_addresses_name_no_player(started_game, turn_email, mailoutbox):
    raw = reply_bytes(turn_email, "handmaid").replace(
        b"From: alice@example.com", b"From: alice@example.com, mallory@example.net")
    sent = len(mailoutbox)
    outcome = handle_inbound(raw)
    assert_dropped_unanswered(outcome, InboundDropReason.WRONG_SENDER, started_game, mailoutbox, sent)


def test_a_flood_of_forged_mail_is_one_counter_row(started_game, turn_email, mailoutbox):
    for number in range(30):
        handle_inbound(reply_bytes(turn_email, f"handmaid {number}", sender=f"spammer{number}@example.net"))
    assert list(InboundDrop.objects.values_list("reason", "count")) == [(InboundDropReason.WRONG_SENDER, 30)]
    assert not InboundEmail.objects.exists() and Move.objects.count() == 0


def test_counting_survives_two_workers_creating_todays_row(monkeypatch):
    """The worker that loses the race to insert today's row adds to the winner's row instead."""
    count_drop(InboundDropReason.FORGED_ADDRESS)
    real_update = QuerySet.update
    calls = []

    def update_that_misses_the_row_once(queryset, **kwargs):
        calls.append(kwargs)
        return 0 if len(calls) == 1 else real_update(queryset, **kwargs)

    monkeypatch.setattr(QuerySet, "update", update_that_misses_the_row_once)
    count_drop(InboundDropReason.FORGED_ADDRESS)
    assert len(calls) == 2
    assert InboundDrop.objects.get(reason=InboundDropReason.FORGED_ADDRESS).count == 2


def test_the_answer_goes_to_the_players_own_address(players_language, started_game, turn_email, mailoutbox):
    handle_inbound(reply_bytes(turn_email, "handmaid", sender="Alice@EXAMPLE.com"))
    assert Move.objects.filter(game=started_game).count() == 1
    assert mailoutbox[-1].to == ["alice@example.com"]


def test_the_counts_are_in_the_admin(started_game, turn_email, admin_client):
    handle_inbound(reply_bytes(turn_email, "handmaid", to=forged_address(turn_email)))
    assert InboundDrop in site._registry and InboundEmail in site._registry
    page = admin_client.get("/admin/mail/inbounddrop/")
    assert page.status_code == 200 and b"reply address not signed by us" in page.content
