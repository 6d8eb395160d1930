"""Moves typed as a Hungarian or German player says them: the tile, its turn, the piece and the shaman's recall are
read in any order, as a command or an infinitive, with or without articles, accents, capitals or umlauts, the sides
as words ("im Norden", "a déli rétre"); no form accepted for one legal move reads as another; nonsense is refused
with a reason that says what to write."""

from __future__ import annotations

import random

import pytest

from games.base import BadNotation
from games.carcassonne_hg import ENGINE, terms, tiles
from games.carcassonne_hg.board import region_names
from games.i18n import language

from . import ALICE, game, position

# R-L00 on -1,0 turned 90: a meadow NE (m0) and S (m2), a river (r1), forests W (f3) and N (f4), a lake (l8).
STATE = game(["R-L00"])
TILE = {"x": -1, "y": 0, "rot": 90}
HUNTER_S = {**TILE, "piece": "hunter", "region": "m2"}
HUNTER_NE = {**TILE, "piece": "hunter", "region": "m0"}
GATHERER_W = {**TILE, "piece": "gatherer", "region": "f3"}
HUT = {**TILE, "piece": "hut", "region": "l8"}
FISHER = {**TILE, "piece": "fisherman", "region": "r1"}
SHAMAN = position([(0, 1, "R-L62", 0)], "R-B88-shaman", pieces=[(ALICE, "hunter", 0, 1, "m0")], bonus_turn=True)
RECALL = {"x": -1, "y": 0, "rot": 0, "recall": {"x": 0, "y": 1}, "piece": "hunter", "region": "m2"}


@pytest.mark.parametrize(("code", "text", "move"), [
    # German: the tile before or after its square, as a command or an infinitive, with or without the article
    ("de", "lege das Plättchen auf -1,0, gedreht um 90", TILE),
    ("de", "-1,0 legen, 90 Grad", TILE),
    ("de", "Plättchen auf (-1, 0) legen, um 90 Grad gedreht", TILE),
    ("de", "um 90° drehen und auf -1,0 legen", TILE),
    ("de", "leg es auf Feld -1,0, 90°, keine Figur", TILE),
    ("de", "-1,0 legen", {"x": -1, "y": 0, "rot": 0}),  # no turn written: 0°
    # the piece, its feature and the feature's side, in the words a player uses
    ("de", "lege das Plättchen auf -1,0, um 90 Grad gedreht, und setz einen Jäger auf die Wiese im Süden", HUNTER_S),
    ("de", "einen Jäger auf die südliche Wiese, -1,0, 90 Grad", HUNTER_S),
    ("de", "-1,0 legen, 90°, Jäger auf die Wiese im Nordosten", HUNTER_NE),
    ("de", "LEGE -1,0 90 JAEGER WIESE SO", HUNTER_S),
    ("de", "-1,0 legen, 90°, einen Sammler in den Wald im Westen", GATHERER_W),
    ("de", "-1,0 legen, 90°, eine Hütte an den See bauen", HUT),
    ("de", "-1,0 legen, 90°, einen Fischer an den Fluß stellen", FISHER),
    # Hungarian
    ("hu", "rakd le a lapkát a -1,0 mezőre 90 fokkal elforgatva", TILE),
    ("hu", "a lapkát a -1,0 mezőre rakom, 90 fokkal elforgatva", TILE),
    ("hu", "lerakni a -1,0-ra, 90°-kal", TILE),
    ("hu", "-1,0-ra teszem 90 fokkal elforgatva, nem rakok bábut", TILE),
    ("hu", "a lapkát a -1,0 mezőre rakom, 90 fokkal elforgatva, és vadászt küldök a déli rétre", HUNTER_S),
    ("hu", "vadászt a déli rétre, -1,0-ra, 90°-kal", HUNTER_S),
    ("hu", "lerak -1,0 90 vadaszt az eszakkeleti retre", HUNTER_NE),
    ("hu", "-1,0, 90 fokkal, gyűjtögetőt küldök a nyugati erdőbe", GATHERER_W),
    ("hu", "-1,0, 90 fokkal, kunyhót építek a tó mellé", HUT),
    ("hu", "-1,0, 90 fokkal, halászt a folyóra", FISHER),
    # English, read in every language
    ("de", "place the tile on -1,0 turned 90 degrees, a hunter on the southern meadow", HUNTER_S),
    ("hu", "place the tile on -1,0 turned 90 degrees, a hunter on the southern meadow", HUNTER_S),
])
def test_a_natural_phrasing_is_read_as_the_move_meant(code, text, move):
    with language(code):
        assert ENGINE.parse_move(text, STATE, ALICE) == move


