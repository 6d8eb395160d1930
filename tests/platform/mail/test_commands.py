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
from turnbased.mail.commands import HELP, NOTE, RESIGN, SAY, SHOW
from turnbased.mail.inbound import handle_inbound
from turnbased.notes.models import GameNote
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


@pytest.mark.parametrize(("language", "line", "command", "said"), [
    # A colon after say and note, which is no part of the message, in every language.
    ("hu", "mondd: Sziasztok", SAY, "Sziasztok"), ("de", "sag: Hallo", SAY, "Hallo"), ("en", "say: hi", SAY, "hi"),
    ("en", "note: watch the Baron", NOTE, "watch the Baron"), ("en", "SAY:hi", SAY, "hi"),
    ("hu", "Jegyzet:a király bobnál", NOTE, "a király bobnál"), ("de", "Notiz : Zofe zuerst", NOTE, "Zofe zuerst"),
    ("hu", "mondom: jó játékot", SAY, "jó játékot"),
    ("de", "Sage: Viel Glück", SAY, "Viel Glück"), ("de", "sagen: gut gespielt", SAY, "gut gespielt"),
    ("en", "note to self: bluff", NOTE, "bluff"), ("en", "note to", NOTE, "to"), ("hu", "üzenet: szia", SAY, "szia"),
    ("de", "say: hi", SAY, "hi"),
    # The forms a Hungarian and a German player write, with capitals and closing marks anywhere.
    ("hu", "mutasd az állást", SHOW, ""), ("hu", "Mutasd meg az állást!", SHOW, ""),
    ("hu", "MUTASD AZ ALLAST", SHOW, ""),
    ("hu", "hogy áll a játszma?", SHOW, ""), ("hu", "feladom", RESIGN, ""), ("hu", "Feladás.", RESIGN, ""),
    ("hu", "feladom a játszmát", RESIGN, ""), ("hu", "súgó?", HELP, ""), ("hu", "Segítséget kérek!", HELP, ""),
    ("de", "zeig", SHOW, ""), ("de", "Zeige", SHOW, ""), ("de", "zeigen!", SHOW, ""),
    ("de", "Stellung zeigen", SHOW, ""),
    ("de", "zeig mir die Stellung", SHOW, ""), ("de", "Wie steht es?", SHOW, ""), ("de", "aufgeben", RESIGN, ""),
    ("de", "ich gebe auf", RESIGN, ""), ("de", "Ich gebe die Partie auf.", RESIGN, ""), ("de", "Hilfe", HELP, ""),
    ("de", "hilfe?", HELP, ""), ("de", "Hilf mir!", HELP, ""), ("en", "help?", HELP, ""), ("en", "Show!", SHOW, ""),
    ("en", "?", HELP, ""), ("en", "??", HELP, ""), ("en", "I resign.", RESIGN, ""), ("en", "show the board", SHOW, ""),
    # A resign with a question mark asks: it is answered with the help, and resigns nothing.
    ("hu", "feladom?", HELP, ""), ("de", "Aufgeben?", HELP, ""), ("en", "resign?!", HELP, ""),
])
def test_commands_are_read_as_players_write_them(language, line, command, said):
    assert commands.read(line, language) == command
    if command in (SAY, NOTE):
        assert commands.said(line, language) == said


@pytest.mark.parametrize(("language", "line"), [
    # The colon belongs to the command's own words only; another language's say is no say.
    ("en", "mondd: hallo"), ("hu", "sag: hallo"), ("en", "sayonara: bye"), ("de", "mondom: szia"),
    # Only the whole line is a command, as before; an English player's German and Hungarian are no commands.
    ("de", "Stellung zeigen bitte jetzt"), ("hu", "mutasd az állást holnap"), ("en", "hilfe?"), ("en", "súgó?"),
])
def test_a_colon_or_a_mark_makes_no_command_of_another_word(language, line):
    assert commands.read(line, language) is None


@pytest.mark.parametrize(("language", "line", "kind", "days"), [
    ("hu", "szünet 3 nap", commands.PAUSE, 3), ("de", "mehr Zeit 2 Tage", commands.MORE_TIME, 2),
    ("en", "pause 5 days", commands.PAUSE, 5), ("en", "more time", commands.MORE_TIME, 2),
    ("hu", "szünet", commands.PAUSE, 3),
])
def test_a_number_of_days_and_the_word_for_days_may_follow_a_pause_or_more_time(language, line, kind, days):
    assert commands.read(line, language) == kind and commands.days_in(line, kind, language) == days


