"""Resigning by email: only the current position's address resigns; an older one asks for a confirmation.

Every test runs for players reading English, Hungarian and German (``players_language``): the same rules in each.
"""

from __future__ import annotations

import pytest

from tests.platform.mail.conftest import latest_to, reply_bytes, worded
from turnbased.mail import commands, delivery
from turnbased.mail.inbound import handle_inbound
from turnbased.mail.models import InboundEmail, InboundStatus
from turnbased.mail.tokens import read_reply_address
from turnbased.notifications.models import Notification, NotificationKind
from turnbased.play import selectors, services
from turnbased.play.models import Game, GameStatus

pytestmark = pytest.mark.django_db


def status_of(game) -> str:
    return Game.objects.get(pk=game.pk).status


def play_first_legal_move(game, user):
    game = Game.objects.get(pk=game.pk)
    move = selectors.legal_moves_for(selectors.viewer_of(game.pk, user))[0]["text"]
    services.submit_move(game_id=game.pk, user=user, expected_seq=game.seq, text=move)


def test_resign_to_the_current_positions_address_resigns(players_language, started_game, turn_email, mailoutbox):
    assert read_reply_address(turn_email.reply_to[0]).seq == started_game.seq
    assert handle_inbound(reply_bytes(turn_email, "resign")) == "resigned"
    game = Game.objects.get(pk=started_game.pk)
    assert game.status == GameStatus.FINISHED and game.result["winners"] == [1]
    assert worded(players_language, "You resigned.") in latest_to(mailoutbox, "alice@example.com").body


def test_a_refused_resign_is_answered_with_the_reason_only(players_language, started_game, turn_email, bob,
                                                           mailoutbox):
    services.resign_game(game_id=started_game.pk, user=bob)  # the game is over before alice's reply comes
    sent = len(mailoutbox)
    assert handle_inbound(reply_bytes(turn_email, "resign")).startswith("resign refused: ")
    [answer] = [m for m in mailoutbox[sent:] if m.to == ["alice@example.com"] and m.subject.startswith("Re: ")]
    assert worded(players_language, "You could not resign.") in answer.body
    assert worded(players_language, "You resigned.") not in answer.body
    record = InboundEmail.objects.get()
    assert record.status == InboundStatus.REJECTED and record.outcome.startswith("resign refused: ")
    assert Game.objects.get(pk=started_game.pk).result["winners"] == [0]


def test_resign_to_an_older_address_asks_to_confirm_and_the_confirmation_resigns(
        players_language, started_game, turn_email, alice, bob, mailoutbox):
    # alice plays, bob plays: alice's first turn email is now two positions old, and it is her turn again.
    services.submit_move(game_id=started_game.pk, user=alice, expected_seq=0, text="handmaid")
    play_first_legal_move(started_game, bob)
    current = Game.objects.get(pk=started_game.pk).seq

    assert handle_inbound(reply_bytes(turn_email, "resign")) == "resign to confirm"
    assert status_of(started_game) == GameStatus.ACTIVE
    confirmation = latest_to(mailoutbox, "alice@example.com")
    confirm = worded(players_language, 'Reply "%(resign)s" to this email to confirm that you resign.',
                     resign=commands.shown_words(players_language)[commands.RESIGN])
    assert confirm in confirmation.body
    assert worded(players_language, "The game as you see it:") in confirmation.body
    assert read_reply_address(confirmation.reply_to[0]).seq == current

    assert handle_inbound(reply_bytes(confirmation, "resign")) == "resigned"
    assert status_of(started_game) == GameStatus.FINISHED


def test_a_player_who_is_not_to_move_can_resign_by_confirming(players_language, started_game, alice, bob, mailoutbox):
    services.submit_move(game_id=started_game.pk, user=alice, expected_seq=0, text="handmaid")
    row = Notification.objects.get(game=started_game, kind=NotificationKind.YOUR_TURN, user=bob, seq=1)
    assert delivery.deliver(row.pk) == "sent"
    bobs_turn_email = latest_to(mailoutbox, "bob@example.com")
    play_first_legal_move(started_game, bob)

    # Now it is alice's turn: bob's only reply address is an old one, and turn emails offer him none.
    assert handle_inbound(reply_bytes(bobs_turn_email, "resign")) == "resign to confirm"
    confirmation = latest_to(mailoutbox, "bob@example.com")
    assert confirmation.reply_to and read_reply_address(confirmation.reply_to[0]).seq == 2
    assert worded(players_language, "Waiting for %(names)s.", names="alice") in confirmation.body
    assert status_of(started_game) == GameStatus.ACTIVE

    assert handle_inbound(reply_bytes(confirmation, "resign")) == "resigned"
    game = Game.objects.get(pk=started_game.pk)
    assert game.status == GameStatus.FINISHED and game.result["winners"] == [0]


def test_a_confirmation_goes_stale_when_the_game_moves_on(players_language, started_game, turn_email, alice, bob,
                                                          mailoutbox):
    services.submit_move(game_id=started_game.pk, user=alice, expected_seq=0, text="handmaid")
    handle_inbound(reply_bytes(turn_email, "resign"))
    confirmation = latest_to(mailoutbox, "alice@example.com")
    play_first_legal_move(started_game, bob)

    assert handle_inbound(reply_bytes(confirmation, "resign")) == "resign to confirm"
    assert status_of(started_game) == GameStatus.ACTIVE


def test_other_answers_still_offer_no_address_when_it_is_not_your_turn(players_language, started_game, turn_email,
                                                                       mailoutbox):
    handle_inbound(reply_bytes(turn_email, "handmaid"))
    assert latest_to(mailoutbox, "alice@example.com").reply_to == []
