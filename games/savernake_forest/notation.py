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

# A cell is "x,y", written tight or with spaces and brackets; never digits glued to a word ("r90", "AN05").
_CELL = re.compile(r"(?<![a-z0-9])\(?\s*([+-]?\d+)\s*,\s*([+-]?\d+)\s*\)?")
_TIGHT_CELL = re.compile(r"(?<![a-z0-9])([+-]?\d+),([+-]?\d+)(?![0-9])")
_ROT = re.compile(r"(?:r|rot)(\d+)")
_TOKEN = re.compile(r"[+-]?\d+,[+-]?\d+|[a-z0-9°]+|[,;.]")
SEPARATOR = "|"  # between the clauses a player writes ("die Ziege nehmen, auf 1,0 legen")


def notation_help() -> str:
    """Return a few lines explaining how to write any move, in the reader's language, with the natural forms
    a player may type for each part (the translator lists their language's own) and that English works too."""
    lines = [
        _("A turn is one line: take SLOT X,Y rDEG [keep ANIMAL[,ANIMAL]] [drop ANIMAL FOOD | burrow ANIMAL]"),
        _("  SLOT: rooster, goat, armadillo or rabbit (or the id of the card lying there, e.g. ST07)."),
        _("  X,Y: the cell; your first animal is at 0,0, x grows east, y grows south (-1,0 is west of it)."),
        _("  rDEG: clockwise turn of the card as printed: r0, r90, r180 or r270 (r0 if left out)."),
        _("  keep: only when the card joins animals on one path: the animal kept on each shared path."),
        _("  goat: drop ANIMAL FOOD puts the water drop (FOOD: B berries, W worms, E eggs, N nuts)."),
        _("  armadillo: burrow ANIMAL puts the burrow. Name animals by id (AN05) or name (hedgehog)."),
        _("  card ids: AN an animal card, ST a straight path, CU a curve, DC a double curve, then its number (CU10)."),
        _("You may also write it as you would say it, in any order; capitals and accents do not matter:"),
        # Translators: the forms your language's players type for each part of a move, as they are read
        # (notation_words.py's lists): a verb as a command or an infinitive, with or without an article.
        _("  the card: 'take the goat', 'the goat's card', 'goat'"),
        _("  the cell and the turn: 'put it at 1,0', '(1, 0)', 'turned 90 degrees', '90°'"),
        _("  keep: 'keep the owl', 'the owl stays'"),
        _("  the water drop: 'water drop on the hedgehog's worms', 'drop hedgehog worms'"),
        _("  the burrow: 'burrow for the hedgehog', 'give the hedgehog a burrow'"),
        _("Examples: take goat 1,0 r90 drop AN05 W | take armadillo -1,2 r0 burrow AN05"),
        _("          take rabbit 0,1 r180 keep AN06 | take rooster 1,1 r270"),
        _("          take the goat, put it at 1,0 turned 90 degrees, water drop on the hedgehog's worms"),
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
    """Return the words of ``text``: folded, cells as "x,y", turns as "r90", multi-word names joined, the
    commas and full stops between a player's clauses as ``SEPARATOR``, and words that mean nothing left out."""
    mine, english = notation_words.both()
    words = fold(text).replace("’", "'")
    words = re.sub(r"(?<=[a-z])'s\b", "", words)  # English "the hedgehog's worms"
    words = re.sub(r"\b([a-z]{2}\d\d)-[a-z]+", r"\1", words)  # a Hungarian ending on a card id: AN05-öt
    words = re.sub(r"(\d+)\s*°(?:-[a-z]+)?", r" r\1 ", words)  # 90°, 90°-kal
    units = sorted(mine.degrees | english.degrees, key=len, reverse=True)
    if units:
        words = re.sub(r"(\d+)\s*(?:" + "|".join(map(re.escape, units)) + r")\b", r" r\1 ", words)
    words = re.sub(r"\b(?:r|rot)\s+(\d+)\b(?!\s*,\s*[+-]?\d)", r"r\1", words)  # "r 90", not "r 1,0"
    words = re.sub(r"(\d)-[a-z]+\b", r"\1", words)  # a Hungarian ending on a cell or a number: 1,0-ra, 90-nel
    for phrase in sorted(mine.phrases | english.phrases, key=len, reverse=True):
        pattern = r"\b" + r"[\s_-]+".join(map(re.escape, phrase.split())) + r"\b"
        words = re.sub(pattern, phrase.replace(" ", ""), words)
    # A cell written tight ("1,0") wins over one with spaces ("(1, 0)"), so "90, 1,0" is a turn and a cell.
    cell = _TIGHT_CELL if _TIGHT_CELL.search(words) else _CELL
    words = cell.sub(lambda m: f" {int(m.group(1))},{int(m.group(2))} ", words)
    found = []
    for word in _TOKEN.findall(words):
        if word in ",;.":
            found.append(SEPARATOR)
        elif not notation_words.skipped(word) and not notation_words.is_take(word):
            found.append(word)  # "take" may stand anywhere ("die Ziege nehmen"): it adds nothing
    return found


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


def _market_slot(word: str, state: dict[str, Any] | None) -> str | None:
    """Return the slot of the market card whose id ``word`` is, or None."""
    card = word.upper()
    if state is None or not cards.exists(card):
        return None
    return next((slot for slot in SLOTS if state["market"].get(slot) == card), None)


def _is_arg(word: str) -> bool:
    """Tell whether ``word`` names an animal or a food (what keep, drop and burrow take)."""
    return notation_words.animal(word) is not None or lookup("foods", word) is not None


def _read(words: list[str], state: dict[str, Any] | None) -> dict[str, Any]:
    """Read normalised words into a move (``state`` None: a card id cannot stand for its slot).

    The helper, the cell and the turn may come in any order ("die Ziege nehmen, auf 1,0 legen"). Keep, drop
    and burrow each take the animals and foods written after them; those written before the first of them in
    a clause are its too ("den Igel behalten", "a sünre üregtokent"). A clause (between commas) without such
    a word adds its animals and foods to the one before it ("Tropfen auf den Igel, Würmer"), or, when there is
    none yet, to the next one ("dem Igel, auf die Eier, einen Tropfen").
    """
    if not [word for word in words if word != SEPARATOR]:
        raise BadNotation(_("Write a move, for example 'take goat 1,0 r90 drop AN05 W'"))
    named = {lookup("slots", word) for word in words if lookup("slots", word) is not None}
    if len(named) > 1:
        raise BadNotation(_("Take one card: name one helper, not {choices}").format(
            choices=or_list([slot_names()[slot] for slot in SLOTS if slot in named])))
    slot = next(iter(named), None)
    move: dict[str, Any] = {}
    parts: list[list] = []  # [keyword, args], in the order written
    pending: list[str] = []  # animals and foods waiting for a keyword after them
    clause: list[list] = []
    leading: list[str] = []

    def close_clause() -> None:
        nonlocal clause, leading, pending
        if clause:
            clause[0][1][:0] = pending + leading
            parts.extend(clause)
            pending = []
        elif leading and parts:
            parts[-1][1].extend(leading)
        else:
            pending += leading
        clause, leading = [], []

    for word in words + [SEPARATOR]:
        if word == SEPARATOR:
            close_clause()
            continue
        if "," in word:
            if "x" in move:
                raise BadNotation(_("A move names one cell, not {first} and {second}").format(
                    first=f"{move['x']},{move['y']}", second=word))
            x, y = word.split(",")
            move.update(x=int(x), y=int(y))
            continue
        degrees = _degrees(word)
        if degrees is not None:
            if "rot" in move:
                raise BadNotation(_("A move turns its card once: write one of r0, r90, r180 or r270"))
            move["rot"] = degrees // 90
            continue
        if lookup("slots", word) is not None:
            continue
        keyword = lookup("keywords", word)
        if keyword is not None:
            if not (clause and clause[-1] == [keyword, []]):  # "víz csepp", "water drop": one word said twice
                clause.append([keyword, []])
        elif slot is None and "slot" not in move and _market_slot(word, state) is not None:
            move["slot"] = _market_slot(word, state)  # no helper named: a market card's id stands for it
        elif _is_arg(word):
            (clause[-1][1] if clause else leading).append(word)
        elif slot is None and "slot" not in move:
            move["slot"] = _slot(word, state)  # an abbreviation ("zi"), or a reason the helper is unknown
        elif clause and clause[-1][0] == "keep":
            raise BadNotation(_("Unknown animal {word!r} after keep").format(word=word))
        else:
            raise BadNotation(_("Cannot read {word!r}: a move names a helper, a cell x,y and a turn, then keep, "
                                "drop or burrow").format(word=word))
    slot = slot or move.pop("slot", None)
    if slot is None:
        for word in words:
            if cards.exists(word.upper()):
                _slot(word, state)  # says the card is not in the market
        if pending:
            _slot(pending[0], state)  # an animal where the helper goes ("take owl 1,0"): says what a helper is
        raise BadNotation(_("Say which helper's card you take: rooster, goat, armadillo or rabbit"))
    if pending and any(lookup("foods", word) is not None for word in pending):
        parts.append(["drop", pending])  # a food can only be a water drop's ("Ziege 1,0 Igel Würmer")
    elif pending:
        raise BadNotation(_("Say what {word!r} is for: keep, drop or burrow").format(word=pending[0]))
    if "x" not in move:
        raise BadNotation(_("Give the cell as x,y (for example 'take goat 1,0 r90')"))
    result: dict[str, Any] = {"slot": slot, "x": move["x"], "y": move["y"], "rot": move.get("rot", 0)}
    for keyword, args in parts:
        if keyword == "keep":
            if "keep" in result or not args:
                raise BadNotation(_("Write keep once, followed by the animal kept on each shared path"))
            keep = []
            for arg in args:
                animal = notation_words.animal(arg)
                if animal is None:
                    raise BadNotation(_("Unknown animal {word!r} after keep").format(word=arg))
                keep.append(animal)
            result["keep"] = keep
        else:
            if "token" in result:
                raise BadNotation(_("A turn places at most one token"))
            result["token"] = _token(keyword == "drop", args)
    return result


def _degrees(word: str) -> int | None:
    """Return the degrees a word turns the card ("r90", "rot90", or a bare 0, 90, 180 or 270), else None."""
    rot = _ROT.fullmatch(word)
    if rot is None and not word.isdigit():
        return None
    degrees = int(rot.group(1) if rot else word)  # a bare number can only be a turn
    if degrees not in (0, 90, 180, 270):
        raise BadNotation(_("Rotation r{degrees}: write r0, r90, r180 or r270").format(degrees=degrees))
    return degrees


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
