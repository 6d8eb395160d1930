"""Table talk by email: turn emails list what the others said since my last move; "say ..." replies post."""

from __future__ import annotations

import pytest
from django.utils import translation

from tests.platform.mail.conftest import latest_to, reply_bytes, worded
from turnbased.chat import services
from turnbased.chat.models import Message
from turnbased.kit.http.limits import COUNTED, too_many
from turnbased.mail import compose
from turnbased.mail.inbound import handle_inbound
from turnbased.mail.reply_text import said_text
from turnbased.play import services as play_services
from turnbased.play.models import Move

pytestmark = pytest.mark.django_db


def test_the_turn_email_lists_the_messages_since_my_last_move(players_language, started_game, alice, bob):
    services.message_post(game_id=started_game.pk, user=bob, text="before your move")
    play_services.submit_move(game_id=started_game.pk, user=alice, expected_seq=0, move={"card": "handmaid"})
    services.message_post(game_id=started_game.pk, user=alice, text="my own words")
    services.message_post(game_id=started_game.pk, user=bob, text="nice <b>handmaid</b>")
    started_game.refresh_from_db()
    play_services.submit_move(game_id=started_game.pk, user=bob, expected_seq=1,
                              move=_any_legal(started_game, seat=1))
    started_game.refresh_from_db()
    email = compose.turn_email(started_game, alice)
    html = email.alternatives[0][0]
    said = worded(players_language, "Messages since your last move:")
    assert f"{said}\n  bob: nice <b>handmaid</b>\n" in email.body
    assert "before your move" not in email.body and "my own words" not in email.body
    assert "nice &lt;b&gt;handmaid&lt;/b&gt;" in html and "<b>handmaid</b>" not in html


def test_a_muted_player_is_left_out_of_the_turn_email(started_game, alice, bob):
    services.message_post(game_id=started_game.pk, user=bob, text="noise")
    services.player_mute(user=alice, username="bob")
    assert "noise" not in compose.turn_email(started_game, alice).body


def _any_legal(game, seat):
    from turnbased.play import store

    return store.engine_of(game).legal_moves(game.state, seat)[0]


def test_a_reply_starting_with_say_posts_its_new_text_and_plays_nothing(players_language, started_game, turn_email,
                                                                       mailoutbox):
    outcome = handle_inbound(reply_bytes(turn_email, "Say good luck, bob!\nand have fun\n\n-- \nalice's phone"))
    assert outcome == "said"
    message = Message.objects.get()
    assert (message.text, message.source, message.author.username) == ("good luck, bob!\nand have fun", "email",
                                                                        "alice")
    assert not Move.objects.filter(game=started_game).exists()
    answer = latest_to(mailoutbox, "alice@example.com", "Re:")
    assert worded(players_language, "Your message was posted to the table.") in answer.body
    assert answer.reply_to  # still her turn: the answer carries a reply address for the move


def test_plain_text_that_is_no_move_is_not_posted(players_language, started_game, turn_email, mailoutbox):
    handle_inbound(reply_bytes(turn_email, "good game everyone"))
    assert not Message.objects.exists()
    refused = worded(players_language, '"%(move)s" is not a move you can make now, so nothing was played.',
                     move="good game everyone")
    assert refused in latest_to(mailoutbox, "alice@example.com", "Re:").body


@pytest.mark.parametrize(("body", "why"), [("say", "Write something to say."), ("say " + "x" * 600, "at most 500")])
def test_an_empty_or_too_long_say_is_answered_and_posts_nothing(started_game, turn_email, mailoutbox, body, why):
    assert handle_inbound(reply_bytes(turn_email, body)).startswith("say refused")
    assert not Message.objects.exists()
    answer = latest_to(mailoutbox, "alice@example.com", "Re:")
    assert "Your message was not posted." in answer.body and why in answer.body


@pytest.mark.parametrize(("text", "said"), [
    ("say hi", "hi"),
    ("  SAY  hi there  \n\nOn Sun, 29 Nov 2026, turnbased wrote:\n> quoted", "hi there"),
    ("say one\ntwo\n> quoted\nthree", "one\ntwo"),
    ("say: hi there", "hi there"), ("Say:hi", "hi"), ("say\nhi below", "hi below"), ("say: :-) hi", ":-) hi"),
])
def test_said_text_is_the_new_text_after_say_and_its_colon(text, said):
    assert said_text(text, "en") == said


def test_say_replies_count_against_the_accounts_chat_rate_with_the_api(players_language, started_game, turn_email,
                                                                        mailoutbox, alice, api_client_for, settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK,
                               "DEFAULT_THROTTLE_RATES": {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
                                                          "chat": "3/min"}}
    assert api_client_for(alice).post(f"/api/games/{started_game.pk}/messages/", {"text": "from the API"},
                                      format="json").status_code == 201
    assert handle_inbound(reply_bytes(turn_email, "say one")) == "said"
    assert handle_inbound(reply_bytes(turn_email, "say two")) == "said"
    assert handle_inbound(reply_bytes(turn_email, "say three")) == "say refused: rate limit"
    assert list(Message.objects.values_list("text", flat=True)) == ["from the API", "one", "two"]
    answer = latest_to(mailoutbox, "alice@example.com", "Re:")
    with translation.override(players_language):
        refused = too_many(str(COUNTED["chat"]), 3, 60)
    assert worded(players_language, "Your message was not posted.") in answer.body and refused in answer.body
    if players_language == "en":
        assert "Too many chat messages (at most 3 per minute)." in answer.body
