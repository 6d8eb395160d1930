"""Moves typed as a Hungarian or German player says them: the forms of each kind of move are read as that move,
in any order, as a command or an infinitive, with or without articles, accents, capitals or umlauts; no form
accepted for one legal move reads as another; nonsense is refused with a reason that says what to write."""

from __future__ import annotations

import random

import pytest

from games.base import BadNotation
from games.i18n import language
from games.savernake_forest import ENGINE, words

from . import ALICE, deal

STATE = deal(["AN05", "AN02"], [("ST07", "CU12", "CU05", "AN06")])  # goat: CU12, armadillo: CU05, rabbit: AN06
GOAT_DROP = {"slot": "goat", "x": 1, "y": 0, "rot": 1, "token": {"animal": "AN05", "food": "W"}}
BURROW = {"slot": "armadillo", "x": -1, "y": 2, "rot": 0, "token": {"animal": "AN05"}}
RABBIT_KEEP = {"slot": "rabbit", "x": 0, "y": 1, "rot": 2, "keep": ["AN06"]}
ROOSTER = {"slot": "rooster", "x": 1, "y": 1, "rot": 3}
GOAT_ONLY = {"slot": "goat", "x": 1, "y": 0, "rot": 0}


@pytest.mark.parametrize(("code", "text", "move"), [
    # German: the card, as a command, an infinitive, or the card under the helper; any order
    ("de", "nimm die Ziege, leg sie auf 1,0", GOAT_ONLY),
    ("de", "die Ziege nehmen, auf 1,0 legen", GOAT_ONLY),
    ("de", "Ziege nehmen, 1,0", GOAT_ONLY),
    ("de", "1,0 Ziege", GOAT_ONLY),
    ("de", "die Karte unter der Ziege auf Feld 1,0 legen", GOAT_ONLY),
    ("de", "lege die Karte der Ziege auf (1, 0)", GOAT_ONLY),
    ("de", "nehme Ziege 1,0", GOAT_ONLY),
    ("de", "NIMM DIE ZIEGE 1,0", GOAT_ONLY),
    # the turn
    ("de", "nimm den Hahn, leg ihn auf 1,1, um 270 Grad drehen", ROOSTER),
    ("de", "den Hahn nehmen, 270°, 1,1", ROOSTER),
    ("de", "Hahn 1,1 gedreht um 270", ROOSTER),
    # the water drop, before or after the card, the animal by name in any case, the food as the corner shows it
    ("de", "die Ziege nehmen, auf 1,0 legen, um 90 Grad drehen, dem Igel einen Tropfen auf die Würmer", GOAT_DROP),
    ("de", "nimm die Ziege 1,0 90° Tropfen auf die Würmer vom Igel", GOAT_DROP),
    ("de", "dem Igel einen Wassertropfen auf die Würmer, Ziege 1,0 90", GOAT_DROP),
    ("de", "Ziege 1,0 90 Grad, Tropfen Igel, Würmer", GOAT_DROP),
    ("de", "nimm Ziege 1,0 90 grad wassertropfen igel wuermer", GOAT_DROP),
    ("de", "Ziege 1,0 90 Igel Wuermer", GOAT_DROP),  # a food can only be a water drop's
    ("de", "Ziege 1,0 90 Tropfen auf die Würmer des Igels", GOAT_DROP),
    # the burrow
    ("de", "nimm das Gürteltier, leg es auf -1,2, Bau für den Igel", BURROW),
    ("de", "dem Igel einen Bau geben, Guerteltier -1,2", BURROW),
    ("de", "das Gürteltier nehmen, auf -1,2 legen, der Igel bekommt den Bau", BURROW),
    # keep
    ("de", "nimm das Kaninchen 0,1 180° behalte die Eule", RABBIT_KEEP),
    ("de", "das Kaninchen nehmen, auf 0,1 legen, um 180 Grad drehen, die Eule behalten", RABBIT_KEEP),
    ("de", "Kaninchen 0,1 180, die Eule bleibt", RABBIT_KEEP),
    ("de", "AN06 0,1 180 AN06 bleibt", RABBIT_KEEP),
    # Hungarian: the card, as a command, a first person or an infinitive
    ("hu", "vedd el a kecskét, tedd az 1,0-ra", GOAT_ONLY),
    ("hu", "a kecskét elveszem, az 1,0 mezőre rakom", GOAT_ONLY),
    ("hu", "elvenni a kecskét, lerakni az 1,0-ra", GOAT_ONLY),
    ("hu", "a kecske előtti kártya, 1,0", GOAT_ONLY),
    ("hu", "kecske 1,0", GOAT_ONLY),
    ("hu", "KECSKET 1,0", GOAT_ONLY),
    ("hu", "vedd a kakast, 1,1, 270 fokkal elforgatva", ROOSTER),
    ("hu", "a kakast elveszem, 270°-kal elforgatva, az 1,1-re teszem", ROOSTER),
    ("hu", "a kecskét elveszem, az 1,0-ra teszem, 90 fokkal elforgatva, víztokent a sünre, a féreghez", GOAT_DROP),
    ("hu", "víztoken a sün férgére, kecske 1,0 90", GOAT_DROP),
    ("hu", "vedd a kecsket 1,0 90 fokkal viztokent a sunre fereghez", GOAT_DROP),
    ("hu", "a tatut veszem, -1,2, a sün kapja az üregtokent", BURROW),
    ("hu", "üregtokent a sünre, tatu -1,2", BURROW),
    ("hu", "a nyulat elveszem, 0,1, 180 fokkal, a bagoly maradjon", RABBIT_KEEP),
    ("hu", "vedd a nyulat 0,1 180° tartsd meg a baglyot", RABBIT_KEEP),
    ("hu", "a baglyot megtartom, nyúl 0,1 180", RABBIT_KEEP),
    # English reads the same way in every language
    ("de", "take the goat, put it at 1,0 turned 90 degrees, water drop on the hedgehog's worms", GOAT_DROP),
    ("hu", "take the goat, put it at 1,0 turned 90 degrees, water drop on the hedgehog's worms", GOAT_DROP),
    ("en", "the owl stays, rabbit 0,1 r180", RABBIT_KEEP),
    ("en", "give the hedgehog a burrow, armadillo -1,2", BURROW),
])
def test_a_natural_phrasing_is_read_as_the_move_meant(code, text, move):
    with language(code):
        assert ENGINE.parse_move(text, STATE, ALICE) == move


