"""A bot account gets no game emails (its program reads the API) and its email replies play nothing."""

from __future__ import annotations

import pytest

from tests.platform.mail.conftest import reply_bytes
from turnbased.accounts.models import Profile
from turnbased.chat.models import Message
from turnbased.mail import delivery, services
from turnbased.mail.inbound import handle_inbound
from turnbased.mail.models import InboundEmail, TurnEmails
from turnbased.notifications.models import Notification
from turnbased.play import services as play
from turnbased.play.models import Move

pytestmark = pytest.mark.django_db


def test_a_bot_account_gets_no_game_emails_and_the_person_at_its_table_does(robo, alice, start_scripted_game,
                                                                             deliver_all, mailoutbox):
    game = start_scripted_game(robo, alice)  # game started and robo's turn: notifications for both
    robo_rows = set(Notification.objects.filter(user=robo).values_list("pk", flat=True))
    assert robo_rows
    deliver_all()
    skipped = Notification.objects.filter(user=robo, skip_reason="bot account").values_list("pk", flat=True)
    assert set(skipped) == robo_rows
    assert not [message for message in mailoutbox if message.to == ["robo@example.com"]]
    assert [message for message in mailoutbox if message.to == ["alice@example.com"]]
    # An invitation, and a reminder-free digest day, send it nothing either.
    table = play.create_game(creator=alice, engine_slug="love-letter", players=3)
    play.invitation_create(game_id=table.pk, user=alice, username="robo")
    assert deliver_all() == ["skipped: bot account"]
    services.preferences_update(user=robo, turn_emails=TurnEmails.DIGEST, game_emails=True)
    assert game.pk and delivery.send_digests() == 0
    assert not [message for message in mailoutbox if message.to == ["robo@example.com"]]


def test_a_reply_from_a_bot_account_plays_nothing_and_says_why(started_game, turn_email, alice, mailoutbox):
    # Alice's turn email reached her before staff made her account a bot account (the admin's way in).
    Profile.objects.filter(user=alice).update(is_bot_account=True)
    for number, body in enumerate(["guard bob priest", "resign", "say hello"]):
        outcome = handle_inbound(reply_bytes(turn_email, body, message_id=f"<bot{number}@client.example>"))
        assert outcome == "bot account"
        answer = [message for message in mailoutbox if message.to == ["alice@example.com"]][-1]
        assert "Nothing was done: this is a bot account" in answer.body
        assert f"POST /api/games/{started_game.pk}/moves/" in answer.body
    assert not Move.objects.filter(game=started_game).exists() and not Message.objects.exists()
    assert set(InboundEmail.objects.values_list("status", flat=True)) == {"rejected"}
