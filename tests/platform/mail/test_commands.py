"""Email play in the player's language: the commands in their own words (with or without accents) and in English,
every answer in their language, and the move read by the game inside their language."""

from __future__ import annotations

import pytest
from django.utils import translation

from games import i18n
from games.love_letter.engine import LoveLetterEngine
from tests.platform.mail.conftest import HANDMAID, latest_to, move_in, reply_bytes, worded
from turnbased.accounts.services.languages import language_choose
from turnbased.chat.models import Message
from turnbased.mail import commands
from turnbased.mail.commands import HELP, RESIGN, SAY, SHOW
from turnbased.mail.inbound import handle_inbound
from turnbased.play import services
from turnbased.play.models import Game, GameStatus, Move

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice_reads(request, alice, bob):
    """Set alice's account (and bob's) to the language the test names, before the game writes any email."""
    for user in (alice, bob):
        language_choose(user=user, language=request.param)
    return request.param


def answer_to_alice(mailoutbox):
    return latest_to(mailoutbox, "alice@example.com", "Re: ")


@pytest.mark.parametrize(("language", "line", "command"), [
    ("hu", "mutasd", SHOW), ("hu", "Mutasd meg!", SHOW), ("hu", "Állás", SHOW), ("hu", "allas", SHOW),
    ("hu", "tábla.", SHOW), ("hu", "súgó", HELP), ("hu", "SUGO", HELP), ("hu", "Segítség!", HELP),
    ("hu", "segitseg", HELP), ("hu", "feladom", RESIGN), ("hu", "Feladás", RESIGN), ("hu", "feladas", RESIGN),
    ("hu", "mondd Sok sikert!", SAY), ("hu", "üzenet szia", SAY), ("hu", "uzenet szia", SAY),
    ("de", "zeigen", SHOW), ("de", "Stellung", SHOW), ("de", "Spielstand", SHOW), ("de", "Hilfe", HELP),
    ("de", "aufgeben", RESIGN), ("de", "Ich gebe auf!", RESIGN), ("de", "sag Viel Glück", SAY),
    ("de", "Nachricht hallo", SAY),
    # English, which every player may write whatever their language.
    ("hu", "show", SHOW), ("de", "Help", HELP), ("hu", "resign", RESIGN), ("de", "say hi", SAY), ("en", "?", HELP),
])
def test_the_commands_are_read_in_the_players_language_and_in_english(language, line, command):
    assert commands.read(line, language) == command


@pytest.mark.parametrize(("language", "line"), [
    # Another language's command is no command: the game reads it (and refuses it as a move).
    ("en", "mutasd"), ("en", "aufgeben"), ("de", "feladom"), ("hu", "zeigen"), ("de", "mondd hallo"),
    # The German "Stand" (the score, the position) is an English and a Hungarian word of no command.
    ("en", "stand"), ("hu", "Stand"),
    # Words that only begin like a command, and moves.
    ("de", "sagte"), ("hu", "mondjuk"), ("hu", "guard bob priest"), ("de", "handmaid"), ("hu", ""),
])
def test_a_word_that_is_a_command_only_in_another_language_is_no_command(language, line):
    assert commands.read(line, language) is None


def test_a_german_players_stand_shows_the_position():
    assert commands.read("Stand", "de") == SHOW


def test_every_word_an_email_tells_the_player_to_write_is_read_back():
    for language in ("en", "hu", "de"):
        for kind, word in commands.shown_words(language).items():
            # A group's email (issue 44) is answered with accept or decline: read as answers, and as no move. A
            # followed game's (issue 46) with stop.
            if kind == commands.STOP:
                assert commands.is_stop(word, language) and commands.read(word, language) is None, (language, word)
                continue
            read = commands.read_answer if kind in (commands.ACCEPT, commands.DECLINE) else commands.read
            assert read(f"{word} hi" if kind == SAY else word, language) == kind, (language, word)
    assert commands.shown_words("pt-br") == commands.shown_words("en")  # a language without words of its own


@pytest.mark.parametrize(("alice_reads", "show", "help_word", "answer", "how"), [
    ("hu", "Állás", "sugo", "Így áll most a játszma.", "Így játszhatsz e-mailben."),
    ("de", "zeigen", "Hilfe", "So steht die Partie.", "So spielst du per E-Mail."),
], indirect=["alice_reads"])
def test_show_and_help_in_the_players_words_are_answered_in_their_language(
        alice_reads, started_game, turn_email, mailoutbox, show, help_word, answer, how):
    assert handle_inbound(reply_bytes(turn_email, show)) == "show"
    shown = answer_to_alice(mailoutbox)
    assert answer in shown.body and shown.subject == f"Re: {turn_email.subject}"
    assert handle_inbound(reply_bytes(turn_email, help_word)) == "help"
    helped = answer_to_alice(mailoutbox).body
    words = commands.shown_words(alice_reads)
    assert how in helped and all(words[kind] in helped for kind in (SHOW, RESIGN, SAY))
    assert not Move.objects.filter(game=started_game).exists()


