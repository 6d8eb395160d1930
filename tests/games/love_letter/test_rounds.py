"""Setup, options, round ends, scoring, Spy bonus and end of game (rules §2.3, §3, §6)."""

from __future__ import annotations

import json

import pytest

from games.base import IllegalMove, InvalidOptions
from games.love_letter import ENGINE, cards

from . import NAMES, act, deal, kinds, only, shorten_deck

SETUP_COUNTS = [
    ("classic", 2, 10),
    ("classic", 3, 12),
    ("classic", 4, 11),
    ("2019", 2, 15),
    ("2019", 3, 17),
    ("2019", 4, 16),
    ("2019", 5, 15),
    ("2019", 6, 14),
]


# -- setup and options -----------------------------------------------------------


@pytest.mark.parametrize(("edition", "players", "deck"), SETUP_COUNTS)
def test_given_edition_and_players_when_set_up_then_card_counts_match_the_rules(edition, players, deck):
    state = ENGINE.setup(NAMES[:players], {"edition": edition}, seed=7)
    # The first player has already drawn one card from the deck of §2.3.
    assert len(state["deck"]) == deck - 1
    assert state["set_aside"] is not None
    assert len(state["face_up"]) == (3 if players == 2 else 0)
    first = state["current"]
    assert [len(hand) for hand in state["hands"]] == [2 if seat == first else 1 for seat in range(players)]
    all_cards = [*state["deck"], state["set_aside"], *state["face_up"], *sum(state["hands"], [])]
    assert sorted(all_cards) == sorted(cards.full_deck(edition))
    assert state["target"] == cards.TOKEN_TARGETS[edition][players]
    json.dumps(state)


def test_given_same_seed_then_same_deal_and_first_player_and_other_seeds_vary():
    a = ENGINE.setup(NAMES[:4], {}, seed="abc")
    assert a == ENGINE.setup(NAMES[:4], {}, seed="abc")
    firsts = {ENGINE.setup(NAMES[:4], {}, seed=seed)["current"] for seed in range(40)}
    assert firsts == {0, 1, 2, 3}  # ruling 34: a random first player


def test_given_no_options_then_defaults_are_filled_in():
    assert ENGINE.validate_options(2, {}) == {"edition": "classic", "classic_final_tie": "all_win"}


@pytest.mark.parametrize(
    ("players", "options", "reason"),
    [
        (5, {}, "2 to 4 players"),
        (1, {"edition": "2019"}, "2 to 6 players"),
        (7, {"edition": "2019"}, "2 to 6 players"),
        (2, {"edition": "premium"}, "Unknown edition"),
        (2, {"classic_final_tie": "first"}, "classic_final_tie"),
        (2, {"colour": "red"}, "Unknown option"),
        (2, {"deck": ["guard"] * 16}, "exactly the classic deck"),
        (2, {"deck": cards.full_deck("2019")}, "exactly the classic deck"),
        (2, {"deck": [cards.full_deck("classic"), ["guard"]]}, "round 2"),
        (2, {"deck": "guard"}, "deck must be"),
        (2, {"first_player": 2}, "first_player"),
        (2, {"first_player": True}, "first_player"),
    ],
)
def test_given_bad_options_then_invalid_options_with_reason(players, options, reason):
    with pytest.raises(InvalidOptions, match=reason):
        ENGINE.validate_options(players, options)


def test_option_specs_expose_only_player_settable_options():
    assert [spec.name for spec in ENGINE.option_specs] == ["edition", "classic_final_tie"]
    json.dumps([spec.to_json() for spec in ENGINE.option_specs])


def test_given_deck_per_round_then_each_round_uses_its_own_order():
    first = [
        "princess",
        "countess",
        "king",
        "prince",
        "guard",
        "priest",
        *["guard"] * 4,
        "priest",
        "baron",
        "baron",
        "handmaid",
        "handmaid",
        "prince",
    ]
    second = list(reversed(first))
    state = ENGINE.setup(NAMES[:2], {"deck": [first, second], "first_player": 0}, seed=1)
    assert state["set_aside"] == "princess" and state["face_up"] == ["countess", "king", "prince"]
    state, events = act(state, {"card": "guard", "target": 1, "guess": "priest"})
    assert state["round"] == 2 and state["set_aside"] == second[0]


