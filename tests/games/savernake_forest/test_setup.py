"""The catalogue, setup per player count and options (rules file §2, §4, §15, §16.12)."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from games.base import InvalidOptions
from games.savernake_forest import ENGINE, cards

from . import NAMES, deal, deck


def test_catalogue_has_45_path_and_19_animal_cards_64_in_all():
    assert len(cards.PATH_IDS) == 45 and len(cards.ANIMAL_IDS) == 19
    assert len(set(cards.ALL_IDS)) == 64


def test_path_catalogue_totals_match_the_rules_file():
    shapes = Counter(info["shape"] for info in cards.PATHS.values())
    assert shapes == {"ST": 15, "CU": 18, "DC": 12}
    icons = Counter(food for info in cards.PATHS.values() for seg in info["foods"] for food in seg)
    assert icons == {"B": 18, "W": 18, "E": 18, "N": 18}
    per_shape = Counter()
    for info in cards.PATHS.values():
        per_shape[info["shape"]] += sum(len(seg) for seg in info["foods"])
    assert per_shape == {"ST": 28, "CU": 27, "DC": 17}
    assert all(len(info["foods"]) == len(cards.SHAPES[info["shape"]]) for info in cards.PATHS.values())


def test_animal_catalogue_totals_match_the_rules_file():
    assert Counter(info["exits"] for info in cards.ANIMALS.values()) == {"1": 11, "S": 4, "C": 4}
    likes = {f: sum(1 for info in cards.ANIMALS.values() if info["values"][f] > 0) for f in cards.FOODS}
    assert likes == {"B": 12, "W": 12, "E": 10, "N": 10}
    sums = {f: sum(info["values"][f] for info in cards.ANIMALS.values()) for f in cards.FOODS}
    assert sums == {"B": 26, "W": 29, "E": 25, "N": 24}


def test_sourced_animal_facts_hold():
    fox, squirrel, beaver, skunk = (cards.ANIMALS[c] for c in ("AN01", "AN02", "AN03", "AN04"))
    assert fox["values"]["E"] > 0 and fox["values"]["W"] > 0 and fox["values"]["B"] == fox["values"]["N"] == 0
    assert [f for f, v in squirrel["values"].items() if v] == ["N"] and squirrel["capacity"] == 5
    assert {f for f, v in beaver["values"].items() if v} == {"B", "N"}
    assert all(v > 0 for v in skunk["values"].values())
    assert not any(info["name"] == "Rabbit" for info in cards.ANIMALS.values())  # Q28


def test_two_to_four_play_as_the_rules_say():
    # The rules file's "2–4 players": the new-table form and the API offer exactly these counts.
    assert (ENGINE.min_players, ENGINE.max_players) == (2, 4)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_setup_deals_one_face_up_animal_each_and_a_3_plus_1_market(n):
    state = ENGINE.setup(NAMES[:n], {}, seed="setup")
    assert len(state["forests"]) == n
    for forest in state["forests"]:
        (start,) = forest
        assert cards.is_animal(start["card"])
        assert (start["x"], start["y"], start["rot"], start["up"]) == (0, 0, 0, True)
        assert start["drops"] == [] and start["burrows"] == 0
    market = state["market"]
    assert all(not cards.is_animal(market[slot]) for slot in cards.PATH_SLOTS)
    assert cards.is_animal(market["rabbit"])
    assert len(state["path_deck"]) == 45 - 3
    assert len(state["animal_deck"]) == 19 - n - 1
    assert state["supply"] == {"drops": 15, "burrows": 15}
    assert state["round"] == 1 and state["discard"] == []
    first = state["first"]
    assert state["rooster"] == first
    assert ENGINE.to_move(state) == [first]
    assert state["order"] == [(first + i) % n for i in range(n)]
    dealt = [f[0]["card"] for f in state["forests"]] + list(market.values())
    assert Counter(dealt + state["path_deck"] + state["animal_deck"]) == Counter(cards.ALL_IDS)
    json.dumps(state)


def test_deal_order_is_starting_animals_by_seat_then_rooster_goat_armadillo_rabbit():
    # Ruling 12a.
    scripted = {"paths": ["CU04", "ST09", "DC03", "ST01"], "animals": ["AN07", "AN02", "AN13", "AN19"]}
    state = ENGINE.setup(NAMES[:3], {"deck": scripted}, seed=1)
    assert [f[0]["card"] for f in state["forests"]] == ["AN07", "AN02", "AN13"]
    assert state["market"] == {"rooster": "CU04", "goat": "ST09", "armadillo": "DC03", "rabbit": "AN19"}
    assert state["path_deck"][0] == "ST01"


def test_scripted_deck_prefix_is_followed_by_the_rest_in_catalogue_order():
    options = ENGINE.validate_options(2, {"deck": {"paths": ["DC12"], "animals": ["AN19", "AN18"]}})
    assert options["deck"]["paths"] == ["DC12", *[c for c in cards.PATH_IDS if c != "DC12"]]
    assert options["deck"]["animals"][:3] == ["AN19", "AN18", "AN01"]
    assert len(options["deck"]["animals"]) == 19


def test_same_seed_same_game_and_seeds_vary_decks_and_first_player():
    assert ENGINE.setup(NAMES[:3], {}, seed=5) == ENGINE.setup(NAMES[:3], {}, seed=5)
    decks = {json.dumps(ENGINE.setup(NAMES[:3], {}, seed=s)["path_deck"]) for s in range(10)}
    assert len(decks) == 10
    assert {ENGINE.setup(NAMES[:4], {}, seed=s)["first"] for s in range(40)} == {0, 1, 2, 3}


def test_first_player_option_fixes_the_first_seat():
    state = deal(["AN01", "AN02", "AN03"], first=2)
    assert ENGINE.to_move(state) == [2] and state["order"] == [2, 0, 1]


DEFAULTS = {"shared_path_resolution": "end_of_game", "tie_break": "shared", "two_exit_den": "one_path",
            "two_player_market": "discard"}


def test_given_no_options_then_defaults_are_filled_in():
    assert ENGINE.validate_options(2, {}) == DEFAULTS
    assert ENGINE.validate_options(4, None) == ENGINE.validate_options(3, {})


def test_option_specs_expose_only_player_settable_options():
    assert [spec.name for spec in ENGINE.option_specs] == [
        "shared_path_resolution", "tie_break", "two_exit_den", "two_player_market"]
    assert [spec.default for spec in ENGINE.option_specs] == ["end_of_game", "shared", "one_path", "discard"]
    json.dumps([spec.to_json() for spec in ENGINE.option_specs])
    view = ENGINE.view(deal(["AN01", "AN02"]), 0)
    assert view["options"] == DEFAULTS
    assert "deck" not in json.dumps(view["options"]) and "first_player" not in view["options"]


@pytest.mark.parametrize(
    ("players", "options", "reason"),
    [
        (1, {}, "2 to 4 players"),
        (5, {}, "2 to 4 players"),
        (True, {}, "2 to 4 players"),
        (2, {"colour": "green"}, "Unknown option"),
        (2, {"shared_path_resolution": "never"}, "shared_path_resolution must be one of"),
        (2, {"two_player_market": "keep"}, "two_player_market must be one of"),
        (2, {"tie_break": "coin"}, "tie_break must be one of"),
        (2, {"two_exit_den": True}, "two_exit_den must be one of"),
        (3, {"two_player_market": "persistent"}, "2-player variant"),
        (2, {"deck": ["ST01"]}, "deck must be an object"),
        (2, {"deck": {"hand": []}}, "unknown part"),
        (2, {"deck": {"paths": "ST01"}}, "must be a list"),
        (2, {"deck": {"paths": ["AN05"]}}, "AN05 is an animal card, not a path card"),
        (2, {"deck": {"animals": ["ST05"]}}, "ST05 is a path card, not an animal card"),
        (2, {"deck": {"paths": ["ST99"]}}, "unknown card 'ST99'"),
        (2, {"deck": {"paths": ["ST01", "ST02", "ST01"]}}, "names ST01 twice"),
        (2, {"deck": {"animals": [5]}}, "must list card ids"),
        (2, {"first_player": 2}, "first_player must be a seat from 0 to 1"),
        (2, {"first_player": True}, "first_player"),
    ],
)
def test_given_bad_options_then_invalid_options_with_reason(players, options, reason):
    with pytest.raises(InvalidOptions, match=reason):
        ENGINE.validate_options(players, options)


def test_persistent_market_is_accepted_for_two_players():
    assert ENGINE.validate_options(2, {"two_player_market": "persistent"})["two_player_market"] == "persistent"


def test_deck_helper_builds_rows_in_slot_order():
    scripted = deck(["AN01", "AN02"], [("ST07", "CU12", "CU05", "AN06"), (None, "DC01", None, None)])
    assert scripted["paths"][:6] == ["ST07", "CU12", "CU05", "ST01", "DC01", "ST02"]
    assert scripted["animals"] == ["AN01", "AN02", "AN06", "AN03"]
