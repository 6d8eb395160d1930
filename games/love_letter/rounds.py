"""Love Letter's rounds: setup (§3.1), the deal (§3.2), the turn state machine (§3.3) and the end of a round.

A new game deals round 1 and draws the first player's card; after each move
``end_turn`` starts the next in-round player's turn or ends the round, which
hands out the tokens (who wins is worked out in ``scoring.py``) and ends the
game or deals the next round. Every function changes the state as
``changes.py`` does, never in place.
"""

from __future__ import annotations

from typing import Any

from games.base import Event, InvalidOptions, State, seeded_rng
from games.i18n import catalog_of
from games.love_letter import cards
from games.love_letter.changes import add, draw, emit, put
from games.love_letter.effects import eliminate
from games.love_letter.legality import OVER, PLAY, alive
from games.love_letter.options import validate_options
from games.love_letter.scoring import discard_total, showdown_winners, spy_bonus

_ = catalog_of(__name__)


# -- setup ---------------------------------------------------------------------


def new_game(players: list[str], options: dict[str, Any], seed: int | str) -> State:
    """Return the state of a new game, with round 1 dealt and the first player's card drawn."""
    if not isinstance(players, list) or not all(isinstance(name, str) for name in players):
        raise InvalidOptions(_("players must be a list of display names"))
    opts = validate_options(len(players), options)
    edition = opts["edition"]
    state: State = {
        "players": list(players),
        "options": opts,
        "edition": edition,
        "seed": seed,
        "target": cards.TOKEN_TARGETS[edition][len(players)],
        "tokens": [0] * len(players),
        "round": 0,
        "turn": 0,
        "phase": PLAY,
        "current": None,
        "deck": [],
        "set_aside": None,
        "face_up": [],
        "hands": [],
        "discards": [],
        "in_round": [],
        "protected": [],
        "left": [False] * len(players),
        "private": [],
        "known": [],
        "rounds": [],
        "last_round": None,
        "winners": None,
    }
    first = opts.get("first_player")
    if first is None:
        # ADOPTED §3.1 / ruling 34: the first player of round 1 is drawn with the seeded RNG.
        first = seeded_rng(seed, "first_player").randrange(len(players))
    _start_round(state, first, [], candidates=None)
    return state


def _round_deck(state: State) -> list[str]:
    """Return the deck order for the round about to start (scripted, or shuffled from the seed)."""
    scripted = state["options"].get("deck")
    number = state["round"]
    if scripted:
        if len(scripted) == 1:
            return list(scripted[0])
        if number <= len(scripted):
            return list(scripted[number - 1])
    deck = cards.full_deck(state["edition"])
    seeded_rng(state["seed"], "round", number).shuffle(deck)
    return deck


# -- the state machine (§3.3) ---------------------------------------------------


def _start_round(state: State, starter: int, events: list[Event], candidates: list[int] | None) -> None:
    """Deal a new round (§3.2) and start the starter's first turn."""
    n = len(state["players"])
    state["round"] += 1
    state["turn"] = 0
    state["private"] = []
    state["known"] = [[None] * n for _ in range(n)]
    deck = _round_deck(state)
    state["set_aside"] = deck.pop(0)
    state["face_up"] = [deck.pop(0) for _ in range(cards.FACE_UP_REMOVED.get(n, 0))]
    hands: list[list[str]] = [[] for _ in range(n)]
    deal_order = [(starter + i) % n for i in range(n)]
    for seat in deal_order:
        hands[seat].append(deck.pop(0))
    state.update(
        deck=deck,
        hands=hands,
        discards=[[] for _ in range(n)],
        in_round=[True] * n,
        protected=[False] * n,
        phase=PLAY,
    )
    start = {"round": state["round"], "starter": starter, "face_up": list(state["face_up"]), "deck_count": len(deck)}
    if candidates:
        start["chosen_from"] = candidates  # ruling 24: the random pick among winners is announced
    emit(state, events, "round_started", start)
    for seat in deal_order:
        emit(state, events, "dealt", {"seat": seat, "card": hands[seat][0]}, [seat])
    # Ruling 33: a player who has left the game is knocked out at the start of each later round.
    for seat in deal_order:
        if has_left(state, seat):
            eliminate(state, seat, events, "left")
    if has_left(state, starter):
        starter = _next_seat(state, starter)
    _start_turn(state, starter, events)


