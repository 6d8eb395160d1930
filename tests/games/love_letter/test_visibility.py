"""Secrecy and wording: what each viewer sees (rules §7), checked on scripted deals and whole random games."""

from __future__ import annotations

import json
import random

import pytest

from games.base import Event
from games.love_letter import ENGINE, cards

from . import NAMES, act, deal, only, private_texts

PUBLIC_KEYS = {
    "round_started": {"round", "starter", "face_up", "deck_count", "chosen_from"},
    "drew": {"seat", "deck_count", "protection_ended"},
    "played": {"seat", "card", "target", "guess", "hit", "no_target", "loser", "discarded", "replacement", "drew"},
    "knocked_out": {"seat", "revealed", "reason"},
    "chancellor_returned": {"seat", "count"},
    "showdown": {"hands", "discard_totals", "winners"},
    "round_ended": {"round", "winners", "spy_bonus", "reason", "set_aside", "tokens"},
    "target_tied": {"seats", "tokens"},
    "game_ended": {"winners", "tokens"},
}


def _audience(event: Event) -> list[int]:
    """Return who may see a private event, by the §7.2 table."""
    d = event.data
    if event.kind in ("baron_compared", "king_traded"):
        return sorted({d["seat"], d["target"]})
    assert event.kind in ("dealt", "drew_card", "priest_saw", "prince_drew", "chancellor_drew", "chancellor_kept")
    return [d["seat"]]


def check_event_visibility(events: list[Event]) -> None:
    """Assert public events carry only public fields and private ones reach exactly their audience."""
    for event in events:
        if event.visible_to is None:
            key = "played" if event.kind.endswith("_played") else event.kind
            assert set(event.data) <= PUBLIC_KEYS[key], event
        else:
            assert event.visible_to == _audience(event), event


def perturbed(state: dict, seat: int | None, rng: random.Random) -> dict:
    """Return a copy in which every card hidden from ``seat`` (deck, set-aside, other hands) is reshuffled."""
    other = json.loads(json.dumps(state))
    hidden_hands = [s for s in range(len(state["players"])) if s != seat]
    pool = list(other["deck"]) + sum((other["hands"][s] for s in hidden_hands), [])
    if other["set_aside"] is not None:
        pool.append(other["set_aside"])
    rng.shuffle(pool)
    other["deck"] = [pool.pop() for _ in other["deck"]]
    for s in hidden_hands:
        other["hands"][s] = [pool.pop() for _ in other["hands"][s]]
    if other["set_aside"] is not None:
        other["set_aside"] = pool.pop()
    assert not pool
    return other


ALLOWED_CARD_PATHS = ("seats.discards", "face_up_removed", "hand", "private_log", "last_round", "tracker")


def card_paths(value, path: str = "") -> list[str]:
    """Return the dotted paths of every card name (as a value or a key) in a JSON value."""
    found = []
    if isinstance(value, dict):
        for key, item in value.items():
            if key in cards.ALL_CARDS:
                found.append(f"{path}.{key}".strip("."))
            found.extend(card_paths(item, f"{path}.{key}".strip(".")))
    elif isinstance(value, list):
        for item in value:
            found.extend(card_paths(item, path))
    elif isinstance(value, str) and value in cards.ALL_CARDS:
        found.append(path)
    return found


def random_game(seed: int, edition: str, players: int):
    """Yield (state, events) after every move of a seeded random game."""
    rng = random.Random(seed)
    state = ENGINE.setup(NAMES[:players], {"edition": edition}, seed=f"secret-{seed}")
    yield state, []
    while not ENGINE.is_over(state):
        seat = ENGINE.to_move(state)[0]
        state, events = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_moves(state, seat)))
        yield state, events


GAMES = [("classic", 2, 1), ("classic", 3, 2), ("classic", 4, 3), ("2019", 2, 4), ("2019", 4, 5), ("2019", 6, 6)]


@pytest.mark.parametrize(("edition", "players", "seed"), GAMES)
def test_over_whole_random_games_no_view_or_event_leaks_hidden_cards(edition, players, seed):
    rng = random.Random(seed)
    for state, events in random_game(seed, edition, players):
        check_event_visibility(events)
        for seat in [None, *range(players)]:
            view = ENGINE.view(state, seat)
            # The view is a function of what the seat may know: reshuffling every card hidden
            # from it (deck order, set-aside card, other hands) changes nothing in it.
            assert ENGINE.view(perturbed(state, seat, rng), seat) == view
            text = json.dumps(view)
            assert f"secret-{seed}" not in text
            assert not {"deck", "hands", "set_aside", "seed", "log"} & set(view)
            assert "deck" not in view["options"]
            assert view["hand"] == (None if seat is None else state["hands"][seat])
            # Card names appear only where they are public, the viewer's own, or the viewer's private log.
            for path in card_paths(view):
                assert path.startswith(ALLOWED_CARD_PATHS), path
            for entry in view["private_log"]:
                assert entry["kind"] in {
                    "dealt",
                    "drew_card",
                    "priest_saw",
                    "baron_compared",
                    "king_traded",
                    "prince_drew",
                    "chancellor_drew",
                    "chancellor_kept",
                }
                assert seat is not None
            # Rules §7.4: no claim about another hand; every card in it counts as unknown.
            for opponent in view["tracker"]["opponents"]:
                assert opponent["unknown_count"] == len(state["hands"][opponent["seat"]])
                assert set(opponent) == {"seat", "unknown_count", "probabilities"}


