"""What each Love Letter card does when played (the rules file, §4), and knocking a player out (§4.1).

The move is already checked (``legality.py``); these functions change the
state as ``changes.py`` does, never in place, and record the events.
"""

from __future__ import annotations

from typing import Any

from games.base import Event, State
from games.love_letter.cards import TARGETS, value
from games.love_letter.changes import add, draw, emit, put
from games.love_letter.legality import CHANCELLOR, PLAY


def eliminate(state: State, seat: int, events: list[Event], reason: str) -> None:
    """Knock ``seat`` out (§4.1): reveal its hand into its discard pile without effects."""
    revealed = state["hands"][seat]
    add(state, "discards", seat, [{"card": card, "how": "knocked_out"} for card in revealed])
    put(state, "hands", seat, [])
    put(state, "in_round", seat, False)
    if state["protected"][seat]:
        put(state, "protected", seat, False)
    emit(state, events, "knocked_out", {"seat": seat, "revealed": list(revealed), "reason": reason})


def play(state: State, seat: int, card: str, target: int | None, guess: str | None, events: list[Event]) -> None:
    """Play ``card``: discard it first, then resolve its effect."""
    hand = list(state["hands"][seat])
    hand.remove(card)
    put(state, "hands", seat, hand)
    add(state, "discards", seat, [{"card": card, "how": "played"}])
    data: dict[str, Any] = {"seat": seat, "card": card}
    if TARGETS[card] == "other" and target is None:
        # Ruling 3: with every opponent protected or out the card is discarded with no effect.
        emit(state, events, f"{card}_played", {**data, "no_target": True})
        return
    if target is not None:
        data["target"] = target
    edition = state["edition"]
    hands = state["hands"]
    if card == "guard":
        hit = hands[target][0] == guess
        emit(state, events, "guard_played", {**data, "guess": guess, "hit": hit})
        if hit:
            eliminate(state, target, events, "guard")
    elif card == "priest":
        emit(state, events, "priest_played", data)
        emit(state, events, "priest_saw", {**data, "seen": hands[target][0]}, [seat])
    elif card == "baron":
        # Ruling 14: the Baron is already discarded, so the actor's remaining card is compared.
        mine, theirs = hands[seat][0], hands[target][0]
        diff = value(edition, mine) - value(edition, theirs)
        loser = None if diff == 0 else (target if diff > 0 else seat)
        emit(state, events, "baron_played", {**data, "loser": loser})
        emit(state, events, "baron_compared", {**data, "seat_card": mine, "target_card": theirs}, [seat, target])
        if loser is not None:
            eliminate(state, loser, events, "baron")
    elif card == "handmaid":
        put(state, "protected", seat, True)
        emit(state, events, "handmaid_played", data)
    elif card == "prince":
        _prince(state, seat, target, events)
    elif card == "king":
        hands = list(hands)
        hands[seat], hands[target] = hands[target], hands[seat]
        state["hands"] = hands
        emit(state, events, "king_played", data)
        emit(
            state,
            events,
            "king_traded",
            {**data, "seat_received": hands[seat][0], "target_received": hands[target][0]},
            [seat, target],
        )
    elif card == "chancellor":
        k = min(2, len(state["deck"]))
        emit(state, events, "chancellor_played", {**data, "drew": k})
        if k:
            drawn = state["deck"][:k]
            state["deck"] = state["deck"][k:]
            add(state, "hands", seat, drawn)
            emit(state, events, "chancellor_drew", {**data, "cards": drawn}, [seat])
            state["phase"] = CHANCELLOR
    elif card == "princess":
        emit(state, events, "princess_played", data)
        eliminate(state, seat, events, "princess_played")
    else:  # countess, spy: no effect when played
        emit(state, events, f"{card}_played", data)


def _prince(state: State, seat: int, target: int, events: list[Event]) -> None:
    """Make ``target`` discard its hand without effect and draw (deck, else the set-aside card)."""
    discarded = state["hands"][target][-1]
    put(state, "hands", target, state["hands"][target][:-1])
    add(state, "discards", target, [{"card": discarded, "how": "discarded"}])
    data: dict[str, Any] = {"seat": seat, "card": "prince", "target": target, "discarded": discarded}
    if discarded == "princess":
        # Ruling 5: discarding the Princess knocks the target out; no replacement is drawn.
        emit(state, events, "prince_played", {**data, "replacement": None})
        eliminate(state, target, events, "princess_discarded")
        return
    if state["deck"]:
        new, source = draw(state), "deck"
    else:
        # Ruling 6 / 31: only the last turn can empty the deck, and the set-aside card is used once.
        assert state["set_aside"] is not None, "the set-aside card was already taken"
        new, source = state["set_aside"], "set_aside"
        state["set_aside"] = None
    add(state, "hands", target, [new])
    emit(state, events, "prince_played", {**data, "replacement": source})
    emit(state, events, "prince_drew", {"seat": target, "card": new, "source": source}, [target])


def resolve_chancellor(state: State, seat: int, keep: str, bottom: list[str], events: list[Event]) -> None:
    """Keep one card and put the others on the bottom of the deck, ``bottom[-1]`` lowest."""
    put(state, "hands", seat, [keep])
    state["deck"] = [*state["deck"], *bottom]
    state["phase"] = PLAY
    emit(state, events, "chancellor_returned", {"seat": seat, "count": len(bottom)})
    emit(state, events, "chancellor_kept", {"seat": seat, "keep": keep, "bottom": list(bottom)}, [seat])