@pytest.mark.parametrize(("language", "line"), [("en", "pause 3 weeks"), ("de", "Pause 3 Wochen"),
                                               ("hu", "szünet 3 hét")])
def test_another_word_after_the_days_makes_no_command(language, line):
    assert commands.read(line, language) is None


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


ENGLISH_TOO = {
    "hu": "A lépéseidet és ezeket a szavakat angolul is írhatod: „show”, „help”, „resign”, "
          "„say: Good luck, everyone!”.",
    "de": "Züge und diese Befehle kannst du auch auf Englisch schreiben: „show“, „help“, „resign“, "
          "„say: Good luck, everyone!“.",
}


@pytest.mark.parametrize(("alice_reads", "listed"), [
    ("en", ['"show" sends the position again.', '"help" sends this help.', '"resign" leaves the game (',
            '"say: Good luck, everyone!" writes what follows the colon to the table talk.',
            '"note: plan ahead for the endgame" adds what follows the colon to your private notes on the game.',
            '"cancel" proposes to cancel the game']),
    ("hu", ["„mutasd”: újra elküldjük az állást.", "„súgó”: elküldjük ezt a súgót.", "„feladom”: feladod a játszmát (",
            "„mondd: Sok sikert mindenkinek!”: ami a kettőspont után áll, az asztali beszélgetésbe kerül.",
            "„jegyzet: előre megtervezni a végjátékot”: ami a kettőspont után áll, bekerül a játszmához írt saját "
            "jegyzeteid közé.", "„megszakítás”: a játszma megszakítását javaslod"]),
    ("de", ["„zeigen“ schickt dir die Stellung noch einmal.", "„Hilfe“ schickt dir diese Hilfe.",
            "„aufgeben“ gibt die Partie auf (", "„sag: Viel Glück euch allen!“ schreibt, was nach dem Doppelpunkt "
            "steht, ins Tischgespräch.", "„Notiz: das Endspiel vorausplanen“ nimmt, was nach dem Doppelpunkt steht, "
            "in deine eigenen Notizen zur Partie auf.", "„abbrechen“ schlägt vor, die Partie abzubrechen"]),
], indirect=["alice_reads"])
def test_the_help_lists_each_command_with_an_example_and_says_english_is_read_too(
        alice_reads, started_game, turn_email, mailoutbox, listed):
    assert handle_inbound(reply_bytes(turn_email, f"{commands.shown_words(alice_reads)[HELP]}?")) == "help"
    body = answer_to_alice(mailoutbox).body
    for line in listed:  # one command a line, under the sentence that introduces them
        assert f"\n  {line}" in body, line
    english = ENGLISH_TOO.get(alice_reads)
    assert (english in body) if english else "English too" not in body
    # Each example is read back as the help says: "mondd: Sok sikert mindenkinek!" writes what follows the colon.
    example = f"{commands.shown_words(alice_reads)[SAY]}: {worded(alice_reads, 'Good luck, everyone!')}"
    assert commands.read(example, alice_reads) == SAY
    assert commands.said(example, alice_reads) == worded(alice_reads, "Good luck, everyone!")


@pytest.mark.parametrize(("alice_reads", "line"), [("hu", "feladom?"), ("de", "Aufgeben?"), ("en", "resign?")],
                         indirect=["alice_reads"])
def test_a_resign_written_as_a_question_is_answered_with_the_help(alice_reads, started_game, turn_email, mailoutbox,
                                                                   line):
    assert handle_inbound(reply_bytes(turn_email, line)) == "help"
    assert Game.objects.get(pk=started_game.pk).status == GameStatus.ACTIVE
    assert worded(alice_reads, "How to play by email.") in answer_to_alice(mailoutbox).body


@pytest.mark.parametrize(("alice_reads", "line", "noted"), [
    ("hu", "jegyzet: bobnál a király", "bobnál a király"),
    ("de", "Notiz: Bob hat die Prinzessin\nWächterin aufheben", "Bob hat die Prinzessin\nWächterin aufheben"),
    ("en", "note: Bob holds the Princess", "Bob holds the Princess"),
], indirect=["alice_reads"])
def test_a_note_with_a_colon_adds_what_follows_it(alice_reads, started_game, turn_email, alice, mailoutbox, line,
                                                 noted):
    assert handle_inbound(reply_bytes(turn_email, line)) == "noted"
    assert GameNote.objects.get(user=alice).text == noted


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
    ("hu", "mondd: Sziasztok", "Sziasztok"),
    ("de", "sag: Hallo\nund viel Spaß", "Hallo\nund viel Spaß"),
    ("en", "say: hi", "hi"),
    ("de", "say:hi", "hi"),
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
