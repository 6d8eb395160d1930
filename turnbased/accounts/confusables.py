"""Look-alike usernames: a TR39-style skeleton and the mixed-script rule, from Unicode's confusables data.

The data is Unicode's confusables.txt as shipped by the confusable-homoglyphs package: each source
character maps to one prototype (a character or a short sequence), and the package stores every
pair in both directions. So each group of look-alikes is a star around its prototype; we take the
centre as the group's representative and map every character to it, as TR39's skeleton() does.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from confusable_homoglyphs import categories
from confusable_homoglyphs.confusables import confusables_data

# Right-to-left characters are stored wrapped in LEFT-TO-RIGHT MARKs for display; they are not data.
_DISPLAY_MARK = "\u200e"
# Scripts that any name may mix in: digits, punctuation, combining marks.
_NEUTRAL_SCRIPTS = {"COMMON", "INHERITED"}
# Script mixes that are one writing system, as TR39's "highly restrictive" level allows.
_ALLOWED_MIXES = (
    {"LATIN", "HAN", "HIRAGANA", "KATAKANA"},
    {"LATIN", "HAN", "BOPOMOFO"},
    {"LATIN", "HAN", "HANGUL"},
)


@lru_cache(maxsize=1)
def _representatives() -> dict[str, str]:
    """Map each confusable character to the prototype of its group of look-alikes."""
    neighbours: dict[str, set[str]] = {}
    for key, homoglyphs in confusables_data.items():
        key = key.replace(_DISPLAY_MARK, "")
        neighbours.setdefault(key, set()).update(h["c"].replace(_DISPLAY_MARK, "") for h in homoglyphs)
    representative: dict[str, str] = {}
    for start in neighbours:
        if start in representative:
            continue
        group, pending = set(), [start]
        while pending:
            member = pending.pop()
            if member not in group:
                group.add(member)
                pending.extend(neighbours.get(member, ()))
        representative.update(dict.fromkeys(group, _prototype(group, neighbours)))
    return {member: prototype for member, prototype in representative.items() if len(member) == 1}


def _prototype(group: set[str], neighbours: dict[str, set[str]]) -> str:
    # The prototype is the star's centre; in a pair it is the sequence (sources are single
    # characters), and between two single characters either one serves, so take a fixed one.
    centres = [member for member in group if len(neighbours.get(member, ())) == len(group) - 1]
    if len(group) > 2 and len(centres) == 1:
        return centres[0]
    return max(group, key=lambda member: (len(member), -min(map(ord, member))))


def _map_to_prototypes(text: str) -> str:
    table = _representatives()
    return unicodedata.normalize("NFD", "".join(table.get(char, char) for char in text))


def _fold(text: str) -> str:
    return unicodedata.normalize("NFD", text.casefold())


def _settle(text: str, *steps) -> str:
    """Apply ``steps`` in turn until nothing changes (a prototype may itself fold or map further)."""
    for _ in range(4):
        settled = text
        for step in steps:
            settled = step(settled)
        if settled == text:
            break
        text = settled
    return text


def skeletons(name: str) -> set[str]:
    """Return the TR39-style skeletons of ``name``, ignoring case: names sharing one look alike.

    Two, because case folding and look-alike mapping do not commute: ``aIice`` (a capital I)
    looks like ``alice`` only when mapped before folding, ``ALICE`` is ``alice`` only when
    folded first. Punctuation is folded too: ``sec_p1.``, ``sec-p1`` and ``sec_p1`` share their keys.
    """
    text = unicodedata.normalize("NFD", unicodedata.normalize("NFKC", name))  # full-width letters are plain
    return {_separators_folded(_settle(text, _fold, _map_to_prototypes)),
            _separators_folded(_settle(text, _map_to_prototypes, _fold))}


# The punctuation a username may hold. Names that differ only in it at either end (``sec_p1.`` beside
# ``sec_p1``), in which mark separates two parts (``sec-p1``, ``sec.p1``) or in how many (``sec__p1``) read as one
# name in a list of players (issue 27): they share a key.
_SEPARATORS = re.compile(r"[._+\-]+")


def _separators_folded(key: str) -> str:
    return _SEPARATORS.sub("_", key).strip("_")


def scripts_of(name: str) -> set[str]:
    """Return the scripts of the letters in ``name`` (digits and punctuation have none)."""
    return {categories.alias(char) for char in name} - _NEUTRAL_SCRIPTS


def mixes_scripts(name: str) -> bool:
    """Tell whether ``name`` mixes alphabets that are not one writing system (Latin with Cyrillic, say)."""
    scripts = scripts_of(name)
    return len(scripts) > 1 and not any(scripts <= allowed for allowed in _ALLOWED_MIXES)
