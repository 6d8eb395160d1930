"""Text notation for Savernake Forest moves, used in emails and logs.

    take goat 1,0 r90 drop AN05 W          goat's card to cell 1,0 turned 90°, water drop on AN05's worms
    take armadillo -1,2 r0 burrow AN05     armadillo's card to -1,2 unturned, burrow on AN05
    take rabbit 0,1 r180 keep AN06         rabbit's animal to 0,1; it shares a path: keep AN06
    take rooster 1,1 r270                  rooster's card; you go first next round

Case-insensitive. The slot may be written as the card id in it (``take ST07 1,0 r90``);
an animal may be named by id or by name (``burrow hedgehog``, ``keep wild boar``).
"""

from __future__ import annotations

import re
from typing import Any

from games.base import BadNotation
from games.savernake_forest import cards
from games.savernake_forest.cards import SLOTS

FOOD_WORDS = {
    "b": "B", "berry": "B", "berries": "B",
    "w": "W", "worm": "W", "worms": "W",
    "e": "E", "egg": "E", "eggs": "E",
    "n": "N", "nut": "N", "nuts": "N", "acorn": "N", "acorns": "N",
}  # fmt: skip
KEEP_WORDS = ("keep", "survivor")
DROP_WORDS = ("drop", "water", "waterdrop")
BURROW_WORDS = ("burrow", "den", "lair")
KEYWORDS = (*KEEP_WORDS, *DROP_WORDS, *BURROW_WORDS)

_CELL = re.compile(r"\(?\s*([+-]?\d+)\s*,\s*([+-]?\d+)\s*\)?")
_ROT = re.compile(r"(?:r|rot)(\d+)")
_TOKEN = re.compile(r"[+-]?\d+,[+-]?\d+|[a-z0-9°]+")


def notation_help() -> str:
    """Return a few lines explaining how to write any move."""
    return "\n".join(
        [
            "A turn is one line: take SLOT X,Y rDEG [keep ANIMAL[,ANIMAL]] [drop ANIMAL FOOD | burrow ANIMAL]",
            "  SLOT: rooster, goat, armadillo or rabbit (or the id of the card lying there, e.g. ST07).",
            "  X,Y: the cell; your first animal is at 0,0, x grows east, y grows south (-1,0 is west of it).",
            "  rDEG: clockwise turn of the card as printed: r0, r90, r180 or r270 (r0 if left out).",
            "  keep: only when the card joins animals on one path: the animal kept on each shared path.",
            "  goat: drop ANIMAL FOOD puts the water drop (FOOD: B berries, W worms, E eggs, N nuts).",
            "  armadillo: burrow ANIMAL puts the burrow. Name animals by id (AN05) or name (hedgehog).",
            "Examples: take goat 1,0 r90 drop AN05 W | take armadillo -1,2 r0 burrow AN05",
            "          take rabbit 0,1 r180 keep AN06 | take rooster 1,1 r270",
        ]
    )


def describe_move(state: dict[str, Any], move: dict[str, Any]) -> str:
    """Return the text notation of ``move`` (it parses back to the same move)."""
    text = f"take {move['slot']} {move['x']},{move['y']} r{int(move['rot']) * 90}"
    if "keep" in move:
        text += " keep " + ",".join(move["keep"])
    token = move.get("token")
    if token is not None:
        if "food" in token:
            text += f" drop {token['animal']} {token['food']}"
        else:
            text += f" burrow {token['animal']}"
    return text


def _normalised(text: str) -> list[str]:
    """Return the words of ``text``: lower case, cells as "x,y", multi-word animal names joined."""
    words = text.lower().replace("°", " ° ")
    words = re.sub(r"(\d+)\s*°", r"r\1", words)
    words = re.sub(r"\b(?:r|rot)\s+(\d+)", r"r\1", words)
    for info in cards.ANIMALS.values():
        if " " in info["name"]:
            pattern = r"\b" + r"[\s_-]+".join(map(re.escape, info["name"].lower().split())) + r"\b"
            words = re.sub(pattern, "".join(info["name"].lower().split()), words)
    words = _CELL.sub(lambda m: f" {int(m.group(1))},{int(m.group(2))} ", words)
    return _TOKEN.findall(words)


def _slot(word: str, state: dict[str, Any]) -> str:
    matches = [slot for slot in SLOTS if slot.startswith(word)]
    if len(matches) == 1:
        return matches[0]
    card = word.upper()
    if cards.exists(card):
        for slot in SLOTS:
            if state["market"].get(slot) == card:
                return slot
        raise BadNotation(f"{card} is not in the market")
    if len(matches) > 1:
        raise BadNotation(f"{word!r} could be {' or '.join(matches)}: write more of the helper's name")
    raise BadNotation(f"Unknown slot {word!r}: write rooster, goat, armadillo or rabbit (or the card's id)")


