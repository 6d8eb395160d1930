"""Text notation for Savernake Forest moves, in the reader's language, used in emails, logs and the API.

    take goat 1,0 r90 drop AN05 W          goat's card to cell 1,0 turned 90°, water drop on AN05's worms
    take armadillo -1,2 r0 burrow AN05     armadillo's card to -1,2 unturned, burrow on AN05
    take rabbit 0,1 r180 keep AN06         rabbit's animal to 0,1; it shares a path: keep AN06
    take rooster 1,1 r270                  rooster's card; you go first next round

In Hungarian the same moves read "vedd a kecskét 1,0 90° víztoken AN05 F", "vedd a tatut -1,2 0°
üregtoken AN05"; in German "nimm die Ziege 1,0 90° Tropfen AN05 W" (the words: ``notation_words.py``).
``describe_move`` writes the reader's language (the platform stores the English one); ``parse_move``
reads the reader's language and English, with or without accents, in any case. The slot may be
written as the card id in it (``take ST07 1,0 r90``); an animal may be named by id or by name
(``burrow hedgehog``, ``keep wild boar``, Hungarian ``üregtoken a sünre``).
"""

from __future__ import annotations

import re
from typing import Any

from games.base import BadNotation
from games.i18n import catalog_of, in_english
from games.savernake_forest import cards, notation_words
from games.savernake_forest.cards import SLOTS
from games.savernake_forest.notation_words import fold, lookup
from games.savernake_forest.words import food_letters, or_list, slot_names

_ = catalog_of(__name__)

_CELL = re.compile(r"\(?\s*([+-]?\d+)\s*,\s*([+-]?\d+)\s*\)?")
_ROT = re.compile(r"(?:r|rot)(\d+)")
_TOKEN = re.compile(r"[+-]?\d+,[+-]?\d+|[a-z0-9°]+")


def notation_help() -> str:
    """Return a few lines explaining how to write any move, in the reader's language."""
    lines = [
        _("A turn is one line: take SLOT X,Y rDEG [keep ANIMAL[,ANIMAL]] [drop ANIMAL FOOD | burrow ANIMAL]"),
        _("  SLOT: rooster, goat, armadillo or rabbit (or the id of the card lying there, e.g. ST07)."),
        _("  X,Y: the cell; your first animal is at 0,0, x grows east, y grows south (-1,0 is west of it)."),
        _("  rDEG: clockwise turn of the card as printed: r0, r90, r180 or r270 (r0 if left out)."),
        _("  keep: only when the card joins animals on one path: the animal kept on each shared path."),
        _("  goat: drop ANIMAL FOOD puts the water drop (FOOD: B berries, W worms, E eggs, N nuts)."),
        _("  armadillo: burrow ANIMAL puts the burrow. Name animals by id (AN05) or name (hedgehog)."),
        _("Examples: take goat 1,0 r90 drop AN05 W | take armadillo -1,2 r0 burrow AN05"),
        _("          take rabbit 0,1 r180 keep AN06 | take rooster 1,1 r270"),
    ]
    with in_english():
        english = notation_words.written()
    if notation_words.written() != english:  # the reader's language has notation words of its own
        lines.append(_("English works too: take goat 1,0 r90 drop AN05 W."))
    return "\n".join(lines)


def describe_move(state: dict[str, Any], move: dict[str, Any]) -> str:
    """Return the text notation of ``move`` in the reader's language (it parses back to the same move)."""
    words = notation_words.written()
    parts = [words["take"], words["slots"][move["slot"]], f"{move['x']},{move['y']}",
             words["turn"].format(degrees=int(move["rot"]) * 90)]
    if "keep" in move:
        parts += [words["keep"], ",".join(move["keep"])]
    token = move.get("token")
    if token is not None:
        if "food" in token:
            parts += [words["drop"], token["animal"], food_letters()[token["food"]]]
        else:
            parts += [words["burrow"], token["animal"]]
    return " ".join(parts)


