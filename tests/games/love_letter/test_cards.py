"""Card effects (rules §4), with the §9 rulings and §10 test vectors, from scripted deals."""

from __future__ import annotations

import itertools

import pytest

from games.base import IllegalMove
from games.love_letter import ENGINE, cards

from . import act, deal, kinds, only, shorten_deck

EDITIONS = ("classic", "2019")


# -- Guard ---------------------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_given_target_holds_named_card_when_guard_names_it_then_target_is_out(edition):
    state = deal(["guard", "priest"], ["handmaid"], edition=edition)
    state, events = act(state, {"card": "guard", "target": 1, "guess": "priest"})
    assert only(events, "guard_played").data == {
        "seat": 0,
        "card": "guard",
        "target": 1,
        "guess": "priest",
        "hit": True,
    }
    assert only(events, "knocked_out").data == {"seat": 1, "revealed": ["priest"], "reason": "guard"}
    assert state["rounds"][0]["winners"] == [0]


@pytest.mark.parametrize("edition", EDITIONS)
def test_given_target_holds_other_card_when_guard_names_any_wrong_type_then_target_stays_in(edition):
    for guess in cards.guessable(edition):
        if guess == "baron":
            continue
        state = deal(["guard", "baron"], ["handmaid"], edition=edition)
        state, events = act(state, {"card": "guard", "target": 1, "guess": guess})
        assert state["in_round"] == [True, True]
        assert only(events, "guard_played").data["hit"] is False
        assert "knocked_out" not in kinds(events)


@pytest.mark.parametrize("edition", EDITIONS)
def test_given_guard_when_naming_guard_then_rejected(edition):
    state = deal(["guard", "guard"], ["handmaid"], edition=edition)
    with pytest.raises(IllegalMove, match="cannot name the Guard"):
        act(state, {"card": "guard", "target": 1, "guess": "guard"})
    assert all(move.get("guess") != "guard" for move in ENGINE.legal_moves(state, 0))


def test_given_guard_when_choosing_yourself_then_rejected():
    state = deal(["guard", "priest"], ["handmaid"])
    with pytest.raises(IllegalMove, match="cannot choose yourself"):
        act(state, {"card": "guard", "target": 0, "guess": "priest"})


def test_given_guard_with_target_when_guess_missing_then_rejected():
    state = deal(["guard", "priest"], ["handmaid"])
    with pytest.raises(IllegalMove, match="Name a card"):
        act(state, {"card": "guard", "target": 1})


def test_given_classic_edition_when_guard_names_spy_then_rejected():
    state = deal(["guard", "priest"], ["handmaid"])
    with pytest.raises(IllegalMove, match="no Spy in the classic"):
        act(state, {"card": "guard", "target": 1, "guess": "spy"})


def test_given_2019_edition_when_guard_names_spy_then_it_can_hit():
    state = deal(["guard", "spy"], ["handmaid"], edition="2019")
    state, events = act(state, {"card": "guard", "target": 1, "guess": "spy"})
    assert only(events, "guard_played").data["hit"] is True


def test_given_all_copies_visible_when_guard_names_that_type_then_it_is_allowed_and_misses():
    # Ruling 30: the King is the only copy; naming it while Alice holds it simply misses.
    state = deal(["guard", "priest"], ["king"])
    state, events = act(state, {"card": "guard", "target": 1, "guess": "king"})
    assert only(events, "guard_played").data["hit"] is False


def test_legal_guard_moves_are_every_target_and_guess():
    state = deal(["guard", "priest", "baron", "priest"], ["handmaid"])
    guard_moves = [m for m in ENGINE.legal_moves(state, 0) if m["card"] == "guard"]
    assert len(guard_moves) == 3 * 7
    assert {(m["target"], m["guess"]) for m in guard_moves} == set(
        itertools.product([1, 2, 3], cards.guessable("classic"))
    )


# -- Priest --------------------------------------------------------------------


