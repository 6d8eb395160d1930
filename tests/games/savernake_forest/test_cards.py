"""Every card of the reconstructed catalogue (rules file §3.2, §15): its sides, foods, exits and values."""

from __future__ import annotations

import pytest

from games.savernake_forest import cards, scoring

from . import ALICE, act, animal, deal, path, scored, seat_view

# The rules file's §15.3 JSON, written out again: the data module must say exactly this.
ANIMAL_TABLE = """
AN01 Fox 4 2 0 2 4 0 1 | AN02 Squirrel 3 5 0 0 0 3 S | AN03 Beaver 5 3 3 0 0 3 1 | AN04 Skunk 2 4 2 2 2 2 C
AN05 Hedgehog 5 3 1 3 2 0 1 | AN06 Owl 5 2 0 3 3 0 1 | AN07 Woodpecker 5 3 0 3 0 2 1 | AN08 Wildcat 6 2 0 0 4 0 1
AN09 Badger 2 3 2 3 1 1 C | AN10 Mole 5 3 0 4 0 0 1 | AN11 Dormouse 5 2 4 0 0 2 1 | AN12 Weasel 2 3 1 2 3 0 S
AN13 Blackbird 4 4 3 2 0 0 1 | AN14 Wild_Boar 1 5 2 2 1 2 S | AN15 Pine_Marten 4 3 2 0 3 0 C
AN16 Jay 3 3 0 0 2 4 1 | AN17 Mouse 4 4 2 1 0 2 C | AN18 Roe_Deer 4 4 3 0 0 0 S | AN19 Nuthatch 5 3 1 2 0 3 1
"""
PATH_TABLE = """
ST01 ST B | ST02 ST W | ST03 ST E | ST04 ST N | ST05 ST W | ST06 ST BB | ST07 ST WW | ST08 ST EE | ST09 ST NN
ST10 ST BW | ST11 ST EN | ST12 ST WE | ST13 ST BNB | ST14 ST WEW | ST15 ST NEN | CU01 CU - | CU02 CU B | CU03 CU B
CU04 CU W | CU05 CU E | CU06 CU E | CU07 CU N | CU08 CU N | CU09 CU B | CU10 CU BB | CU11 CU WW | CU12 CU EE
CU13 CU NN | CU14 CU BE | CU15 CU WN | CU16 CU BW | CU17 CU EN | CU18 CU WBE | DC01 DC B W | DC02 DC E N
DC03 DC W E | DC04 DC N B | DC05 DC N W | DC06 DC B - | DC07 DC W - | DC08 DC E - | DC09 DC N - | DC10 DC N -
DC11 DC EB - | DC12 DC - -
"""


def _rows(table: str) -> list[list[str]]:
    return [row.split() for row in table.replace("\n", " | ").split("|") if row.strip()]


ANIMALS = {
    row[0]: {
        "name": row[1].replace("_", " "),
        "base": int(row[2]),
        "capacity": int(row[3]),
        "values": dict(zip("BWEN", map(int, row[4:8]))),
        "exits": row[8],
    }
    for row in _rows(ANIMAL_TABLE)
}
PATHS = {
    row[0]: {"shape": row[1], "foods": [[] if s == "-" else list(s) for s in row[2:]]} for row in _rows(PATH_TABLE)
}
PATTERN_SIDES = {"1": {0}, "S": {0, 2}, "C": {0, 1}}

# Which printed segment of each shape faces south (side 2) after each rotation, or None.
SOUTH_SEGMENT = {
    "ST": {0: 0, 1: None, 2: 0, 3: None},
    "CU": {0: None, 1: 0, 2: 0, 3: None},
    "DC": {0: 1, 1: 0, 2: 0, 3: 1},
}


def test_animal_data_is_the_rules_file_table():
    assert list(cards.ANIMALS) == list(ANIMALS)
    assert cards.ANIMALS == ANIMALS


def test_path_data_is_the_rules_file_table():
    assert list(cards.PATHS) == list(PATHS)
    assert cards.PATHS == PATHS


