"""The fairness email and the pages it links to (the game's fold-out, the check, a duplicate round's) name the seed
and its commitment with one word each per language: the glossary's (docs/glossary/platform.md), in every platform
catalog, and none of the other words a translation might reach for."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[3]
GLOSSARY = ROOT / "docs" / "glossary" / "platform.md"
# The glossary's rows, by how their English cell starts.
ROWS = {"seed": "seed (the secret that decides every shuffle)", "commitment": "commitment (the seed's hash"}
# The shuffle's seed and its commitment in an English text (not a competition's seeding: "their seeds", "seeded").
MEANS = {"seed": re.compile(r"\bseed\b(?!s|ed)", re.IGNORECASE), "commitment": re.compile(r"\bcommit", re.IGNORECASE)}
# The other words for either, which a reader would take for a third thing.
NEVER = {
    "hu": re.compile(r"\b(mag|magja|magot|magból|vetőmag|kivonat\w*|hash\w*|elkötelez\w*|seed)\b", re.IGNORECASE),
    "de": re.compile(r"\b(Seed|Saat\w*|Hash\w*|Prüfsumme\w*|Verpflichtung\w*|Zusage|Commitment)\b"),
}


def glossary_term(concept: str, language: str) -> str:
    """Return the glossary's word for ``concept`` in ``language`` ("kezdőérték", "Festlegung")."""
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if cells and cells[0].startswith(ROWS[concept]):
            return cells[{"hu": 1, "de": 2}[language]]
    raise AssertionError(f"the glossary has no row for {concept}")


def platform_entries(language: str):
    """Yield (catalog, English, translation) of every platform catalog of ``language``, and of the engine contract's
    own (games/locale: the record's verification, which the check page shows); not a game's."""
    for path in sorted([*ROOT.glob(f"turnbased/*/locale/{language}/LC_MESSAGES/*.po"),
                        *ROOT.glob(f"locale/{language}/LC_MESSAGES/*.po"),
                        *ROOT.glob(f"games/locale/{language}/LC_MESSAGES/*.po")]):
        with path.open("rb") as file:
            for message in read_po(file):
                ids = message.id if isinstance(message.id, tuple) else (message.id,)
                strings = message.string if isinstance(message.string, tuple) else (message.string,)
                if ids[0] and strings[0]:
                    yield path.relative_to(ROOT), ids[0], " ".join(strings)


@pytest.mark.parametrize("language", ["hu", "de"])
def test_the_seed_and_its_commitment_have_one_word_each_in_every_platform_catalog(language):
    # The word, inflected ("kezdőértékét", "Startwerts"); "committed" says the commitment's own word in Hungarian, its
    # verb in German ("festgelegt", of "Festlegung").
    words = {concept: re.escape(glossary_term(concept, language).lower()[:-1]) for concept in ROWS}
    if language == "de":
        words["commitment"] += "|festgeleg"
    checked = 0
    for path, english, translated in platform_entries(language):
        written = re.sub(r"%\(\w+\)s|\{\w+\}", "", translated)  # placeholders such as %(seed)s are no words
        for concept, meant in MEANS.items():
            if meant.search(english):
                checked += 1
                assert re.search(words[concept], written.lower()), (str(path), concept, translated)
        if MEANS["seed"].search(english) or MEANS["commitment"].search(english):
            assert not NEVER[language].search(written), (str(path), translated)
    assert checked >= 15