def test_given_priest_when_played_then_only_actor_sees_target_card():
    state = deal(["priest", "baron", "guard"], ["handmaid"])
    state, events = act(state, {"card": "priest", "target": 1})
    public = only(events, "priest_played")
    private = only(events, "priest_saw")
    assert public.visible_to is None and "seen" not in public.data
    assert private.visible_to == [0] and private.data["seen"] == "baron"
    assert state["in_round"] == [True, True, True]


# -- Baron ---------------------------------------------------------------------


def _baron_pairs() -> list:
    return [
        pytest.param(edition, mine, theirs, id=f"{edition}-{mine}-vs-{theirs}")
        for edition in EDITIONS
        for mine, theirs in itertools.permutations(cards.card_types(edition), 2)
    ]


@pytest.mark.parametrize(("edition", "mine", "theirs"), _baron_pairs())
def test_given_different_values_when_baron_compares_then_lower_is_out(edition, mine, theirs):
    state = deal([mine, theirs, "guard"], ["baron"], edition=edition)
    state, events = act(state, {"card": "baron", "target": 1})
    loser = 0 if cards.value(edition, mine) < cards.value(edition, theirs) else 1
    assert only(events, "baron_played").data["loser"] == loser
    assert only(events, "baron_compared").data == {
        "seat": 0,
        "card": "baron",
        "target": 1,
        "seat_card": mine,
        "target_card": theirs,
    }
    assert only(events, "baron_compared").visible_to == [0, 1]
    assert only(events, "knocked_out").data["seat"] == loser
    assert state["in_round"][loser] is False and state["in_round"][1 - loser] is True


@pytest.mark.parametrize("card", ["guard", "priest", "handmaid", "prince"])
def test_given_equal_values_when_baron_compares_then_nobody_is_out(card):
    state = deal([card, card, "guard"], ["baron"])
    state, events = act(state, {"card": "baron", "target": 1})
    assert only(events, "baron_played").data["loser"] is None
    assert "knocked_out" not in kinds(events)
    assert state["in_round"] == [True, True, True]


def test_given_two_barons_when_baron_played_then_the_other_baron_is_compared():
    # Ruling 14: the played Baron is discarded first; the remaining Baron (3) beats the Priest.
    state = deal(["baron", "priest", "guard"], ["baron"])
    state, events = act(state, {"card": "baron", "target": 1})
    assert only(events, "baron_compared").data["seat_card"] == "baron"
    assert only(events, "knocked_out").data["seat"] == 1


# -- Handmaid ------------------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_given_handmaid_played_then_protection_lasts_exactly_one_lap(edition):
    state = deal(["guard", "guard", "guard"], ["handmaid", "priest", "priest", "guard"], edition=edition)
    state, _ = act(state, {"card": "handmaid"})
    assert state["protected"] == [True, False, False]  # §10 mistake 1: not cleared at once
    assert {m.get("target") for m in ENGINE.legal_moves(state, 1)} == {2}
    state, _ = act(state, {"card": "priest", "target": 2})
    assert state["protected"][0] is True
    assert {m.get("target") for m in ENGINE.legal_moves(state, 2)} == {1}
    state, events = act(state, {"card": "priest", "target": 1})
    # Alice's turn has started: her protection ended at its start, and it is public.
    assert state["current"] == 0 and state["protected"] == [False, False, False]
    assert only(events, "drew").data["protection_ended"] is True


def test_given_players_between_knocked_out_then_handmaid_still_lasts_until_owner_turn():
    # Alice protected; Bob knocks Carol out; Dave (next after Carol) still cannot choose Alice.
    state = deal(["guard", "guard", "priest", "baron"], ["handmaid", "guard", "guard", "guard"])
    state, _ = act(state, {"card": "handmaid"})
    state, _ = act(state, {"card": "guard", "target": 2, "guess": "priest"})
    assert state["in_round"] == [True, True, False, True]
    assert state["current"] == 3 and state["protected"][0] is True
    assert {m.get("target") for m in ENGINE.legal_moves(state, 3) if m["card"] == "guard"} == {1}
    state, _ = act(state, {"card": "guard", "target": 1, "guess": "king"})
    assert state["current"] == 0 and state["protected"][0] is False


