"""Every email goes out in its recipient's language, subject and all, whoever's action caused it.

A recipient who chose no language reads English, even when the email is written inline during
someone else's request in another language (a worker writes it so too).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from datetime import timezone as dt_timezone

import pytest
from django.test import override_settings
from django.utils import timezone, translation

from tests.platform.mail.conftest import latest_to, title_in, worded
from turnbased.accounts.services.languages import language_choose
from turnbased.aftergame import services as aftergame
from turnbased.mail import delivery, services as mail_services, tasks
from turnbased.mail.models import TurnEmails
from turnbased.play import services
from turnbased.webhooks import services as webhooks
from turnbased.webhooks.models import Webhook

pytestmark = pytest.mark.django_db


def deliver_all_in(language: str) -> None:
    """Deliver every waiting notification inline, in a request of ``language`` (the mover's browser, say)."""
    with translation.override(language):
        for pk in delivery.pending_ids():
            delivery.deliver(pk)


def test_a_turn_email_is_in_its_recipients_language_whoever_moved(started_game, alice, bob, mailoutbox):
    language_choose(user=alice, language="hu")
    language_choose(user=bob, language="de")
    with translation.override("hu"):  # alice plays in her Hungarian browser: bob's turn email is German
        services.submit_move(game_id=started_game.pk, user=alice, expected_seq=0, text="handmaid")
    deliver_all_in("hu")
    email = latest_to(mailoutbox, "bob@example.com")
    assert email.subject == f"Du bist am Zug: {title_in('de', started_game)}"
    assert email.body.startswith("Hallo bob,") and "Deine Züge:" in email.body and "Seite der Partie:" in email.body
    assert "„zeigen“ schickt die Stellung noch einmal" in email.body  # the commands a German player writes
    html = email.alternatives[0][0]
    assert '<html lang="de">' in html and "Seite der Partie öffnen" in html and "Abbestellen" in html

    started_game.refresh_from_db()
    with translation.override("de"):  # bob answers from his German browser: alice's is Hungarian
        services.submit_move(game_id=started_game.pk, user=bob, expected_seq=1, text="guard")
    deliver_all_in("de")
    email = latest_to(mailoutbox, "alice@example.com")
    assert email.subject == f"Te következel: {title_in('hu', started_game)}"
    assert email.body.startswith("Szia, alice!") and "Az utolsó lépésed óta:" in email.body
    assert "„mutasd” – újra elküldjük az állást" in email.body and "Leiratkozás" in email.body


def test_a_recipient_who_chose_no_language_reads_english_whatever_the_movers(started_game, alice, bob, mailoutbox):
    language_choose(user=alice, language="de")
    with translation.override("de"):
        services.submit_move(game_id=started_game.pk, user=alice, expected_seq=0, text="handmaid")
    deliver_all_in("de")
    email = latest_to(mailoutbox, "bob@example.com")
    assert email.subject.startswith("Your turn: ") and email.body.startswith("Hello bob,")
    assert '"show" sends the position again' in email.body


def test_a_reminder_is_in_the_recipients_language(started_game, alice, mailoutbox):
    from turnbased.mail import compose

    language_choose(user=alice, language="hu")
    email = compose.turn_email(started_game, alice, reminder=True)
    assert "Emlékeztető: még vár a lépésed itt:" in email.body


@pytest.mark.parametrize(("language", "one", "two"), [
    ("en", "1 game waiting for you", "2 games waiting for you"),
    ("hu", "1 játszma vár rád", "2 játszma vár rád"),
    ("de", "1 Partie wartet auf dich", "2 Partien warten auf dich"),
])
def test_the_digest_counts_the_games_in_its_readers_language(start_scripted_game, alice, bob, mailoutbox,
                                                             language, one, two):
    language_choose(user=bob, language=language)
    mail_services.preferences_update(user=bob, turn_emails=TurnEmails.DIGEST, game_emails=False)
    start_scripted_game(bob, alice)  # bob is to move
    assert delivery.send_digests(today=timezone.localdate()) == 1
    assert latest_to(mailoutbox, "bob@example.com").subject == one
    start_scripted_game(bob, alice)
    assert delivery.send_digests(today=timezone.localdate() + timedelta(days=1)) == 1
    digest = latest_to(mailoutbox, "bob@example.com")
    assert digest.subject == two
    assert worded(language, "To play by email, write to the reply address given for that game with your move as the "
                            "first line.") in digest.body


def test_game_news_is_in_each_recipients_language(start_scripted_game, alice, bob, mailoutbox):
    language_choose(user=alice, language="de")
    language_choose(user=bob, language="hu")
    with translation.override("de"):
        game = start_scripted_game(alice, bob)
    deliver_all_in("de")
    started = latest_to(mailoutbox, "bob@example.com")
    assert started.subject == f"Elindult a játszma: {title_in('hu', game)}"
    assert started.body.startswith("Szia, bob!")
    with translation.override("hu"):
        services.resign_game(game_id=game.pk, user=bob)
    deliver_all_in("hu")
    over = {message.to[0]: message for message in mailoutbox if message.subject.startswith(("Véget", "Partie beendet"))}
    assert over["bob@example.com"].subject == f"Véget ért a játszma: {title_in('hu', game)}"
    assert over["alice@example.com"].subject == f"Partie beendet: {title_in('de', game)}"
    game.refresh_from_db()
    with translation.override("de"):
        assert f"{title_in('de', game)} ist beendet. {game.result_line}" in over["alice@example.com"].body


def test_an_invitation_is_in_the_invited_players_language(alice, bob, mailoutbox):
    language_choose(user=alice, language="de")
    language_choose(user=bob, language="hu")
    table = services.create_game(creator=alice, engine_slug="love-letter", players=3)
    with translation.override("de"):
        services.invitation_create(game_id=table.pk, user=alice, username="bob")
    deliver_all_in("de")
    email = latest_to(mailoutbox, "bob@example.com")
    assert email.subject == f"alice meghív ide: {title_in('hu', table)}"
    assert f"alice meghív ide: {title_in('hu', table)} (3 helyből 1 foglalt: alice)." in email.body
    assert "Foglald el a helyet" in email.body


def test_a_rematch_offer_is_in_the_invited_players_language(alice, bob, mailoutbox):
    from tests.platform.aftergame.conftest import finished

    language_choose(user=bob, language="de")
    game = finished([alice, bob])
    with translation.override("hu"):
        aftergame.rematch_propose(game_id=game.pk, user=alice)
    deliver_all_in("hu")
    email = latest_to(mailoutbox, "bob@example.com")
    assert email.subject.startswith("Revanche angeboten: ")
    assert f"alice schlägt eine Revanche für {title_in('de', game)} vor" in email.body


def test_the_webhook_notice_is_in_its_owners_language(alice, mailoutbox):
    language_choose(user=alice, language="hu")
    with override_settings(WEBHOOKS_ALLOW_PRIVATE_ADDRESSES=True, WEBHOOKS_ALLOW_HTTP=True):
        hook, _ = webhooks.webhook_create(owner=alice, url="http://127.0.0.1:9999/hook")
    moment = datetime(2026, 12, 1, 9, 5, tzinfo=dt_timezone.utc)
    Webhook.objects.filter(pk=hook.pk).update(active=False, disabled_at=moment, notice_due=True,
                                              disabled_reason="connection refused")
    assert tasks.tell_webhook_disabled.delay(hook.pk).get() == "sent"
    [email] = mailoutbox
    assert email.subject == "Kikapcsoltuk az egyik webhookodat"
    # The moment in UTC, as Hungarians write it.
    assert "Kikapcsoltuk ezt a webhookodat: http://127.0.0.1:9999/hook (2026. 12. 01. 09:05 UTC)" in email.body