def _start_turn(state: State, seat: int, events: list[Event]) -> None:
    """Run TURN_START: end the seat's protection and draw its card."""
    assert state["deck"], "a turn never starts with an empty deck (§3.4)"
    state["turn"] += 1
    state["current"] = seat
    state["phase"] = PLAY
    protection_ended = state["protected"][seat]
    if protection_ended:
        put(state, "protected", seat, False)
    card = draw(state)
    add(state, "hands", seat, [card])
    emit(
        state,
        events,
        "drew",
        {"seat": seat, "deck_count": len(state["deck"]), "protection_ended": protection_ended},
    )
    emit(state, events, "drew_card", {"seat": seat, "card": card}, [seat])


def end_turn(state: State, events: list[Event]) -> None:
    """Run END_OF_TURN: end the round or start the next in-round player's turn."""
    playing = alive(state)
    if len(playing) == 1:
        end_round(state, events, "last_standing")
    elif not state["deck"]:
        end_round(state, events, "showdown")
    else:
        _start_turn(state, _next_seat(state, state["current"]), events)


def has_left(state: State, seat: int) -> bool:
    """Return whether ``seat`` has left the game for good (ruling 33)."""
    return bool(state.get("left", [False] * len(state["players"]))[seat])


def _next_seat(state: State, seat: int) -> int:
    """Return the next seat clockwise that is still in the round."""
    n = len(state["players"])
    for step in range(1, n + 1):
        candidate = (seat + step) % n
        if state["in_round"][candidate]:
            return candidate
    raise AssertionError("nobody is in the round")


# -- end of round and game (§6: who wins is worked out in scoring.py) -----------


def end_round(state: State, events: list[Event], reason: str) -> None:
    """Score the round, then end the game or deal the next round."""
    playing = alive(state)
    showdown = None
    if reason == "last_standing":
        winners = tied = playing
    else:
        winners, tied = showdown_winners(state)
        showdown = {
            "hands": [{"seat": seat, "card": state["hands"][seat][0]} for seat in playing],
            "discard_totals": [{"seat": seat, "total": discard_total(state, seat)} for seat in playing],
            "winners": winners,
        }
        emit(state, events, "showdown", showdown)
    bonus = spy_bonus(state)
    tokens = list(state["tokens"])
    for seat in winners:
        tokens[seat] += 1
    if bonus is not None:
        tokens[bonus] += 1
    state["tokens"] = tokens
    record = {"round": state["round"], "winners": winners, "spy_bonus": bonus, "reason": reason}
    state["rounds"] = [*state["rounds"], record]
    # ADOPTED §7.3 / ruling 36: the set-aside card is revealed once the round is over (None: a Prince took it).
    ended = {**record, "set_aside": state["set_aside"], "tokens": list(state["tokens"])}
    state["last_round"] = {**ended, "showdown": showdown}
    emit(state, events, "round_ended", ended)
    top = max(state["tokens"])
    leaders = [seat for seat, tokens in enumerate(state["tokens"]) if tokens == top]
    if top >= state["target"] and len(leaders) == 1:
        state.update(phase=OVER, current=None, winners=leaders)
        emit(state, events, "game_ended", {"winners": leaders, "tokens": list(state["tokens"])})
        return
    if top >= state["target"]:
        # ADOPTED §6.4 / ruling 28: a tie for the lead at the target means another round.
        emit(state, events, "target_tied", {"seats": leaders, "tokens": top})
    # A "nobody" tie has no winner; the tied players draw lots to start (README decision).
    candidates = winners or tied
    if len(candidates) == 1:
        _start_round(state, candidates[0], events, candidates=None)
    else:
        starter = seeded_rng(state["seed"], "starter", state["round"]).choice(sorted(candidates))
        _start_round(state, starter, events, candidates=sorted(candidates))
