"""Text notation for Love Letter moves (classic and 2019 editions), in the reader's language, used in emails and logs.

    guard bob priest      play the Guard on Bob, naming the Priest     (őr bob pap, wächterin bob priester)
    prince self           play the Prince on yourself                  (herceg magam, prinz mich)
    handmaid              play a card that chooses nobody              (komorna, zofe)
    keep baron bottom guard priest   resolve the 2019 Chancellor      (megtart báró alulra őr pap)

``describe_move`` writes the reader's language (the platform stores it in English, the log's
canonical notation). ``parse_move`` reads that form first, word by word in its order (card, player,
named card), so every written move reads back whatever its players are called. Failing that it
reads a sentence as a player writes it (``notation_reading.py``): "spiele die Wache auf Ben, rate
Priester", "az őrt Benre játszom ki, papot mondok", "play the guard on bob naming the priest".
Both read the reader's language and English, with or without accents (``or`` for ``őr``,
``koenig`` for ``könig``); where a word means one thing in the reader's language and another in
English, the reader's language wins. A player is written as their name, the language's word for
yourself (``self``, ``magam``, ``mich``), or ``#N`` (N counts seats from 1).
"""

from __future__ import annotations

from typing import Any

from games.base import BadNotation
from games.i18n import catalog_of, current_language, locale_name
from games.love_letter import cards
from games.love_letter.cards import TARGETS
from games.love_letter.notation_reading import read_sentence
from games.love_letter.notation_words import (BOTTOM, I, KEEP, SELF, SKIP, card_word, check_edition, english, fold,
                                              forms, keys, meaning, one_player, readers, seat_number, self_word,
                                              unknown_card, unknown_player, written)
from games.love_letter.words import subject, upper_first

_ = catalog_of(__name__)

__all__ = ["card_word", "describe_move", "notation_help", "parse_move", "self_word"]


def _in_english() -> bool:
    return locale_name(current_language()).partition("_")[0] == "en"


def notation_help() -> str:
    """Return how to write each kind of move, with examples, in the reader's language."""
    lines = [
        _("Write the card you play, then the player it chooses, then (Guard only) the card you name:"),
        "  " + _("guard bob priest | priest carol | baron bob | king bob | prince bob | prince self"),
        "  " + _("handmaid | countess | princess | spy | chancellor  (cards that choose nobody)"),
        _("A Guard, Priest, Baron or King with no player to choose is written alone: guard"),
        _("Players: their name, self or me, or #N for the N-th seat (#1 is the first)."),
        _("2019 Chancellor: keep baron bottom guard priest  (the last card listed goes lowest)."),
        _("You may also write a sentence, in any order, with or without articles:"),
        # Translators: sentences as a player of your language writes them, "|" between them; each must read as a move
        # (a Guard on bob naming the Priest, a Prince on yourself, the Handmaid, the Chancellor's choice). Keep "bob".
        "  " + _("play the guard on bob and name the priest | play the prince on me | play the handmaid | keep the "
                 "baron, put the guard and the priest at the bottom"),
    ]
    if not _in_english():
        lines.append(_("English works too: guard bob priest, prince self, keep baron bottom guard priest."))
    return "\n".join(lines)


def _normal(text: str) -> str:
    return " ".join(text.lower().split())


def _card(word: str, edition: str) -> str:
    """Return the card type a word names (the reader's language first, then English), or raise ``BadNotation``."""
    card = meaning(fold(word.strip(".!:;")))
    if card not in cards.ALL_CARDS:
        raise unknown_card(word, edition)
    return check_edition(card, edition)


def _words_for_yourself(vocabulary) -> set[str]:
    return {form for form, kind in vocabulary.words.items() if kind in (SELF, I)}


def _player(text: str, state: dict[str, Any], seat: int) -> int:
    """Return the seat a player word names, or raise ``BadNotation``.

    The reader's word for yourself as written, then ``#N``, then a name as written, then the
    reader's words for yourself without accents, a name without accents, and last English's
    words for yourself: a player called "Mich" is "mich" in English and yourself in German.
    """
    names = state["players"]
    own = readers()
    if text in own.self_as_written or (text in own.words and own.words[text] == I):
        return seat
    number = seat_number(text, state)
    if number is not None:
        return number
    as_written = one_player([index for index, player in enumerate(names) if _normal(player) == text], text)
    if as_written is not None:
        return as_written
    mine = fold(text) in _words_for_yourself(own)
    if not mine:
        folded = one_player([index for index, player in enumerate(names) if fold(text) in keys(_normal(player))], text)
        if folded is not None:
            return folded
    if mine or fold(text) in _words_for_yourself(english()):
        return seat
    raise unknown_player(text, names)