def test_view_for_a_seat_has_the_standing_state_of_section_7_1():
    state = deal(["guard", "priest"], ["handmaid"])
    view = ENGINE.view(state, 0)
    assert set(view) == {
        "game",
        "edition",
        "options",
        "you",
        "phase",
        "round",
        "turn",
        "current",
        "target",
        "seats",
        "deck_count",
        "set_aside_present",
        "face_up_removed",
        "hand",
        "private_log",
        "last_play",
        "last_round",
        "winners",
        "tracker",
    }
    assert view["seats"][1] == {
        "seat": 1,
        "name": "Bob",
        "tokens": 0,
        "in_round": True,
        "left": False,
        "protected": False,
        "hand_count": 1,
        "discards": [],
        "discard_total": 0,
    }
    assert view["hand"] == ["guard", "handmaid"]
    assert view["deck_count"] == 9 and view["set_aside_present"] is True
    assert view["face_up_removed"] == ["countess", "king", "prince"]
    assert private_texts(view) == ["You were dealt the Guard.", "You drew the Handmaid."]
    spectator = ENGINE.view(state, None)
    assert spectator["hand"] is None and spectator["private_log"] == []


def test_given_priest_look_then_only_actor_log_has_the_card():
    state = deal(["priest", "baron", "guard"], ["priest"])
    state, _ = act(state, {"card": "priest", "target": 1})
    assert "You saw Bob's card: Baron." in private_texts(ENGINE.view(state, 0))
    for seat in (None, 2):
        assert all(e["kind"] != "priest_saw" for e in ENGINE.view(state, seat)["private_log"])


def test_given_baron_tie_then_others_learn_only_that_it_was_a_tie():
    state = deal(["guard", "guard", "priest"], ["baron"])
    state, events = act(state, {"card": "baron", "target": 1})
    public = only(events, "baron_played")
    assert public.data == {"seat": 0, "card": "baron", "target": 1, "loser": None}
    assert ENGINE.describe_event(public, NAMES[:3], 2) == "Alice played the Baron on Bob: a tie, nothing happens."
    compared = only(events, "baron_compared")
    assert ENGINE.describe_event(compared, NAMES[:3], 1) == "Baron comparison: Alice's Guard against your Guard."


def test_played_card_never_says_whether_it_was_drawn_or_held():
    # Ruling 35: the same public events whether Alice plays the drawn Guard or the held one.
    drawn = deal(["priest", "baron"], ["guard"])
    held = deal(["guard", "baron"], ["priest"])
    _, events_drawn = act(drawn, {"card": "guard", "target": 1, "guess": "king"})
    _, events_held = act(held, {"card": "guard", "target": 1, "guess": "king"})
    public_drawn = [e.to_json() for e in events_drawn if e.visible_to is None]
    public_held = [e.to_json() for e in events_held if e.visible_to is None]
    assert public_drawn == public_held


@pytest.mark.parametrize(
    ("event", "viewer", "text"),
    [
        (
            Event("guard_played", {"seat": 0, "card": "guard", "target": 1, "guess": "priest", "hit": False}),
            2,
            "Alice played the Guard on Bob, naming the Priest: miss.",
        ),
        (
            Event("guard_played", {"seat": 0, "card": "guard", "target": 1, "guess": "priest", "hit": True}),
            1,
            "Alice played the Guard on you, naming the Priest: hit.",
        ),
        (
            Event("priest_saw", {"seat": 0, "card": "priest", "target": 1, "seen": "baron"}, [0]),
            0,
            "You saw Bob's card: Baron.",
        ),
        (
            Event("priest_played", {"seat": 0, "card": "priest", "no_target": True}),
            None,
            "Alice played the Priest: no effect, no legal target.",
        ),
        (
            Event("drew", {"seat": 1, "deck_count": 4, "protection_ended": False}),
            0,
            "Bob drew a card (4 left in the deck).",
        ),
        (Event("drew_card", {"seat": 1, "card": "king"}, [1]), 1, "You drew the King."),
        (
            Event(
                "prince_played",
                {"seat": 0, "card": "prince", "target": 1, "discarded": "guard", "replacement": "set_aside"},
            ),
            None,
            "Alice played the Prince on Bob: Bob discarded the Guard and drew the set-aside card.",
        ),
        (
            Event(
                "prince_played",
                {"seat": 0, "card": "prince", "target": 0, "discarded": "princess", "replacement": None},
            ),
            0,
            "You played the Prince on yourself: you discarded the Princess and are out.",
        ),
        (
            Event(
                "king_traded",
                {"seat": 0, "card": "king", "target": 1, "seat_received": "priest", "target_received": "baron"},
                [0, 1],
            ),
            0,
            "King trade: You received the Priest, Bob received the Baron.",
        ),
        (
            Event("knocked_out", {"seat": 1, "revealed": ["baron"], "reason": "guard"}),
            1,
            "You are out of the round, revealing Baron.",
        ),
        (
            Event(
                "round_ended",
                {
                    "round": 2,
                    "winners": [0],
                    "spy_bonus": None,
                    "reason": "showdown",
                    "set_aside": "guard",
                    "tokens": [3, 1],
                },
            ),
            None,
            "Round 2 ends (showdown): Alice wins the round. Set-aside card: Guard. Tokens: Alice 3, Bob 1.",
        ),
        (Event("game_ended", {"winners": [1], "tokens": [3, 7]}), 1, "You win the game with 7 tokens."),
    ],
)
def test_describe_event_words_the_line_for_the_viewer(event, viewer, text):
    assert ENGINE.describe_event(event, NAMES[:3], viewer) == text


@pytest.mark.parametrize(("edition", "players", "seed"), GAMES[:3])
def test_every_event_of_a_random_game_has_a_description_for_every_viewer(edition, players, seed):
    for _, events in random_game(seed, edition, players):
        for event in events:
            for viewer in [None, *range(players)]:
                line = ENGINE.describe_event(event, NAMES[:players], viewer)
                assert line and "\n" not in line