def _animal(word: str) -> str | None:
    card = word.upper()
    if card in cards.ANIMALS:
        return card
    return cards.animal_by_name(word)


def parse_move(text: str, state: dict[str, Any], seat: int) -> dict[str, Any]:
    """Read the text notation into a move (legality is checked by apply)."""
    if not isinstance(text, str):
        raise BadNotation("A move must be text such as 'take goat 1,0 r90 drop AN05 W'")
    words = _normalised(text)
    if words and words[0] in ("take", "t", "pick"):
        words = words[1:]
    if not words:
        raise BadNotation("Write a move, for example 'take goat 1,0 r90 drop AN05 W'")
    move: dict[str, Any] = {"slot": _slot(words.pop(0), state)}
    if words and words[0] in ("at", "to", "on"):
        words.pop(0)
    if not words or "," not in words[0]:
        raise BadNotation("Give the cell after the slot as x,y (for example 'take goat 1,0 r90')")
    x, y = words.pop(0).split(",")
    move.update(x=int(x), y=int(y), rot=0)
    if words:
        rot = _ROT.fullmatch(words[0])
        if rot:
            words.pop(0)
            degrees = int(rot.group(1))
            if degrees not in (0, 90, 180, 270):
                raise BadNotation(f"Rotation r{degrees}: write r0, r90, r180 or r270")
            move["rot"] = degrees // 90
    while words:
        word = words.pop(0)
        args = []
        while words and words[0] not in KEYWORDS:
            args.append(words.pop(0))
        if word in KEEP_WORDS:
            if "keep" in move or not args:
                raise BadNotation("Write keep once, followed by the animal kept on each shared path")
            keep = []
            for arg in args:
                animal = _animal(arg)
                if animal is None:
                    raise BadNotation(f"Unknown animal {arg!r} after keep")
                keep.append(animal)
            move["keep"] = keep
        elif word in DROP_WORDS or word in BURROW_WORDS:
            if "token" in move:
                raise BadNotation("A turn places at most one token")
            move["token"] = _token(word in DROP_WORDS, args)
        else:
            raise BadNotation(f"Cannot read {word!r}: after the rotation come keep, drop or burrow")
    return move


def _token(drop: bool, args: list[str]) -> dict[str, str]:
    """Read ``ANIMAL FOOD`` (either order) after drop, or ``ANIMAL`` after burrow."""
    what = "drop" if drop else "burrow"
    animals = [a for a in (_animal(arg) for arg in args) if a is not None]
    foods = [FOOD_WORDS[arg] for arg in args if arg in FOOD_WORDS]
    if len(animals) != 1:
        raise BadNotation(f"Name one animal after {what} (its id such as AN05, or its name)")
    if drop:
        if len(foods) != 1 or len(args) != 2:
            raise BadNotation("A drop names an animal and a food: drop AN05 W (B, W, E or N)")
        return {"animal": animals[0], "food": foods[0]}
    if len(args) != 1:
        raise BadNotation("A burrow names only the animal: burrow AN05")
    return {"animal": animals[0]}


_CANONICAL = re.compile(r"take (\w+) (-?\d+,-?\d+) (r\d+)(?: keep (\S+))?(?: (drop|burrow) (\w+)(?: (\w))?)?")


def moves_summary(texts: list[str], limit: int = 40) -> list[str]:
    """Return legal moves (canonical notation) as short lines: per slot its cells, turns, survivors, tokens."""
    if len(texts) <= limit:
        return list(texts)
    slots: dict[str, dict[str, dict]] = {}
    for text in texts:
        match = _CANONICAL.fullmatch(text)
        if match is None:
            slots.setdefault("other", {"cells": {}, "turns": {}, "keeps": {}, "tokens": {}})["cells"][text] = None
            continue
        slot, cell, turn, keep, what, animal, food = match.groups()
        group = slots.setdefault(slot, {"cells": {}, "turns": {}, "keeps": {}, "tokens": {}})
        group["cells"][cell] = None
        group["turns"][turn] = None
        if keep:
            group["keeps"].setdefault(f"{cell} {turn}", {})[keep] = None
        if what:
            group["tokens"].setdefault(f"{what} {animal}", {})[food or ""] = None
    lines = []
    for slot, group in slots.items():
        lines.append(f"take {slot}: cells {' '.join(group['cells'])}; turns {' '.join(group['turns'])}")
        if group["keeps"]:
            shown = [f"{where} keep {' or '.join(choices)}" for where, choices in list(group["keeps"].items())[:6]]
            more = len(group["keeps"]) - len(shown)
            lines.append("  shared paths: " + "; ".join(shown) + (f" and {more} more" if more > 0 else ""))
        if group["tokens"]:
            tokens = [f"{token} {' '.join(foods)}".rstrip() for token, foods in group["tokens"].items()]
            lines.append("  then " + "; ".join(tokens))
    return lines
