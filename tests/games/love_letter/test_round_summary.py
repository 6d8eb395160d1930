"""The board says what to do at the start of a turn, and how the last round ended (``round_summary``)."""

from __future__ import annotations

import pytest

from games.i18n import in_english, language
from games.love_letter import ENGINE

from . import act, deal, shorten_deck


def board(state: dict, seat: int | None, code: str = "en") -> dict:
    view = ENGINE.view(state, seat)
    moves = [{"move": move, "text": "", "json": ""} for move in ENGINE.legal_moves(state, seat)] if seat is not None else []
    with language(code):
        return ENGINE.board_data(view, moves)


def test_the_prompt_says_what_the_player_to_move_does_and_whom_the_others_wait_for():
    state = deal(["guard", "priest"], ["baron"])
    assert board(state, 0)["prompt"] == ("Your turn: choose which of your two cards to play. The card says what it "
                                         "will do.")
    assert board(state, 1)["prompt"] == "Alice is choosing a card to play."
    assert board(state, None)["prompt"] == "Alice is choosing a card to play."
    assert board(state, 0, "hu")["prompt"].startswith("Te következel:")
    assert board(state, 1, "de")["prompt"] == "Alice wählt eine Karte zum Ausspielen."


def test_the_prompt_names_the_forced_countess_and_the_chancellors_choice():
    forced = deal(["countess", "guard"], ["king"])
    assert "you must play the Countess" in board(forced, 0)["prompt"]
    chancellor = deal(["chancellor", "guard"], ["priest"], edition="2019")
    chancellor, _ = act(chancellor, {"card": "chancellor"})
    assert board(chancellor, 0)["prompt"].startswith("Your Chancellor: choose the card to keep")
    assert board(chancellor, 1)["prompt"] == ("Alice is choosing which card to keep and which to put under the deck "
                                              "(Chancellor).")


def test_a_player_out_of_the_round_is_told_so():
    state = deal(["guard", "priest", "baron"], ["guard"])
    state, _ = act(state, {"card": "guard", "target": 1, "guess": "priest"})  # Bob is out
    assert board(state, 1)["prompt"] == ("You are out of this round and come back in the next one. Carol is choosing "
                                         "a card to play.")


def test_a_showdown_shows_the_hands_who_scored_and_why_and_the_set_aside_card():
    state = shorten_deck(deal(["king", "baron"], ["guard", "priest"], set_aside="princess"), 1)
    state, _ = act(state, {"card": "guard", "target": 1, "guess": "countess"})
    state, _ = act(state, {"card": "priest", "target": 0})
    for seat in (0, 1, None):  # public once the round is over: the same for everyone
        end = board(state, seat)["round_end"]
        assert end["heading"] == "Round 1 is over: Alice won the showdown."
        assert [(hand["name"], hand["card"], hand["total"]) for hand in end["hands"]] == [
            ("Alice", "king", "discards total 1"), ("Bob", "baron", "discards total 2")]
        assert end["why"] == "Alice held the highest card, the King (6)."
        assert end["scored"] == ["Alice scores a token for winning the round."]
        assert end["set_aside"] == "princess" and end["set_aside_line"] == "The set-aside card was the Princess."
        assert end["tokens"] == "Tokens now: Alice 1, Bob 0."
        assert end["fresh"]  # nobody has played in round 2 yet: the board shows it open
    german = board(state, 1, "de")["round_end"]
    assert german["why"] == "Alice hatte die höchste Karte, den König (6)."
    assert german["set_aside_line"] == "Die Reservekarte war die Prinzessin."
    state, _ = act(state, ENGINE.legal_moves(state, state["current"])[0])  # round 2 goes on: the summary folds
    assert not board(state, 0)["round_end"]["fresh"]


@pytest.mark.parametrize(("final_tie", "why", "scored"), [
    ("all_win", "Alice and Bob held cards of the same value (1) and had the same total of discards (2), so each of "
                "them won.", ["Alice scores a token for winning the round.", "Bob scores a token for winning the round."]),
    ("nobody", "Alice and Bob held cards of the same value (1) and had the same total of discards (2); by this "
               "table's rule nobody wins such a tie.", ["Nobody scores a token for the round."]),
])
def test_a_tie_says_how_it_was_settled(final_tie, why, scored):
    state = shorten_deck(deal(["guard", "guard"], ["priest", "priest"], classic_final_tie=final_tie), 1)
    state, _ = act(state, {"card": "priest", "target": 1})
    state, _ = act(state, {"card": "priest", "target": 0})
    end = board(state, 0)["round_end"]
    assert end["why"] == why and end["scored"] == scored


def test_the_discards_break_a_classic_tie_and_the_2019_spy_scores_a_token_more():
    state = shorten_deck(deal(["guard", "guard"], ["handmaid", "priest"]), 1)
    state, _ = act(state, {"card": "handmaid"})
    state, _ = act(state, {"card": "priest"})
    assert board(state, 1)["round_end"]["why"] == ("Alice and Bob held cards of the same value (1); Alice had the "
                                                   "higher total of discards (4) and won.")
    spy = shorten_deck(deal(["guard", "princess"], ["spy", "priest"], edition="2019"), 1)
    spy, _ = act(spy, {"card": "spy"})
    spy, _ = act(spy, {"card": "priest", "target": 0})
    end = board(spy, 0)["round_end"]
    assert end["heading"] == "Round 1 is over: Bob won the showdown."
    assert end["scored"] == ["Bob scores a token for winning the round.",
                             "Alice scores a token more with the Spy: the only player still in the round who played "
                             "or discarded one."]


def test_the_last_player_standing_wins_without_a_showdown_and_the_game_end_says_who_won():
    state = deal(["guard", "princess"], ["guard"])
    state, _ = act(state, {"card": "guard", "target": 1, "guess": "princess"})
    end = board(state, 1)["round_end"]
    assert end["heading"] == "Round 1 is over: Alice was the last player standing."
    assert end["hands"] == [] and end["why"] == "Everyone else was knocked out, so Alice won without comparing hands."
    # A game that ends keeps its last round's number (no next round is dealt).
    state = dict(state, phase="over", current=None, winners=[0], tokens=[7, 0], round=1)
    state["last_round"] = dict(state["last_round"], tokens=[7, 0])
    with in_english():
        assert board(state, 0)["prompt"] == "The game is over: you win with 7 tokens."
        assert board(state, 1)["prompt"] == "The game is over: Alice wins with 7 tokens."
        # Once the game is over the line above the board counts the rounds, not a deck or a set-aside card that no
        # longer matter (the summary says what the set-aside card was), and the tokens are the final ones.
        status = board(state, 1)["status"]
        assert status == "Classic edition · 1 round played · 7 tokens to win", status
        assert board(state, 1)["round_end"]["tokens"] == "Final tokens: Alice 7, Bob 0."
    assert board(state, 1, "hu")["status"].endswith("1 lejátszott forduló · 7 kegyjelző kell a győzelemhez")
    assert board(state, 1, "de")["round_end"]["tokens"].startswith("Herzen am Ende:")