def _read_in_order(words: list[str], state: dict[str, Any], seat: int) -> dict[str, Any]:
    """Read the written notation, word by word: card, player, named card; or keep, card, bottom, cards."""
    edition = state["edition"]
    if meaning(fold(words[0])) == KEEP:
        rest = [word for word in words[1:] if meaning(fold(word)) != SKIP]
        if not rest:
            raise BadNotation(_("Write which card to keep: 'keep baron bottom guard priest'"))
        keep = _card(rest[0], edition)
        rest = rest[1:]
        if rest and meaning(fold(rest[0])) == BOTTOM:
            rest = rest[1:]
        elif rest:
            raise BadNotation(_("Write 'bottom' before the cards you put under the deck"))
        return {"keep": keep, "bottom": [_card(word, edition) for word in rest]}
    card = _card(words[0], edition)
    rest = words[1:]
    if TARGETS[card] is None:
        if rest:
            # Translators: {card} is the card with its article, as the subject; {word} its notation word.
            raise BadNotation(upper_first(_("{card} chooses nobody: write just '{word}'").format(
                card=subject(card), word=card_word(card))))
        return {"card": card}
    if not rest:
        return {"card": card}
    if card == "guard":
        if len(rest) < 2:
            raise BadNotation(_("Name a card after the player, for example 'guard bob priest'"))
        return {"card": card, "target": _player(" ".join(rest[:-1]), state, seat), "guess": _card(rest[-1], edition)}
    return {"card": card, "target": _player(" ".join(rest), state, seat)}


def parse_move(text: str, state: dict[str, Any], seat: int) -> dict[str, Any]:
    """Read the text notation, in the reader's language or English, into a move (legality is checked by apply).

    The written order is tried first; a text it cannot read is read as a sentence, and when neither
    reads it, the sentence's reason is given (it says which word it could not place).
    """
    if not isinstance(text, str):
        raise BadNotation(_("A move must be text such as 'guard bob priest'"))
    words = _normal(text.replace(",", " ")).split()
    while words and meaning(fold(words[0])) == SKIP:
        words = words[1:]
    if not words:
        raise BadNotation(_("Write a move, for example 'guard bob priest' or 'handmaid'"))
    try:
        return _read_in_order(words, state, seat)
    except BadNotation as in_order:
        try:
            return read_sentence(text, state, seat)
        except BadNotation as as_sentence:
            raise as_sentence from in_order


def _player_text(state: dict[str, Any], target: int) -> str:
    """Return how to write ``target``: the word for yourself for the mover, else the name, else #N.

    A name is written as it is only when it reads back as that player and nothing else: not a
    word for yourself (the reader's, or English's outside English), unique, without "#" or a comma.
    """
    if target == state.get("current"):
        return self_word()
    names = [_normal(player) for player in state["players"]]
    written_name = names[target]
    own = readers()
    if _in_english():
        clash = written_name in own.self_as_written or own.words.get(written_name) == I
    else:
        clash = bool(keys(written_name) & (_words_for_yourself(own) | _words_for_yourself(english())))
    plain = (written_name and not clash and not written_name.startswith("#") and "," not in written_name
             and names.count(written_name) == 1)
    return written_name if plain else f"#{target + 1}"


def describe_move(state: dict[str, Any], move: dict[str, Any]) -> str:
    """Return the text notation of ``move`` in the reader's language (it parses back to the same move)."""
    if "keep" in move:
        bottom = [card_word(card) for card in move.get("bottom") or []]
        found = forms()
        parts = [written(found[KEEP]), card_word(move["keep"])]
        return " ".join([*parts, *([written(found[BOTTOM]), *bottom] if bottom else [])])
    parts = [card_word(move["card"])]
    if move.get("target") is not None:
        parts.append(_player_text(state, move["target"]))
    if move.get("guess") is not None:
        parts.append(card_word(move["guess"]))
    return " ".join(parts)