@pytest.mark.parametrize("card", ["guard", "priest", "baron", "king", "prince"])
def test_given_protected_opponent_when_choosing_them_then_rejected(card):
    state = deal(["guard", "priest", "priest"], ["handmaid", "guard"])
    state, _ = act(state, {"card": "handmaid"})
    state["hands"][1] = [card, "priest" if card != "priest" else "guard"]  # surgery: Bob holds the tested card
    assert all(m.get("target") != 0 for m in ENGINE.legal_moves(state, 1))
    with pytest.raises(IllegalMove, match="protected by the Handmaid"):
        act(state, {"card": card, "target": 0, **({"guess": "priest"} if card == "guard" else {})})


def test_given_own_handmaid_when_playing_prince_on_self_then_allowed():
    # Ruling 18: protection never stops your own card; Alice is protected until her turn begins,
    # so test via a protected state directly: own Prince on self is always legal.
    state = deal(["prince", "guard"], ["guard"])
    state["protected"][0] = True
    assert {"card": "prince", "target": 0} in ENGINE.legal_moves(state, 0)


# -- Prince --------------------------------------------------------------------


def _prince_cases() -> list:
    return [
        pytest.param(edition, card, id=f"{edition}-{card}")
        for edition in EDITIONS
        for card in cards.card_types(edition)
        if card != "princess"
    ]


@pytest.mark.parametrize(("edition", "card"), _prince_cases())
def test_given_non_princess_when_prince_makes_target_discard_then_target_draws_top_card(edition, card):
    state = deal(["guard", card, "guard"], ["prince", "handmaid"], edition=edition)
    top = state["deck"][0]
    state, events = act(state, {"card": "prince", "target": 1})
    assert state["discards"][1] == [{"card": card, "how": "discarded"}]
    assert state["in_round"][1] is True
    assert only(events, "prince_played").data["discarded"] == card
    assert only(events, "prince_played").data["replacement"] == "deck"
    drew = only(events, "prince_drew")
    assert drew.visible_to == [1] and drew.data["card"] == top
    assert state["hands"][1][0] == top  # (Bob's turn has begun: he also drew his turn card)


@pytest.mark.parametrize("edition", EDITIONS)
def test_given_target_holds_princess_when_prince_played_then_target_is_out_and_deck_unchanged(edition):
    state = deal(["guard", "princess", "guard"], ["prince"], edition=edition)
    deck_before = list(state["deck"])
    state, events = act(state, {"card": "prince", "target": 1})
    assert state["in_round"] == [True, False, True]
    assert "prince_drew" not in kinds(events)
    assert only(events, "prince_played").data["replacement"] is None
    # Only Carol's turn draw has left the deck.
    assert state["deck"] == deck_before[1:]


def test_given_prince_on_self_then_the_other_card_is_discarded():
    state = deal(["baron", "guard"], ["prince"])
    top = state["deck"][0]
    state, _ = act(state, {"card": "prince", "target": 0})
    assert state["discards"][0] == [{"card": "prince", "how": "played"}, {"card": "baron", "how": "discarded"}]
    assert state["hands"][0] == [top]


def test_given_princess_in_hand_when_prince_on_self_then_out():
    state = deal(["princess", "guard"], ["prince"])
    state, events = act(state, {"card": "prince", "target": 0})
    assert state["rounds"][0] == {"round": 1, "winners": [1], "spy_bonus": None, "reason": "last_standing"}