# Per language: how a player names the helper's card, the cell, the turn, keep, the drop and the burrow.
def _german(move: dict) -> list[list[str]]:
    helper = {"rooster": ("den Hahn", "dem Hahn"), "goat": ("die Ziege", "der Ziege"),
              "armadillo": ("das Gürteltier", "dem Gürteltier"), "rabbit": ("das Kaninchen", "dem Kaninchen")}
    acc, dat = helper[move["slot"]]
    cell, degrees = f"{move['x']},{move['y']}", move["rot"] * 90
    parts = [[f"nimm {acc}", f"{acc} nehmen", f"die Karte unter {dat}"],
             [f"leg sie auf {cell}", f"auf ({move['x']}, {move['y']}) legen", cell],
             [f"um {degrees} Grad drehen", f"{degrees}°", f"gedreht um {degrees}"]]
    return parts + _tokens(move, "de")


def _hungarian(move: dict) -> list[list[str]]:
    helper = {"rooster": ("a kakast", "a kakas"), "goat": ("a kecskét", "a kecske"), "armadillo": ("a tatut", "a tatu"),
              "rabbit": ("a nyulat", "a nyúl")}
    acc, nom = helper[move["slot"]]
    cell, degrees = f"{move['x']},{move['y']}", move["rot"] * 90
    parts = [[f"vedd el {acc}", f"{acc} elveszem", f"{nom} előtti kártya"],
             [f"tedd a {cell} mezőre", f"{cell}-ra", f"({move['x']}, {move['y']})"],
             [f"{degrees} fokkal elforgatva", f"{degrees}°-kal", f"forgasd el {degrees} fokkal"]]
    return parts + _tokens(move, "hu")


def _tokens(move: dict, code: str) -> list[list[str]]:
    """The keep and the token, each in three forms: with a command or an infinitive, names with their articles."""
    kinds = words.food_kinds()
    objects, receiving = words._animals_as_object(), words._animals_receiving()
    parts = []
    if "keep" in move:
        kept = " und ".join(objects[a] for a in move["keep"]) if code == "de" else " és ".join(
            objects[a] for a in move["keep"])
        parts.append([f"behalte {kept}", f"{kept} behalten", f"behalte {','.join(move['keep'])}"] if code == "de"
                     else [f"tartsd meg {kept}", f"{kept} megtartom", f"tartsd meg {','.join(move['keep'])}"])
    token = move.get("token")
    if token and "food" in token:
        animal, food = token["animal"], kinds[token["food"]]
        parts.append([f"{receiving[animal]} einen Tropfen auf die {food}", f"Tropfen {animal} {food}",
                      f"Wassertropfen auf die {food} für {objects[animal]}"] if code == "de" else
                     [f"víztokent {receiving[animal]} kártyájára, {food}", f"víztoken {animal} {food}",
                      f"{receiving[animal]} kapja a víztokent, {food}"])
    elif token:
        animal = token["animal"]
        parts.append([f"{receiving[animal]} einen Bau geben", f"Bau für {objects[animal]}", f"Bau {animal}"]
                     if code == "de" else
                     [f"üregtokent {receiving[animal]} kártyájára", f"üregtoken {animal}",
                      f"{receiving[animal]} kapja az üregtokent"])
    return parts