# -- turn order and round end --------------------------------------------------


def test_turns_go_clockwise_skipping_players_who_are_out():
    state = deal(["guard", "priest", "guard", "guard"], ["guard", "guard"], first=3)
    assert state["current"] == 3
    state, _ = act(state, {"card": "guard", "target": 1, "guess": "priest"})
    assert state["current"] == 0
    state, _ = act(state, {"card": "guard", "target": 2, "guess": "priest"})
    assert state["current"] == 2


def test_given_one_player_left_then_they_win_without_comparing_hands():
    state = deal(["guard", "princess"], ["guard"])
    state, events = act(state, {"card": "guard", "target": 1, "guess": "princess"})
    assert "showdown" not in kinds(events)
    ended = only(events, "round_ended").data
    assert ended["winners"] == [0] and ended["reason"] == "last_standing"
    assert ended["set_aside"] == state["options"]["deck"][0][0]  # ruling 36: revealed after the round
    assert state["tokens"] == [1, 0]


def test_given_a_player_leaves_out_of_turn_and_one_is_left_in_the_round_then_that_one_wins_the_round():
    state = deal(["guard", "priest", "princess"], ["guard", "baron"])
    state, _ = act(state, {"card": "guard", "target": 2, "guess": "princess"})  # Carol is knocked out
    assert state["current"] == 1
    state, events = ENGINE.resign(state, 0)  # Alice leaves on Bob's turn: Bob is the last one in the round
    ended = only(events, "round_ended").data
    assert ended["winners"] == [1] and ended["reason"] == "last_standing"
    assert state["tokens"] == [0, 1, 0]
    assert "round_started" in kinds(events) and state["round"] == 2  # Bob and Carol play on


def test_given_deck_empty_at_end_of_turn_then_showdown_highest_card_wins():
    state = shorten_deck(deal(["king", "baron"], ["guard", "priest"]), 1)
    state, _ = act(state, {"card": "guard", "target": 1, "guess": "princess"})
    assert state["deck"] == [] and state["current"] == 1  # ruling 20: not over with 0 left before a turn ends
    state, events = act(state, {"card": "priest", "target": 0})
    showdown = only(events, "showdown").data
    assert showdown["hands"] == [{"seat": 0, "card": "king"}, {"seat": 1, "card": "baron"}]
    assert showdown["winners"] == [0]
    assert state["tokens"] == [1, 0]


def test_given_classic_showdown_tie_then_higher_discard_total_wins():
    state = shorten_deck(deal(["guard", "guard"], ["handmaid", "priest"]), 1)
    state, _ = act(state, {"card": "handmaid"})
    state, events = act(state, {"card": "priest"})  # Alice is protected: no effect
    showdown = only(events, "showdown").data
    assert showdown["discard_totals"] == [{"seat": 0, "total": 4}, {"seat": 1, "total": 2}]
    assert showdown["winners"] == [0] and state["tokens"] == [1, 0]


@pytest.mark.parametrize(("final_tie", "tokens"), [("all_win", [1, 1]), ("nobody", [0, 0])])
def test_given_classic_tie_after_discard_totals_then_option_decides(final_tie, tokens):
    state = shorten_deck(deal(["guard", "guard"], ["priest", "priest"], classic_final_tie=final_tie), 1)
    state, _ = act(state, {"card": "priest", "target": 1})
    state, events = act(state, {"card": "priest", "target": 0})
    assert only(events, "round_ended").data["winners"] == ([0, 1] if final_tie == "all_win" else [])
    assert state["tokens"] == tokens
    # A tie (with or without a token) is settled by lot among the tied players, and announced.
    started = only(events, "round_started").data
    assert started["chosen_from"] == [0, 1] and started["starter"] in (0, 1)
    assert state["current"] == started["starter"]