@pytest.mark.parametrize("edition", EDITIONS)
def test_given_empty_deck_when_prince_played_then_target_takes_set_aside_card(edition):
    state = shorten_deck(deal(["guard", "baron"], ["prince"], set_aside="king", edition=edition), 0)
    state, events = act(state, {"card": "prince", "target": 1})
    assert only(events, "prince_played").data["replacement"] == "set_aside"
    assert only(events, "prince_drew").data == {"seat": 1, "card": "king", "source": "set_aside"}
    # Ruling 8: the deck was empty at the end of the turn, so the round ends in a showdown.
    assert only(events, "showdown").data["hands"] == [{"seat": 0, "card": "guard"}, {"seat": 1, "card": "king"}]
    assert only(events, "round_ended").data["set_aside"] is None


@pytest.mark.parametrize("edition", EDITIONS)
def test_given_every_opponent_protected_when_prince_played_then_only_self_is_legal(edition):
    state = deal(["guard", "guard", "prince"], ["handmaid", "handmaid", "guard"], edition=edition)
    state, _ = act(state, {"card": "handmaid"})
    state, _ = act(state, {"card": "handmaid"})
    prince_moves = [m for m in ENGINE.legal_moves(state, 2) if m["card"] == "prince"]
    assert prince_moves == [{"card": "prince", "target": 2}]
    with pytest.raises(IllegalMove, match="protected"):
        act(state, {"card": "prince", "target": 0})


def test_given_prince_last_card_drawn_when_turn_ends_then_showdown():
    state = shorten_deck(deal(["guard", "baron"], ["prince"]), 1)
    state, events = act(state, {"card": "prince", "target": 1})
    assert "showdown" in kinds(events)


# -- King ----------------------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_given_king_when_played_then_hands_are_swapped_and_each_side_learns_received_card(edition):
    state = deal(["baron", "priest", "guard"], ["king"], edition=edition)
    state, events = act(state, {"card": "king", "target": 1})
    assert state["hands"][0] == ["priest"]
    assert state["hands"][1][0] == "baron"
    trade = only(events, "king_traded")
    assert trade.visible_to == [0, 1]
    assert trade.data["seat_received"] == "priest" and trade.data["target_received"] == "baron"
    assert only(events, "king_played").data == {"seat": 0, "card": "king", "target": 1}


def test_given_princess_when_king_gives_her_away_then_nobody_is_out():
    state = deal(["princess", "guard", "guard"], ["king"])
    state, events = act(state, {"card": "king", "target": 1})
    assert "knocked_out" not in kinds(events)
    assert state["in_round"] == [True, True, True]
    assert state["hands"][1][0] == "princess"


def test_given_king_when_choosing_yourself_or_out_player_then_rejected():
    state = deal(["guard", "priest", "guard"], ["guard", "guard", "king"])
    state, _ = act(state, {"card": "guard", "target": 1, "guess": "priest"})  # Bob out
    state, _ = act(state, {"card": "guard", "target": 0, "guess": "baron"})  # Carol misses
    state["hands"][0] = ["king", "guard"]
    with pytest.raises(IllegalMove, match="yourself"):
        act(state, {"card": "king", "target": 0})
    with pytest.raises(IllegalMove, match="out of this round"):
        act(state, {"card": "king", "target": 1})


# -- Countess ------------------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("forcing", ["king", "prince"])
def test_given_countess_with_king_or_prince_when_playing_other_then_rejected(edition, forcing):
    state = deal(["countess", "guard"], [forcing], edition=edition)
    with pytest.raises(IllegalMove, match="must play the Countess"):
        act(state, {"card": forcing, "target": 1})
    assert ENGINE.legal_moves(state, 0) == [{"card": "countess"}]
    state, events = act(state, {"card": "countess"})
    assert only(events, "countess_played").data == {"seat": 0, "card": "countess"}


@pytest.mark.parametrize("other", ["guard", "priest", "baron", "handmaid", "princess"])
def test_given_countess_with_other_card_then_either_may_be_played(other):
    state = deal(["countess", "guard"], [other])
    played = {m["card"] for m in ENGINE.legal_moves(state, 0)}
    assert played == {"countess", other}