@pytest.mark.parametrize(("code", "text"), [
    ("de", "lege -1,0 0° zurück 0,1 Jäger Wiese NO"),
    ("de", "hol den Jäger von 0,1 zurück, leg das Plättchen auf -1,0 und setz einen Jäger auf die Wiese im Nordosten"),
    ("de", "den Jäger auf 0,1 zurückholen und -1,0 legen, Jäger auf die Wiese im Nordosten"),
    ("hu", "hívd vissza a vadászt a 0,1 mezőről, -1,0, vadász az északkeleti rétre"),
    ("hu", "lerak -1,0 visszahívom a 0,1 mezőről, vadászt küldök az északkeleti rétre"),
    ("hu", "a 0,1 mezőről visszahívom a vadászt, és a -1,0 mezőre rakom, vadász rét ÉK"),
    ("en", "call back the hunter on 0,1, place the tile on -1,0, a hunter on the northeastern meadow"),
])
def test_the_shamans_recall_is_read_wherever_it_is_written(code, text):
    with language(code):
        assert ENGINE.parse_move(text, SHAMAN, ALICE) == RECALL


_DE_PIECES = {"gatherer": "einen Sammler", "fisherman": "einen Fischer", "hunter": "einen Jäger", "hut": "eine Hütte"}
_DE_FEATURES = {"forest": "in den Wald", "meadow": "auf die Wiese", "river": "an den Fluss", "lake": "an den See"}
_HU_PIECES = {"gatherer": "gyűjtögetőt", "fisherman": "halászt", "hunter": "vadászt", "hut": "kunyhót"}
_HU_FEATURES = {"forest": "erdőbe", "meadow": "rétre", "river": "folyóra", "lake": "tó mellé"}


def _phrasings(code: str, state: dict, move: dict, rng: random.Random) -> list[str]:
    """Three phrasings of a legal move, its parts in order, reversed and shuffled, each in one of its forms."""
    x, y, rot = move["x"], move["y"], move["rot"]
    if code == "de":
        parts = [[f"lege das Plättchen auf {x},{y}", f"{x},{y} legen", f"leg es auf ({x}, {y})"],
                 [f"um {rot} Grad gedreht", f"{rot}°", f"gedreht um {rot}"]]
    else:
        parts = [[f"rakd le a lapkát a {x},{y} mezőre", f"{x},{y}-ra teszem", f"a lapkát a ({x}, {y}) mezőre rakom"],
                 [f"{rot} fokkal elforgatva", f"{rot}°-kal", f"forgasd el {rot} fokkal"]]
    if "piece" in move:
        kind, _, token = region_names(state["edition"], state["tile"], rot)[move["region"]].partition(" ")
        side = terms.side_in_sentence(token) if token in terms.SIDES else token
        letter = terms.side(token) if token in terms.SIDES else token
        if code == "de":
            parts.append([f"setz {_DE_PIECES[move['piece']]} {_DE_FEATURES[kind]} {side}".rstrip(),
                          f"{terms.piece(move['piece'])} {terms.feature(kind)} {letter}".rstrip(),
                          f"{_DE_PIECES[move['piece']]} {_DE_FEATURES[kind]} {side} setzen".replace("  ", " ")])
        else:
            target = f"{side} {_HU_FEATURES[kind]}" if token in terms.SIDES else f"a {_HU_FEATURES[kind]} {token}"
            parts.append([f"{_HU_PIECES[move['piece']]} küldök {target}",
                          f"{terms.piece(move['piece'])} {terms.feature(kind)} {letter}".rstrip(),
                          f"{target} {_HU_PIECES[move['piece']]}"])
    found = []
    for index, order in enumerate((list(parts), list(reversed(parts)), rng.sample(parts, len(parts)))):
        found.append(", ".join(forms[(index + step) % len(forms)] for step, forms in enumerate(order)))
    return found