def _normalised(text: str) -> list[str]:
    """Return the words of ``text``: folded, cells as "x,y", turns as "r90", multi-word names joined."""
    mine, english = notation_words.both()
    words = fold(text)
    words = re.sub(r"\b([a-z]{2}\d\d)-[a-z]+", r"\1", words)  # a Hungarian ending on a card id: AN05-öt
    words = re.sub(r"(\d+)\s*°(?:-[a-z]+)?", r" r\1 ", words)  # 90°, 90°-kal
    units = sorted(mine.degrees | english.degrees, key=len, reverse=True)
    if units:
        words = re.sub(r"(\d+)\s*(?:" + "|".join(map(re.escape, units)) + r")\b", r" r\1 ", words)
    words = re.sub(r"\b(?:r|rot)\s+(\d+)", r"r\1", words)
    words = re.sub(r"(\d)-[a-z]+\b", r"\1", words)  # a Hungarian ending on a cell: 1,0-ra
    for phrase in sorted(mine.phrases | english.phrases, key=len, reverse=True):
        pattern = r"\b" + r"[\s_-]+".join(map(re.escape, phrase.split())) + r"\b"
        words = re.sub(pattern, phrase.replace(" ", ""), words)
    words = _CELL.sub(lambda m: f" {int(m.group(1))},{int(m.group(2))} ", words)
    return [word for word in _TOKEN.findall(words) if not notation_words.skipped(word)]


def _slot(word: str, state: dict[str, Any] | None) -> str:
    found = lookup("slots", word)
    if found is not None:
        return found
    matches: list[str] = []
    for vocabulary in notation_words.both():  # a prefix in the reader's language first ("g": German Gürteltier)
        matches = sorted({slot for form, slot in vocabulary.slots.items() if form.startswith(word)}, key=SLOTS.index)
        if matches:
            break
    if len(matches) == 1:
        return matches[0]
    card = word.upper()
    if cards.exists(card):
        for slot in SLOTS:
            if state is not None and state["market"].get(slot) == card:
                return slot
        raise BadNotation(_("{card} is not in the market").format(card=card))
    names = slot_names()
    if len(matches) > 1:
        raise BadNotation(_("{word!r} could be {choices}: write more of the helper's name").format(
            word=word, choices=or_list([names[slot] for slot in matches])))
    raise BadNotation(_("Unknown slot {word!r}: write rooster, goat, armadillo or rabbit (or the card's id)").format(
        word=word))


def parse_move(text: str, state: dict[str, Any], seat: int) -> dict[str, Any]:
    """Read the text notation (the reader's language or English) into a move; legality is checked by apply."""
    if not isinstance(text, str):
        raise BadNotation(_("A move must be text such as 'take goat 1,0 r90 drop AN05 W'"))
    return _read(_normalised(text), state)


def _read(words: list[str], state: dict[str, Any] | None) -> dict[str, Any]:
    """Read normalised words into a move (``state`` None: a card id cannot stand for its slot)."""
    mine, english = notation_words.both()
    if words and (words[0] in mine.take or words[0] in english.take):
        words = words[1:]
    if not words:
        raise BadNotation(_("Write a move, for example 'take goat 1,0 r90 drop AN05 W'"))
    move: dict[str, Any] = {"slot": _slot(words.pop(0), state)}
    if not words or "," not in words[0]:
        raise BadNotation(_("Give the cell after the slot as x,y (for example 'take goat 1,0 r90')"))
    x, y = words.pop(0).split(",")
    move.update(x=int(x), y=int(y), rot=0)
    if words:
        rot = _ROT.fullmatch(words[0])
        if rot:
            words.pop(0)
            degrees = int(rot.group(1))
            if degrees not in (0, 90, 180, 270):
                raise BadNotation(_("Rotation r{degrees}: write r0, r90, r180 or r270").format(degrees=degrees))
            move["rot"] = degrees // 90
    while words:
        word = words.pop(0)
        keyword = lookup("keywords", word)
        args = []
        while words and lookup("keywords", words[0]) is None:
            args.append(words.pop(0))
        if keyword == "keep":
            if "keep" in move or not args:
                raise BadNotation(_("Write keep once, followed by the animal kept on each shared path"))
            keep = []
            for arg in args:
                animal = notation_words.animal(arg)
                if animal is None:
                    raise BadNotation(_("Unknown animal {word!r} after keep").format(word=arg))
                keep.append(animal)
            move["keep"] = keep
        elif keyword in ("drop", "burrow"):
            if "token" in move:
                raise BadNotation(_("A turn places at most one token"))
            move["token"] = _token(keyword == "drop", args)
        else:
            raise BadNotation(_("Cannot read {word!r}: after the rotation come keep, drop or burrow").format(word=word))
    return move