def test_given_countess_received_by_king_trade_then_one_card_hand_is_not_forced():
    # Ruling 11: the Countess rule is checked only when choosing between 2 cards.
    state = deal(["guard", "countess", "guard"], ["king", "prince"])
    state, _ = act(state, {"card": "king", "target": 1})
    assert state["hands"][0] == ["countess"]
    assert state["current"] == 1 and sorted(state["hands"][1]) == ["guard", "prince"]
    assert {m["card"] for m in ENGINE.legal_moves(state, 1)} == {"guard", "prince"}


# -- Princess ------------------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_given_princess_when_played_then_actor_is_out(edition):
    state = deal(["princess", "guard", "guard"], ["guard"], edition=edition)
    state, events = act(state, {"card": "princess"})
    assert state["in_round"] == [False, True, True]
    assert state["discards"][0] == [{"card": "princess", "how": "played"}, {"card": "guard", "how": "knocked_out"}]
    assert only(events, "knocked_out").data == {"seat": 0, "revealed": ["guard"], "reason": "princess_played"}


# -- No legal target (ruling 3) ------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("card", ["guard", "priest", "baron", "king"])
def test_given_every_opponent_protected_when_targeting_card_played_then_no_effect(card, edition):
    state = deal(["guard", "countess"], ["handmaid", "handmaid"], edition=edition)
    state, _ = act(state, {"card": "handmaid"})
    state["hands"][1] = ["handmaid", card]
    state, _ = act(state, {"card": "handmaid"})
    state["hands"][0] = [card, "priest" if card != "priest" else "guard"]
    assert {"card": card} in ENGINE.legal_moves(state, 0)
    with pytest.raises(IllegalMove, match="protected or out"):
        act(state, {"card": card, "target": 1, **({"guess": "priest"} if card == "guard" else {})})
    hands_before = [list(h) for h in state["hands"]]
    state, events = act(state, {"card": card})
    played = only(events, f"{card}_played")
    assert played.data == {"seat": 0, "card": card, "no_target": True} and played.visible_to is None
    assert state["hands"][1] == hands_before[1][:1] + state["hands"][1][1:]
    assert "knocked_out" not in kinds(events)


def test_given_target_available_when_targeting_card_played_without_target_then_rejected():
    state = deal(["priest", "guard"], ["guard"])
    with pytest.raises(IllegalMove, match="Choose a player"):
        act(state, {"card": "priest"})


def test_given_untargeted_card_when_target_given_then_rejected():
    state = deal(["handmaid", "guard"], ["guard"])
    with pytest.raises(IllegalMove, match="does not choose"):
        act(state, {"card": "handmaid", "target": 1})


# -- Chancellor (2019) ---------------------------------------------------------


def test_given_deck_of_two_or_more_when_chancellor_played_then_choose_from_three_and_return_two():
    state = deal(["guard", "priest", "guard"], ["chancellor"], edition="2019")
    deck_before = list(state["deck"])
    state, events = act(state, {"card": "chancellor"})
    assert state["phase"] == "await_chancellor" and state["current"] == 0
    assert state["hands"][0] == ["guard", *deck_before[:2]]
    assert only(events, "chancellor_drew").visible_to == [0]
    keep_moves = ENGINE.legal_moves(state, 0)
    assert all(len(m["bottom"]) == 2 for m in keep_moves)
    hand = state["hands"][0]
    state, events = act(state, {"keep": hand[1], "bottom": [hand[2], hand[0]]})
    assert state["hands"][0] == [hand[1]]
    # The deck keeps its size (the next player then draws one); the returned cards are at the bottom, in order.
    assert state["deck"][-2:] == [hand[2], hand[0]]
    assert len(state["deck"]) == len(deck_before) - 1
    assert only(events, "chancellor_returned").data == {"seat": 0, "count": 2}
    assert only(events, "chancellor_kept").visible_to == [0]
    assert state["current"] == 1