def test_given_2019_showdown_tie_then_all_tied_players_win_without_discard_tie_break():
    state = shorten_deck(deal(["guard", "guard"], ["handmaid", "priest"], edition="2019"), 1)
    state, _ = act(state, {"card": "handmaid"})
    state, events = act(state, {"card": "priest"})
    assert only(events, "showdown").data["winners"] == [0, 1]
    assert state["tokens"] == [1, 1]


def test_given_single_round_winner_then_they_start_the_next_round():
    state = deal(["guard", "priest", "baron"], ["guard", "priest"])
    state, _ = act(state, {"card": "guard", "target": 1, "guess": "priest"})  # Bob is out
    state, events = act(state, {"card": "baron", "target": 0})  # Carol's Priest beats Alice's Guard
    assert only(events, "round_ended").data["winners"] == [2]
    started = only(events, "round_started").data
    assert started == {"round": 2, "starter": 2, "face_up": [], "deck_count": len(state["deck"]) + 1}
    assert state["current"] == 2 and state["in_round"] == [True, True, True]


# -- end of game ---------------------------------------------------------------


def test_given_round_win_reaching_target_alone_then_game_over_with_result():
    state = deal(["guard", "priest"], ["guard"])
    state["tokens"] = [6, 2]
    state, events = act(state, {"card": "guard", "target": 1, "guess": "priest"})
    assert ENGINE.to_move(state) == [] and ENGINE.is_over(state)
    assert only(events, "game_ended").data == {"winners": [0], "tokens": [7, 2]}
    result = ENGINE.result(state)
    assert result == {
        "winners": [0],
        "scores": [7, 2],
        "ranking": [0, 1],
        "summary": "Alice wins 7–2",
        "rounds": [{"round": 1, "winners": [0], "spy_bonus": None, "reason": "last_standing"}],
        "target": 7,
    }
    with pytest.raises(IllegalMove, match="over"):
        ENGINE.apply(state, 0, {"card": "guard"})
    assert ENGINE.legal_moves(state, 0) == []


def test_given_tie_for_most_tokens_at_target_then_play_continues_until_one_leads():
    state = shorten_deck(deal(["guard", "guard"], ["priest", "priest"]), 1)
    state["tokens"] = [6, 6]
    state, _ = act(state, {"card": "priest", "target": 1})
    state, events = act(state, {"card": "priest", "target": 0})
    assert state["tokens"] == [7, 7]
    assert only(events, "target_tied").data == {"seats": [0, 1], "tokens": 7}
    assert ENGINE.result(state) is None and state["round"] == 2
    # Next round: whoever wins it leads alone at 8 and wins the game.
    seat = state["current"]
    state["hands"][seat] = ["guard", "guard"]
    state["hands"][1 - seat] = ["priest"]
    state, events = act(state, {"card": "guard", "target": 1 - seat, "guess": "priest"})
    assert ENGINE.result(state)["winners"] == [seat]
    assert ENGINE.result(state)["scores"][seat] == 8


# -- 2019 Spy bonus ------------------------------------------------------------


def test_given_only_player_in_round_who_played_spy_then_bonus_token():
    state = deal(["spy", "guard"], ["guard", "handmaid", "priest", "baron", "guard"], edition="2019")
    state, _ = act(state, {"card": "spy"})
    state, _ = act(state, {"card": "handmaid"})
    state, _ = act(state, {"card": "priest"})  # Bob is protected: no effect
    state, _ = act(state, {"card": "guard", "target": 0, "guess": "priest"})  # miss; Bob keeps the Baron
    state, events = act(state, {"card": "guard", "target": 1, "guess": "baron"})
    ended = only(events, "round_ended").data
    assert ended["winners"] == [0] and ended["spy_bonus"] == 0
    assert state["tokens"] == [2, 0]  # a round win and the Spy bonus