def _phrasings(parts: list[list[str]], rng: random.Random) -> list[str]:
    """Three phrasings of a move: the parts in order, reversed, and shuffled, each part in one of its forms."""
    found = []
    for index, order in enumerate((list(parts), list(reversed(parts)), rng.sample(parts, len(parts)))):
        found.append(", ".join(forms[(index + step) % len(forms)] for step, forms in enumerate(order)))
    return found


@pytest.mark.parametrize("code", ["de", "hu"])
@pytest.mark.parametrize("seed", [3, 4])
def test_no_form_accepted_for_one_legal_move_reads_as_another(code, seed):
    state = ENGINE.setup(["A", "B", "C"], ENGINE.validate_options(3, {"shared_path_resolution": "immediate"}), seed)
    rng, read, turn = random.Random(seed), {}, 0
    with language(code):
        while ENGINE.to_move(state):
            (seat,) = ENGINE.to_move(state)
            legal = ENGINE.legal_moves(state, seat)
            if turn % 4 == 0:
                for move in legal:
                    parts = (_german if code == "de" else _hungarian)(move)
                    for text in _phrasings(parts, rng):
                        assert ENGINE.parse_move(text, state, seat) == move, text
                        assert read.setdefault((turn, text), move) == move, text
            state, _ = ENGINE.apply(state, seat, rng.choice(legal))
            turn += 1
    assert len(read) > 600


@pytest.mark.parametrize(("code", "text", "hint"), [
    ("de", "nimm den Hund, 1,0", "Hahn, Ziege, Gürteltier oder Kaninchen"),
    ("de", "nimm die Ziege", "Feld als x,y"),
    ("de", "nimm die Ziege, 1,0, um 45 Grad", "0°, 90°, 180° oder 270°"),
    ("de", "Tropfen auf den Igel, Würmer, 1,0", "unter welchem Helfer"),
    ("de", "nimm die Ziege 1,0, den Igel", "wofür"),
    ("de", "nimm die Ziege 1,0 und die Eule", "wofür"),
    ("de", "nimm die Ziege 1,0 tanze", "unverständlich"),
    ("de", "nimm den Hahn und die Ziege 1,0", "einen Helfer"),
    ("de", "nimm die Ziege 1,0 und 2,0", "ein Feld"),
    ("hu", "vedd el a kutyát, 1,0", "kakas, kecske, tatu vagy nyúl"),
    ("hu", "vedd el a kecskét", "x,y alakban"),
    ("hu", "kecske 1,0 45 fokkal", "0°, 90°, 180° vagy 270°"),
    ("hu", "víztoken a sünre, féreg, 1,0", "melyik segítő"),
    ("hu", "kecske 1,0, a sün", "mire vonatkozik"),
    ("hu", "kecske 1,0 táncolj", "Nem értelmezhető"),
    ("hu", "tartsd meg az unikornist, nyúl 0,1", "Ismeretlen állat"),
])
def test_nonsense_is_refused_with_a_reason_that_says_what_to_write(code, text, hint):
    with language(code), pytest.raises(BadNotation) as error:
        ENGINE.parse_move(text, STATE, ALICE)
    assert hint in error.value.reason, error.value.reason


@pytest.mark.parametrize("code", ["hu", "de"])
def test_the_help_lists_the_natural_forms_and_each_reads(code):
    with language(code):
        lines = ENGINE.notation_help().splitlines()
    start = next(index for index, line in enumerate(lines) if line.endswith(":") and not line.startswith(" "))
    forms = lines[start + 1:start + 6]
    quoted = [part for line in forms for part in line.replace("”", "“").replace("„", "“").split("“")[1::2]]
    assert len(quoted) >= 12, quoted
    with language(code):
        assert ENGINE.parse_move(lines[-2].strip(), STATE, ALICE) == GOAT_DROP
    assert "take goat 1,0 r90 drop AN05 W" in lines[-1]