@pytest.mark.parametrize("code", ["de", "hu"])
@pytest.mark.parametrize("edition", [tiles.REVISED, tiles.CLASSIC])
def test_no_form_accepted_for_one_legal_move_reads_as_another(code, edition):
    state = ENGINE.setup(["A", "B", "C"], {"edition": edition}, seed=f"natural-{edition}")
    rng, read = random.Random(edition), {}
    with language(code):
        for turn in range(24):
            if ENGINE.is_over(state):
                break
            (seat,) = ENGINE.to_move(state)
            legal = ENGINE.legal_moves(state, seat)
            for move in legal:
                for text in _phrasings(code, state, move, rng):
                    assert ENGINE.parse_move(text, state, seat) == move, text
                    assert read.setdefault((turn, text), move) == move, text
            state, _ = ENGINE.apply(state, seat, rng.choice(legal))
    assert len(read) > 300


@pytest.mark.parametrize(("code", "text", "hint"), [
    ("de", "lege das Plättchen hierhin", "Feld als x,y"),
    ("de", "lege -1,0 und 2,0", "Feld als x,y"),
    ("de", "-1,0 legen, um 45 Grad gedreht", "0°, 90°, 180° oder 270°"),
    ("de", "-1,0 legen, 90°, einen Zauberer", "Sammler, Fischer, Jäger oder Hütte"),
    ("de", "-1,0 legen, 90°, einen Jäger auf die Wiese", "Welches davon?"),
    ("de", "-1,0 legen, 90°, einen Jäger auf die Wiese oben", "Unbekannte Richtung"),
    ("de", "-1,0 legen, 90°, einen Sammler auf die Wiese", "Ein Sammler kommt in einen Wald"),
    ("de", "passen", "Passen gibt es nicht"),
    ("hu", "rakd le a lapkát ide", "x,y alakban"),
    ("hu", "-1,0-ra teszem, 45 fokkal elforgatva", "0°, 90°, 180° vagy 270°"),
    ("hu", "-1,0, 90 fokkal, varázslót küldök", "melyik bábu hová kerül"),
    ("hu", "-1,0, 90 fokkal, vadászt a rétre", "Melyikre gondolsz?"),
    ("hu", "-1,0, 90 fokkal, vadászt a felső rétre", "Ismeretlen égtáj"),
    ("hu", "passz", "Passzolni nem lehet"),
])
def test_nonsense_is_refused_with_a_reason_that_says_what_to_write(code, text, hint):
    with language(code), pytest.raises(BadNotation) as error:
        ENGINE.parse_move(text, STATE, ALICE)
    assert hint in error.value.reason, error.value.reason


def test_a_recall_without_its_square_says_so():
    with language("de"), pytest.raises(BadNotation) as error:
        ENGINE.parse_move("-1,0 legen, den Jäger zurückholen", SHAMAN, ALICE)
    assert "zurückzuholenden Stammesmitglieds" in error.value.reason


@pytest.mark.parametrize("code", ["hu", "de"])
def test_the_help_lists_the_natural_forms_and_its_example_reads_as_the_notation(code):
    with language(code):
        lines = ENGINE.notation_help().splitlines()
    start = next(index for index, line in enumerate(lines) if line.endswith(":") and not line.startswith(" "))
    quoted = [part for line in lines[start + 1:start + 4]
              for part in line.replace("”", "“").replace("„", "“").split("“")[1::2]]
    assert len(quoted) >= 9, quoted
    examples = next(line for line in lines if "3,-1" in line and "  " in line.strip())
    natural = lines[lines.index(examples) + 1].strip()
    notation = examples.split(":", 1)[1].split("   ")[1].strip()  # the second example: a hunter on the meadow N
    # A tile with a meadow on its north side when turned 90°, where the notation's example reads.
    tile = next(tile_id for tile_id, found in tiles.catalogue(tiles.REVISED).items()
                if found[0].deck == tiles.LAND and _reads(notation, game([tile_id]), code) is not None)
    state = game([tile])
    move = _reads(natural, state, code)
    assert move == _reads(notation, state, code) and move["piece"] == "hunter"
    assert (move["x"], move["y"], move["rot"]) == (3, -1, 90)


def _reads(text: str, state: dict, code: str) -> dict | None:
    with language(code):
        try:
            return ENGINE.parse_move(text, state, ALICE)
        except BadNotation:
            return None