@pytest.mark.parametrize("rot", cards.ROTATIONS)
@pytest.mark.parametrize("card", cards.PATH_IDS)
def test_path_card_placed_north_of_the_animal_feeds_it_the_segment_facing_south(card, rot):
    # Given the Mole (one exit, north) and the card under the rooster.
    state = deal(["AN10", "AN11"], [(card, None, None, None)])
    # When Alice places it north of the Mole, turned rot quarter turns.
    state, events = act(state, f"take rooster 0,-1 r{rot * 90}")
    assert events[0].data == {"seat": ALICE, "round": 1, "slot": "rooster", "card": card, "x": 0, "y": -1, "rot": rot}
    info = PATHS[card]
    segment = SOUTH_SEGMENT[info["shape"]][rot]
    expected = [] if segment is None else info["foods"][segment]
    # Then the Mole's path holds exactly that segment's food.
    assert scored(state, ALICE, "AN10")["path_foods"] == sorted(expected, key="BWEN".index)
    paths = seat_view(state, ALICE)["paths"]
    mole = next(p for p in paths if "AN10" in p["animals"])
    assert (["%s" % card, segment] in mole["nodes"]) is (segment is not None)
    # Every segment is a node of exactly one path (a double curve's two halves may be on different paths).
    parts = sorted(node[1] for p in paths for node in p["nodes"] if node[0] == card)
    assert parts == list(range(len(info["foods"])))


@pytest.mark.parametrize("rot", cards.ROTATIONS)
@pytest.mark.parametrize("card", cards.ANIMAL_IDS)
def test_animal_exits_follow_its_pattern_and_rotation(card, rot):
    # Given the animal at 0,0 turned rot and a one-worm straight on each of its four sides, facing it.
    forest = [
        animal(card, 0, 0, rot),
        path("ST02", 0, -1, 0),
        path("ST05", 1, 0, 1),
        path("CU04", 0, 1, 0),  # N–E: its north end faces the animal
        path("DC07", -1, 0, 1),  # segment A N–E turned to E–S: its east end faces the animal
    ]
    joined = {"ST02": 0, "ST05": 1, "CU04": 2, "DC07": 3}
    (mine,) = [p for p in scoring.components(forest) if card in p["animals"]]
    sides = {joined[node[0]] for node in mine["nodes"] if node[0] != card}
    assert sides == {(side + rot) % 4 for side in PATTERN_SIDES[ANIMALS[card]["exits"]]}
    assert mine["foods"] == ["W"] * len(sides)


@pytest.mark.parametrize("card", cards.ANIMAL_IDS)
def test_animal_scores_base_plus_its_best_food_up_to_capacity(card):
    # Given a straight chain north of the animal holding B N B | W E W | N E N (B2 W2 E2 N3).
    forest = [animal(card), path("ST13", 0, -1), path("ST14", 0, -2), path("ST15", 0, -3)]
    info = ANIMALS[card]
    values = sorted((v for f in "BNBWEWNEN" if (v := info["values"][f]) > 0), reverse=True)
    sheet = scoring.forest_scores(forest)
    (item,) = sheet["animals"]
    assert item["score"] == info["base"] + sum(values[: info["capacity"]])
    assert len(item["stored"]) == min(info["capacity"], len(values))
    assert sheet["total"] == item["score"] and sheet["stored"] == len(item["stored"])


@pytest.mark.parametrize("card", cards.ANIMAL_IDS)
def test_animal_taken_from_the_rabbit_joins_the_forest_face_up(card):
    starts = [c for c in ("AN01", "AN02") if c != card] + ["AN03"]
    state = deal(starts[:2], [(None, None, None, card)])
    state, events = act(state, "take rabbit 1,0 r90")
    entry = state["forests"][ALICE][-1]
    assert entry == {"card": card, "x": 1, "y": 0, "rot": 1, "up": True, "drops": [], "burrows": 0}
    assert [e.kind for e in events] == ["card_taken"]
    assert scored(state, ALICE, card)["score"] == ANIMALS[card]["base"]  # no path reaches it yet: base only


def test_card_info_gives_pictures_what_they_need_in_codes_and_numbers():
    # No name: the view holds no words (words.py names the animal in the reader's language).
    assert cards.card_info("AN04") == {
        "id": "AN04", "type": "animal", "base": 2, "capacity": 4,
        "values": {"B": 2, "W": 2, "E": 2, "N": 2}, "exits": [0, 1], "pattern": "C",
    }  # fmt: skip
    assert cards.card_info("DC11") == {
        "id": "DC11", "type": "path", "shape": "DC",
        "segments": [{"sides": [0, 1], "foods": ["E", "B"]}, {"sides": [2, 3], "foods": []}],
    }  # fmt: skip
