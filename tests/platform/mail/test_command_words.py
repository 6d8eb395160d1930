"""Every form of every email command, in every language the site speaks: read as that command however a player
writes it (capitals, accents left off, a closing mark, a colon after say and note), never as another command, and
never as a move of any game in that language (nor a move as a command)."""

from __future__ import annotations

import random

import pytest
from django.utils import translation

import games
from games.base import BadNotation, IllegalMove
from tests.platform.mail.conftest import LANGUAGES
from turnbased.mail import commands

# Positions of each game where the command words are written as moves: every few plies of seeded random games.
SEEDS, PLIES, EVERY = (0, 1), 300, 4
# The commands whose words start a line, the rest of it what the player writes.
LEADING = (commands.SAY, commands.NOTE)


def forms(language: str) -> list[tuple[str, str]]:
    """Return (kind, word) for every form of every command in ``language``."""
    return [(kind, word) for kind, words in commands.vocabulary(language).items() for word in words]


def read_as(line: str, language: str) -> str | None:
    """Return what a game's reply (or, for accept and decline, a group's) makes of ``line``."""
    return commands.read(line, language) or commands.read_answer(line, language)


def unaccented(word: str) -> str:
    return word.translate(str.maketrans("áéíóöőúüűÁÉÍÓÖŐÚÜŰäÄ", "aeiooouuuAEIOOOUUUaA"))


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_form_is_two_commands_in_a_language_or_in_it_and_english(language):
    meant: dict[str, str] = {}
    for code in dict.fromkeys((language, commands.ENGLISH)):
        for kind, word in forms(code):
            assert meant.setdefault(commands.folded(word), kind) == kind, (language, word, meant[commands.folded(word)])


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_form_is_read_however_a_player_writes_it(language):
    for kind, word in forms(language):
        if kind == commands.STOP:
            assert commands.is_stop(f"{word.upper()}!", language) and read_as(word, language) is None, word
            continue
        if kind in LEADING:
            written = [f"{word} hi", f"{word}: hi", f"{word.upper()}:hi", f"{unaccented(word)} hi", word]
        else:
            written = [word, f"{word}.", f"{word}!", f"{word.upper()}?", unaccented(word).lower(), f"  {word}  "]
        for line in written:
            expected = commands.HELP if kind == commands.RESIGN and line.endswith("?") else kind
            assert read_as(line, language) == expected, (language, kind, line)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_form_followed_by_more_words_is_no_command_unless_it_starts_a_message(language):
    for kind, word in forms(language):
        if kind not in LEADING:
            assert read_as(f"{word} everyone", language) is None, (language, word)


def _positions(engine):
    """Yield (state, seat) of seeded random games of ``engine`` every ``EVERY`` plies, the first included."""
    for seed in SEEDS:
        players = ["Ann", "Ben", "Cas", "Dee"][:max(engine.min_players, 2)]
        state = engine.setup(players, engine.validate_options(len(players), {}), f"commands-{seed}")
        chooser = random.Random(seed)
        for ply in range(PLIES):
            if engine.is_over(state):
                break
            seat = engine.to_move(state)[0]
            legal = engine.legal_moves(state, seat)
            if ply % EVERY == 0:
                yield state, seat, legal
            state, _ = engine.apply(state, seat, chooser.choice(legal))


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("slug", sorted(games.engines()))
def test_no_command_word_is_a_move_of_any_game_nor_a_move_a_command(slug, language):
    engine = games.get_engine(slug)
    # The words the player's reply is read in: their language's and English, which every player may write.
    words = {word for code in dict.fromkeys((language, commands.ENGLISH)) for _, word in forms(code)}
    checked = 0
    with translation.override(language):
        for state, seat, legal in _positions(engine):
            for word in words:
                try:
                    move = engine.parse_move(word, state, seat)
                except (BadNotation, IllegalMove):
                    continue
                pytest.fail(f"{language} {word!r} is a command and {slug}'s move {move}")
            for move in legal[:40]:
                written = engine.describe_move(state, move)
                assert read_as(written, language) is None, (slug, language, written)
            checked += 1
    assert checked >= 2