def test_given_player_played_both_spies_then_bonus_is_one_token():
    state = deal(["spy", "guard"], ["spy", "handmaid", "guard", "priest", "guard"], edition="2019")
    state, _ = act(state, {"card": "spy"})
    state, _ = act(state, {"card": "handmaid"})
    state, _ = act(state, {"card": "spy"})
    state, _ = act(state, {"card": "guard", "target": 0, "guess": "priest"})
    state, events = act(state, {"card": "guard", "target": 1, "guess": "priest"})
    ended = only(events, "round_ended").data
    assert ended["winners"] == [0] and ended["spy_bonus"] == 0
    assert state["tokens"] == [2, 0]


def test_given_spy_player_knocked_out_then_nobody_gets_the_bonus():
    state = deal(["spy", "priest"], ["guard", "baron"], edition="2019")
    state, _ = act(state, {"card": "spy"})
    state, events = act(state, {"card": "baron", "target": 0})  # Bob's Priest beats Alice's Guard
    ended = only(events, "round_ended").data
    assert ended["winners"] == [1] and ended["spy_bonus"] is None  # ruling 27
    assert state["tokens"] == [0, 1]


def test_given_two_players_in_round_played_spies_then_nobody_gets_the_bonus():
    state = shorten_deck(deal(["guard", "guard"], ["spy", "spy"], edition="2019"), 1)
    state, _ = act(state, {"card": "spy"})
    state, events = act(state, {"card": "spy"})
    ended = only(events, "round_ended").data
    assert ended["reason"] == "showdown" and ended["spy_bonus"] is None
    assert state["tokens"] == [1, 1]


def test_given_spy_discarded_by_prince_then_it_counts():
    state = shorten_deck(deal(["guard", "spy"], ["prince", "guard", "handmaid"], edition="2019"), 2)
    state, _ = act(state, {"card": "prince", "target": 1})  # Bob discards the Spy and draws a Guard
    state, events = act(state, {"card": "handmaid"})  # the deck is now empty: showdown, Guard vs Guard
    ended = only(events, "round_ended").data
    assert ended["winners"] == [0, 1] and ended["spy_bonus"] == 1
    assert state["tokens"] == [1, 2]


def test_given_spy_held_at_showdown_then_it_does_not_count():
    state = shorten_deck(deal(["spy", "baron"], ["guard", "handmaid"], edition="2019"), 1)
    state, _ = act(state, {"card": "guard", "target": 1, "guess": "priest"})
    state, events = act(state, {"card": "handmaid"})
    ended = only(events, "round_ended").data
    assert ended["winners"] == [1] and ended["spy_bonus"] is None
    assert state["tokens"] == [0, 1]


def test_given_spy_bonus_makes_a_tie_at_target_then_play_continues():
    # Alice wins the showdown (6 tokens), Bob's Spy bonus also brings him to 6: ruling 28.
    state = shorten_deck(deal(["king", "guard"], ["guard", "spy"], edition="2019"), 1)
    state["tokens"] = [5, 5]
    state, _ = act(state, {"card": "guard", "target": 1, "guess": "priest"})
    state, events = act(state, {"card": "spy"})
    ended = only(events, "round_ended").data
    assert ended["winners"] == [0] and ended["spy_bonus"] == 1
    assert state["tokens"] == [6, 6] and ENGINE.result(state) is None
    assert "target_tied" in kinds(events)
    assert state["current"] == 0  # the Spy bonus is not a round win (§6.3)


def test_given_spy_bonus_reaches_target_alone_then_it_wins_the_game():
    state = shorten_deck(deal(["king", "guard"], ["guard", "spy"], edition="2019"), 1)
    state["tokens"] = [0, 5]
    state, _ = act(state, {"card": "guard", "target": 1, "guess": "priest"})
    state, events = act(state, {"card": "spy"})
    assert ENGINE.result(state)["winners"] == [1]
    assert state["tokens"] == [1, 6]


# -- leaving the game (ruling 33) -----------------------------------------------


def test_leaving_knocks_the_seat_out_now_and_the_others_play_on():
    engine = ENGINE
    state = engine.setup(["alice", "bob", "carol"], engine.validate_options(3, {"first_player": 0}), "leave")
    state, events = engine.play(state, 1, {"resign": True})
    assert [event.kind for event in events][:2] == ["player_left", "knocked_out"]
    view = engine.view(state, 0)
    assert view["seats"][1]["left"] and not view["seats"][1]["in_round"]
    assert engine.to_move(state) == [0] and engine.result(state) is None