def test_given_deck_of_one_when_chancellor_played_then_choose_from_two_and_round_continues():
    state = shorten_deck(deal(["guard", "priest"], ["chancellor"], edition="2019"), 1)
    last = state["deck"][0]
    state, _ = act(state, {"card": "chancellor"})
    assert state["hands"][0] == ["guard", last]
    assert {len(m["bottom"]) for m in ENGINE.legal_moves(state, 0)} == {1}
    state, events = act(state, {"keep": last, "bottom": ["guard"]})
    assert "round_ended" not in kinds(events)
    assert state["current"] == 1 and state["hands"][1] == ["priest", "guard"] and state["deck"] == []


def test_given_empty_deck_when_chancellor_played_then_no_effect_and_round_ends():
    state = shorten_deck(deal(["guard", "priest"], ["chancellor"], edition="2019"), 0)
    state, events = act(state, {"card": "chancellor"})
    assert only(events, "chancellor_played").data == {"seat": 0, "card": "chancellor", "drew": 0}
    assert "chancellor_drew" not in kinds(events)
    assert "showdown" in kinds(events)


def test_given_chancellor_cards_seen_when_trying_to_play_a_card_then_rejected():
    state = deal(["guard", "priest"], ["chancellor"], edition="2019")
    state, _ = act(state, {"card": "chancellor"})
    with pytest.raises(IllegalMove, match="Finish the Chancellor"):
        act(state, {"card": "guard", "target": 1, "guess": "priest"})
    assert all(set(m) == {"keep", "bottom"} for m in ENGINE.legal_moves(state, 0))


def test_given_chancellor_when_returning_princess_then_nobody_is_out():
    state = deal(["princess", "priest"], ["chancellor"], edition="2019")
    state, _ = act(state, {"card": "chancellor"})
    hand = state["hands"][0]
    keep = hand[1]
    bottom = [c for c in hand if c != keep] if hand.count(keep) == 1 else [hand[0], keep]
    state, events = act(state, {"keep": keep, "bottom": bottom})
    assert "knocked_out" not in kinds(events) and state["in_round"] == [True, True]
    assert "princess" in state["deck"]


def test_given_countess_and_king_when_chancellor_keeps_then_countess_rule_does_not_apply():
    state = deal(["king", "priest"], ["chancellor", "countess", "guard"], edition="2019")
    state, _ = act(state, {"card": "chancellor"})
    assert {"keep": "king", "bottom": ["countess", "guard"]} in ENGINE.legal_moves(state, 0)
    state, _ = act(state, {"keep": "king", "bottom": ["countess", "guard"]})
    assert state["hands"][0] == ["king"]


def test_given_chancellor_resolution_with_wrong_cards_then_rejected():
    state = deal(["guard", "priest"], ["chancellor"], edition="2019")
    state, _ = act(state, {"card": "chancellor"})
    with pytest.raises(IllegalMove, match="other cards"):
        act(state, {"keep": "guard", "bottom": ["guard"]})
    with pytest.raises(IllegalMove, match="do not hold"):
        act(state, {"keep": "princess", "bottom": ["guard", "guard"]})


@pytest.mark.parametrize("half", [{"keep": "guard"}, {"bottom": ["guard", "guard"]}])
def test_given_half_a_chancellor_resolution_then_the_refusal_names_both_fields(half):
    state = deal(["guard", "priest"], ["chancellor"], edition="2019")
    state, _ = act(state, {"card": "chancellor"})
    with pytest.raises(IllegalMove, match="^A Chancellor resolution has exactly the fields keep and bottom$"):
        act(state, half)
    played = deal(["guard", "priest"], ["chancellor"], edition="2019")  # no Chancellor played: nothing to resolve
    with pytest.raises(IllegalMove, match="^There is no Chancellor to resolve: play a card$"):
        act(played, half)