def _token(drop: bool, args: list[str]) -> dict[str, str]:
    """Read ``ANIMAL FOOD`` (either order) after drop, or ``ANIMAL`` after burrow."""
    written = notation_words.written()
    animals = [a for a in (notation_words.animal(arg) for arg in args) if a is not None]
    foods = [food for food in (lookup("foods", arg) for arg in args) if food is not None]
    if len(animals) != 1:
        raise BadNotation(_("Name one animal after {keyword} (its id such as AN05, or its name)").format(
            keyword=written["drop" if drop else "burrow"]))
    if drop:
        if len(foods) != 1 or len(args) != 2:
            raise BadNotation(_("A drop names an animal and a food: drop AN05 W (B, W, E or N)"))
        return {"animal": animals[0], "food": foods[0]}
    if len(args) != 1:
        raise BadNotation(_("A burrow names only the animal: burrow AN05"))
    return {"animal": animals[0]}


def moves_summary(texts: list[str], limit: int = 40) -> list[str]:
    """Return legal moves (their notation) as short lines: per slot its cells, turns, survivors and tokens."""
    if len(texts) <= limit:
        return list(texts)
    words = notation_words.written()
    letters = food_letters()
    slots: dict[str, dict[str, dict]] = {}
    others: list[str] = []
    for text in texts:
        try:
            move = _read(_normalised(text), None)
        except BadNotation:
            others.append(text)
            continue
        cell = f"{move['x']},{move['y']}"
        turn = words["turn"].format(degrees=move["rot"] * 90)
        group = slots.setdefault(move["slot"], {"cells": {}, "turns": {}, "keeps": {}, "tokens": {}})
        group["cells"][cell] = None
        group["turns"][turn] = None
        if "keep" in move:
            group["keeps"].setdefault((cell, turn), {})[",".join(move["keep"])] = None
        token = move.get("token")
        if token is not None:
            what = f"{words['drop' if 'food' in token else 'burrow']} {token['animal']}"
            group["tokens"].setdefault(what, {})[letters[token["food"]] if "food" in token else ""] = None
    lines = []
    for slot, group in slots.items():
        lines.append(_("take {slot}: cells {cells}; turns {turns}").format(
            slot=words["slots"][slot], cells=" ".join(group["cells"]), turns=" ".join(group["turns"])))
        if group["keeps"]:
            shown = [_("{cell} {turn} keep {animals}").format(cell=cell, turn=turn, animals=or_list(list(choices)))
                     for (cell, turn), choices in list(group["keeps"].items())[:6]]
            more = len(group["keeps"]) - len(shown)
            if more > 0:
                lines.append(_.ngettext("  shared paths: {choices} and {count} more",
                                        "  shared paths: {choices} and {count} more", more).format(
                    choices="; ".join(shown), count=more))
            else:
                lines.append(_("  shared paths: {choices}").format(choices="; ".join(shown)))
        if group["tokens"]:
            tokens = [f"{what} {' '.join(foods)}".rstrip() for what, foods in group["tokens"].items()]
            lines.append(_("  then {tokens}").format(tokens="; ".join(tokens)))
    lines.extend(others)
    return lines