def test_a_player_who_left_is_knocked_out_at_the_start_of_every_later_round():
    engine = ENGINE
    state = engine.setup(["alice", "bob", "carol"], engine.validate_options(3, {"first_player": 0}), "later")
    state, _ = engine.play(state, 2, {"resign": True})
    rounds_seen = state["round"]
    while state["round"] == rounds_seen and engine.result(state) is None:
        seat = engine.to_move(state)[0]
        state, _ = engine.apply(state, seat, engine.legal_moves(state, seat)[0])
    if engine.result(state) is None:
        assert not state["in_round"][2] and state["hands"][2] == []
        assert state["current"] != 2


def test_when_everyone_else_has_left_the_last_player_wins():
    engine = ENGINE
    state = engine.setup(["alice", "bob", "carol"], engine.validate_options(3, {}), "alone")
    state, _ = engine.play(state, 0, {"resign": True})
    state, events = engine.play(state, 2, {"resign": True})
    assert engine.result(state)["winners"] == [1]
    assert events[-1].kind == "game_ended"
    with pytest.raises(IllegalMove):
        engine.play(state, 1, {"resign": True})


def test_leaving_twice_is_refused():
    engine = ENGINE
    state = engine.setup(["alice", "bob", "carol"], engine.validate_options(3, {}), "twice")
    state, _ = engine.play(state, 1, {"resign": True})
    with pytest.raises(IllegalMove, match="already left"):
        engine.play(state, 1, {"resign": True})


def test_the_engine_seats_two_to_six_and_plays_both_versions_of_its_states():
    engine = ENGINE
    assert (engine.slug, engine.min_players, engine.default_players, engine.max_players) == ("love-letter", 2, 2, 6)
    assert (engine.version, engine.supported_versions) == (2, (1, 2))
    assert sorted(engine.bots()) == ["basic", "random", "strong"]


def test_the_player_to_move_leaving_passes_the_turn_on():
    engine = ENGINE
    state = engine.setup(["alice", "bob", "carol"], engine.validate_options(3, {"first_player": 0}), "mine")
    assert engine.to_move(state) == [0]
    state, events = engine.play(state, 0, {"resign": True})
    assert [event.kind for event in events][:2] == ["player_left", "knocked_out"] and events[0].data == {"seat": 0}
    assert (events[1].data["seat"], events[1].data["reason"]) == (0, "left")
    assert engine.to_move(state) == [1] and engine.result(state) is None
    assert state["left"] == [True, False, False] and not state["in_round"][0]


def test_the_last_player_left_wins_with_the_tokens_as_they_stand():
    engine = ENGINE
    state = engine.setup(["alice", "bob"], engine.validate_options(2, {"first_player": 0}), "two")
    state, events = engine.play(state, 1, {"resign": True})
    assert [event.kind for event in events] == ["player_left", "game_ended"]
    assert events[-1].data == {"winners": [0], "tokens": [0, 0], "reason": "resigned"}
    assert engine.to_move(state) == [] and engine.result(state)["winners"] == [0]
    for refused in (lambda: engine.play(state, 0, {"resign": True}), lambda: engine.apply(state, 0, {"card": "guard"})):
        with pytest.raises(IllegalMove, match="over"):
            refused()


@pytest.mark.parametrize("move", [["handmaid"], "handmaid", None, 7])
def test_a_move_that_is_not_an_object_is_refused(move):
    engine = ENGINE
    state = engine.setup(["alice", "bob"], engine.validate_options(2, {"first_player": 0}), "shape")
    # The example is a move the player can copy: it must stay valid JSON of a real move.
    with pytest.raises(IllegalMove) as refused:
        engine.apply(state, 0, move)
    assert refused.value.reason == 'A move must be a JSON object such as {"card": "handmaid"}'
    with pytest.raises(IllegalMove, match="It is not your turn: it is alice's turn"):
        engine.apply(state, 1, {"card": "guard"})
