"""The mushroom bonus of a completed forest (rules file §6, §11.2): so many points for each mushroom tile in it.

The revised edition has two Mushrooms bonus tiles, worth 3 each; the classic edition one, worth 2.
The two readings the texts could be taken for part only when both mushroom tiles lie in one forest:
"for each mushroom tile" gives that forest the bonus twice, which is what the engine does.
"""

from __future__ import annotations

import pytest

from games.carcassonne_hg import ENGINE
from games.i18n import language

from . import ALICE, BOB, NAMES, act, only, play, position

MUSHROOMS_1, MUSHROOMS_2 = "R-B79-mushrooms-1", "R-B87-mushrooms-2"

# R-B79 turned 180 on 0,1: one forest running east and west (Alice's gatherer). R-B87 on -1,1 continues it
# westwards and turns south, where R-L00 turned 90 on -1,0 closes it; R-L37 turned 270 on 1,1 closes the east.
ONE_FOREST = [(0, 1, MUSHROOMS_1, 180), (-1, 1, MUSHROOMS_2, 0), (-1, 0, "R-L00", 90)]
CLOSE_ONE_FOREST = "place 1,1 r270"

# R-B79 as above, its forest closed in the west by R-L37 on -1,1; R-B87 turned 270 on 0,2 holds a forest of its
# own (north and east; Bob's gatherer), closed in the north by R-L37 on 0,3. R-L37 turned 270 on 1,1 closes the
# first forest, the same on 1,2 the second.
TWO_FORESTS = [(0, 1, MUSHROOMS_1, 180), (-1, 1, "R-L37", 90), (0, 2, MUSHROOMS_2, 270), (0, 3, "R-L37", 180)]
CLOSE_FIRST, CLOSE_SECOND = "place 1,1 r270", "place 1,2 r270"

LINES = {
    "en": "A forest is completed (4 tiles, 2 mushroom tiles): Alice scores 14 points; 1 tribe member goes home.",
    "hu": "Elkészült egy erdő (4 lapka, 2 gombás lapka): Alice 14 pontot kapott; 1 törzstag hazatért.",
    "de": "Ein Wald ist fertig geworden (4 Plättchen, 2 Pilzplättchen): Alice hat 14 Punkte bekommen; "
          "1 Stammesmitglied ist heimgekehrt.",
}


def _line(event, code: str) -> str:
    with language(code):
        return ENGINE.describe_event(event, NAMES[:2], BOB)


def test_both_mushroom_tiles_in_one_forest_each_give_the_bonus():
    state = position(ONE_FOREST, "R-L37", pieces=[(ALICE, "gatherer", 0, 1, "f1")], stack=["R-L62"])
    state, events = act(state, CLOSE_ONE_FOREST)
    done = only(events, "feature_completed").data
    # 2 per tile for 4 tiles, and 3 for each of the two mushroom tiles: 8 + 6 (not 8 + 3).
    assert (done["tiles"], done["mushrooms"], done["points"], done["scorers"]) == (4, 2, 14, [ALICE])
    assert state["scores"] == [14, 0]


@pytest.mark.parametrize("code", sorted(LINES))
def test_the_history_counts_the_mushroom_tiles_the_bonus_is_paid_for(code):
    state = position(ONE_FOREST, "R-L37", pieces=[(ALICE, "gatherer", 0, 1, "f1")], stack=["R-L62"])
    _, events = act(state, CLOSE_ONE_FOREST)
    assert _line(only(events, "feature_completed"), code) == LINES[code]


def test_mushroom_tiles_in_two_forests_give_each_forest_the_bonus_once():
    pieces = [(ALICE, "gatherer", 0, 1, "f1"), (BOB, "gatherer", 0, 2, "f1")]
    state = position(TWO_FORESTS, "R-L37", pieces=pieces, stack=["R-L37", "R-L62"])
    state, events = play(state, CLOSE_FIRST, CLOSE_SECOND)
    done = [event for event in events if event.kind == "feature_completed"]
    # Each forest: 3 tiles and one mushroom tile, 6 + 3.
    assert [(d.data["tiles"], d.data["mushrooms"], d.data["points"], d.data["scorers"]) for d in done] == [
        (3, 1, 9, [ALICE]),
        (3, 1, 9, [BOB]),
    ]
    assert state["scores"] == [9, 9]
    assert _line(done[0], "en") == (
        "A forest is completed (3 tiles, 1 mushroom tile): Alice scores 9 points; 1 tribe member goes home."
    )
    assert _line(done[1], "hu") == "Elkészült egy erdő (3 lapka, 1 gombás lapka): 9 pontot kaptál; 1 törzstag hazatért."
    assert _line(done[1], "de") == (
        "Ein Wald ist fertig geworden (3 Plättchen, 1 Pilzplättchen): Du hast 9 Punkte bekommen; "
        "1 Stammesmitglied ist heimgekehrt."
    )


def test_the_classic_mushroom_tile_gives_two_points():
    # The classic Mushrooms tile turned 180 on 0,1: a forest north and west, closed by R-L37 on 0,2 and -1,1.
    placed = [(0, 1, "C-B-mushrooms", 180), (0, 2, "R-L37", 180)]
    pieces = [(ALICE, "gatherer", 0, 1, "f1")]
    state = position(placed, "R-L37", pieces=pieces, stack=["R-L62"], edition="classic")
    state, events = act(state, "place -1,1 r90")
    done = only(events, "feature_completed").data
    assert (done["tiles"], done["mushrooms"], done["points"]) == (3, 1, 8)