@pytest.mark.parametrize(("alice_reads", "resign", "confirm"), [
    ("hu", "feladom", "válaszolj erre az e-mailre így: „feladom”"),
    ("de", "Aufgeben", "Antworte auf diese E-Mail mit „aufgeben“"),
], indirect=["alice_reads"])
def test_resigning_in_the_players_words_asks_and_confirms_in_them(
        alice_reads, started_game, turn_email, alice, bob, mailoutbox, resign, confirm):
    services.submit_move(game_id=started_game.pk, user=alice, expected_seq=0, text="handmaid")
    game = Game.objects.get(pk=started_game.pk)
    services.submit_move(game_id=game.pk, user=bob, expected_seq=1, text="guard")
    # The turn email is two positions old now: a resign sent to it asks to confirm, in her words.
    assert handle_inbound(reply_bytes(turn_email, resign)) == "resign to confirm"
    confirmation = answer_to_alice(mailoutbox)
    assert confirm in confirmation.body
    assert handle_inbound(reply_bytes(confirmation, resign)) == "resigned"
    assert Game.objects.get(pk=started_game.pk).status == GameStatus.FINISHED
    assert worded(alice_reads, "You resigned.") in answer_to_alice(mailoutbox).body


@pytest.mark.parametrize(("alice_reads", "line", "said"), [
    ("hu", "Mondd Sok sikert, bob!", "Sok sikert, bob!"),
    ("hu", "üzenet szia", "szia"),
    ("de", "sag Viel Glück!\nund viel Spaß", "Viel Glück!\nund viel Spaß"),
], indirect=["alice_reads"])
def test_say_in_the_players_words_posts_what_follows(alice_reads, started_game, turn_email, mailoutbox, line, said):
    assert handle_inbound(reply_bytes(turn_email, line)) == "said"
    assert Message.objects.get().text == said
    assert worded(alice_reads, "Your message was posted to the table.") in answer_to_alice(mailoutbox).body
    assert not Move.objects.filter(game=started_game).exists()


@pytest.mark.parametrize(("alice_reads", "line", "outcome"), [
    ("de", "Stand", "show"),  # German: the position
    ("hu", "Stand", "illegal"),  # Hungarian: no command, so a move the game cannot read
    ("en", "Stand", "illegal"),
    ("en", "mutasd", "illegal"),  # Hungarian: show; English: no command
    ("hu", "mutasd", "show"),
], indirect=["alice_reads"])
def test_a_word_is_read_as_the_players_language_reads_it(alice_reads, started_game, turn_email, mailoutbox, line,
                                                         outcome):
    assert handle_inbound(reply_bytes(turn_email, line)).startswith(outcome)
    body = answer_to_alice(mailoutbox).body
    if outcome == "show":
        assert worded(alice_reads, "Here is the game as it stands.") in body
    else:
        refused = '"%(move)s" is not a move you can make now, so nothing was played.'
        assert worded(alice_reads, refused, move=line) in body
    assert not Move.objects.filter(game=started_game).exists()


@pytest.mark.parametrize("alice_reads", ["hu", "de"], indirect=True)
def test_the_game_reads_the_move_inside_the_players_language(alice_reads, started_game, turn_email, mailoutbox,
                                                             monkeypatch):
    read_in = []
    parse_move = LoveLetterEngine.parse_move

    def noting_the_language(self, text, state, seat):
        read_in.append((translation.get_language(), i18n.current_language()))
        return parse_move(self, text, state, seat)

    monkeypatch.setattr(LoveLetterEngine, "parse_move", noting_the_language)
    # The worker handling the reply runs in English; the reply is read and answered in alice's language.
    written = move_in(alice_reads, started_game, HANDMAID)
    with translation.override("en"):
        assert handle_inbound(reply_bytes(turn_email, "handmaid")) == "played handmaid"
    assert read_in == [(alice_reads, alice_reads)]
    assert worded(alice_reads, 'Your move "%(move)s" was played.', move=written) in answer_to_alice(mailoutbox).body


@pytest.mark.parametrize("alice_reads", ["hu"], indirect=True)
def test_the_answers_are_translated(alice_reads, started_game, turn_email, mailoutbox):
    """The answers are not English for a Hungarian player (a missing translation would pass ``worded`` unseen)."""
    handle_inbound(reply_bytes(turn_email, "dance a jig"))
    body = answer_to_alice(mailoutbox).body
    assert "„dance a jig”: ezt most nem lépheted meg, így nem történt semmi." in body
    assert "is not a move" not in body and "Lépéseid:" in body and "A játszma oldala:" in body
