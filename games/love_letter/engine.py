"""Love Letter rules: the classic 2012 16-card game (default) and the 2019 21-card edition.

Follows docs/rules/love-letter.md (the rules file): the turn state machine
of §3.3, the card effects of §4, validation of §5, scoring of §6 and every
ADOPTED ruling of §9. Rule algorithms are module functions working on a copy of
the state; ``LoveLetterEngine`` is the thin contract adapter around them.

``apply`` copies only what a move changes: the new state is a new dict whose
changed lists are new lists (``_put``, ``_draw``, ``_add``), and the lists it
shares with the input are never changed in place. The state keeps no event
log: only the current round's private events (``private``, what each seat's
private log shows) and what each seat knows of the others' hands (``known``,
for its card tracker). The platform's move table holds every event.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from itertools import permutations
from typing import Any

from games.base import Engine, Event, IllegalMove, InvalidOptions, OptionSpec, State, seeded_rng
from games.love_letter import breakdown, cards, notation, player_view, tracker
from games.love_letter.cards import CLASSIC, TARGETS, title, value
from games.love_letter.upcast import VERSION, upcast

PLAY = "await_play"  # AWAIT_PLAY: the current player holds 2 cards and must play one
CHANCELLOR = "await_chancellor"  # AWAIT_CHANCELLOR: the 2019 Chancellor's actor keeps one card
OVER = "over"

FINAL_TIES = ("all_win", "nobody")
INTERNAL_OPTIONS = ("deck", "first_player")

OPTION_SPECS = (
    OptionSpec(
        name="edition",
        label="Edition",
        choices=(
            (CLASSIC, "Classic (16 cards, 2–4 players)"),
            (cards.EDITION_2019, "2019 (21 cards with Spy and Chancellor, 2–6 players)"),
        ),
        default=CLASSIC,
        help="Which deck and token targets to use.",
    ),
    OptionSpec(
        name="classic_final_tie",
        label="Classic showdown tie after discard totals",
        choices=(("all_win", "All tied players win a token"), ("nobody", "Nobody scores (as on BGA)")),
        default="all_win",
        help="Classic edition only: who wins a showdown still tied after comparing discard totals.",
    ),
)


# -- options and setup ---------------------------------------------------------


def validate_options(players: int, options: dict[str, Any] | None) -> dict[str, Any]:
    """Return the complete options for ``players`` seats or raise ``InvalidOptions``."""
    options = {} if options is None else options
    if not isinstance(options, dict):
        raise InvalidOptions("Options must be an object")
    known = {spec.name for spec in OPTION_SPECS} | set(INTERNAL_OPTIONS)
    unknown = sorted(str(key) for key in options if key not in known)
    if unknown:
        raise InvalidOptions(f"Unknown option(s) for Love Letter: {', '.join(unknown)}")
    edition = options.get("edition", CLASSIC)
    if edition not in cards.EDITIONS:
        raise InvalidOptions(f"Unknown edition {edition!r}: choose 'classic' or '2019'")
    final_tie = options.get("classic_final_tie", "all_win")
    if final_tie not in FINAL_TIES:
        raise InvalidOptions(f"classic_final_tie must be 'all_win' or 'nobody', not {final_tie!r}")
    low, high = cards.player_range(edition)
    if isinstance(players, bool) or not isinstance(players, int) or not low <= players <= high:
        raise InvalidOptions(f"The {edition} edition is for {low} to {high} players, not {players}")
    result: dict[str, Any] = {"edition": edition, "classic_final_tie": final_tie}
    if options.get("deck") is not None:
        result["deck"] = _validated_decks(edition, options["deck"])
    if options.get("first_player") is not None:
        first = options["first_player"]
        if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < players:
            raise InvalidOptions(f"first_player must be a seat from 0 to {players - 1}")
        result["first_player"] = first
    return result


def _validated_decks(edition: str, deck: Any) -> list[list[str]]:
    """Return the scripted deck orders as a list of per-round lists, or raise ``InvalidOptions``."""
    if not isinstance(deck, list) or not deck:
        raise InvalidOptions("deck must be a non-empty list of card names, or a list of such lists")
    rounds = deck if all(isinstance(item, list) for item in deck) else [deck]
    wanted = Counter(cards.full_deck(edition))
    checked = []
    for number, order in enumerate(rounds, start=1):
        if not all(isinstance(card, str) for card in order):
            raise InvalidOptions(f"deck for round {number} must list card names")
        if Counter(order) != wanted:
            missing = wanted - Counter(order)
            extra = Counter(order) - wanted
            raise InvalidOptions(
                f"deck for round {number} must be exactly the {edition} deck "
                f"(missing {sorted(missing.elements())}, extra {sorted(extra.elements())})"
            )
        checked.append(list(order))
    return checked


def new_game(players: list[str], options: dict[str, Any], seed: int | str) -> State:
    """Return the state of a new game, with round 1 dealt and the first player's card drawn."""
    if not isinstance(players, list) or not all(isinstance(name, str) for name in players):
        raise InvalidOptions("players must be a list of display names")
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


# -- events ----------------------------------------------------------------------


def _emit(state: State, events: list[Event], kind: str, data: dict[str, Any], to: list[int] | None = None) -> None:
    """Record an event in the returned list; keep a private one for its seats' log; update what seats know."""
    if to is None:
        events.append(Event(kind, data))
        if tracker.forgets(kind) and any(map(any, state["known"])):
            _learn(state, kind, data, range(len(state["players"])))
        return
    visible_to = sorted(set(to))
    events.append(Event(kind, data, visible_to))
    entry = {"turn": state["turn"], "kind": kind, "data": data, "visible_to": visible_to}
    state["private"] = [*state["private"], entry]
    if kind in tracker.TEACHING:
        _learn(state, kind, data, visible_to)


def _learn(state: State, kind: str, data: dict[str, Any], seats: Iterable[int]) -> None:
    """Fold the event into what each of ``seats`` knows of the others' hands (the card tracker's knowledge)."""
    known = list(state["known"])
    for seat in seats:
        known[seat] = tracker.learn(known[seat], kind, data, seat)
    state["known"] = known


# -- copying only what changes ------------------------------------------------------


def _put(state: State, key: str, seat: int, item: Any) -> None:
    """Set ``state[key][seat]`` to ``item`` in a new list (the old one may be shared with the input state)."""
    changed = list(state[key])
    changed[seat] = item
    state[key] = changed


def _add(state: State, key: str, seat: int, items: list[Any]) -> None:
    """Append ``items`` to the seat's list in ``state[key]`` (hands, discards), in new lists."""
    _put(state, key, seat, [*state[key][seat], *items])


def _draw(state: State) -> str:
    """Take the top card of the deck (a new list without it)."""
    card = state["deck"][0]
    state["deck"] = state["deck"][1:]
    return card


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
    _emit(state, events, "round_started", start)
    for seat in deal_order:
        _emit(state, events, "dealt", {"seat": seat, "card": hands[seat][0]}, [seat])
    # Ruling 33: a player who has left the game is knocked out at the start of each later round.
    for seat in deal_order:
        if _has_left(state, seat):
            _eliminate(state, seat, events, "left")
    if _has_left(state, starter):
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
        _put(state, "protected", seat, False)
    card = _draw(state)
    _add(state, "hands", seat, [card])
    _emit(
        state,
        events,
        "drew",
        {"seat": seat, "deck_count": len(state["deck"]), "protection_ended": protection_ended},
    )
    _emit(state, events, "drew_card", {"seat": seat, "card": card}, [seat])


def _end_turn(state: State, events: list[Event]) -> None:
    """Run END_OF_TURN: end the round or start the next in-round player's turn."""
    alive = _alive(state)
    if len(alive) == 1:
        _end_round(state, events, "last_standing")
    elif not state["deck"]:
        _end_round(state, events, "showdown")
    else:
        _start_turn(state, _next_seat(state, state["current"]), events)


def _has_left(state: State, seat: int) -> bool:
    return bool(state.get("left", [False] * len(state["players"]))[seat])


def resign(state: State, seat: int) -> tuple[State, list[Event]]:
    """Return the state after ``seat`` leaves the game for good (ruling 33), and the events.

    The seat is knocked out of the current round at once and of every later
    round at its start; when one player is left in the game, they win it.
    """
    if state["phase"] == OVER:
        raise IllegalMove("The game is over")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(state["players"]):
        raise IllegalMove(f"There is no seat {seat!r}")
    if _has_left(state, seat):
        raise IllegalMove("You have already left this game")
    new = dict(state)
    new["left"] = list(state.get("left") or [False] * len(state["players"]))
    new["left"][seat] = True
    events: list[Event] = []
    _emit(new, events, "player_left", {"seat": seat})
    staying = [other for other in range(len(new["players"])) if not new["left"][other]]
    if len(staying) == 1:
        new.update(phase=OVER, current=None, winners=staying)
        _emit(new, events, "game_ended", {"winners": staying, "tokens": list(new["tokens"]), "reason": "resigned"})
        return new, events
    if new["in_round"][seat]:
        _eliminate(new, seat, events, "left")
        if new["current"] == seat:
            _end_turn(new, events)
        elif len(_alive(new)) == 1:
            _end_round(new, events, "last_standing")
    return new, events


def _alive(state: State) -> list[int]:
    return [seat for seat, inside in enumerate(state["in_round"]) if inside]


def _next_seat(state: State, seat: int) -> int:
    """Return the next seat clockwise that is still in the round."""
    n = len(state["players"])
    for step in range(1, n + 1):
        candidate = (seat + step) % n
        if state["in_round"][candidate]:
            return candidate
    raise AssertionError("nobody is in the round")


def _eliminate(state: State, seat: int, events: list[Event], reason: str) -> None:
    """Knock ``seat`` out (§4.1): reveal its hand into its discard pile without effects."""
    revealed = state["hands"][seat]
    _add(state, "discards", seat, [{"card": card, "how": "knocked_out"} for card in revealed])
    _put(state, "hands", seat, [])
    _put(state, "in_round", seat, False)
    if state["protected"][seat]:
        _put(state, "protected", seat, False)
    _emit(state, events, "knocked_out", {"seat": seat, "revealed": list(revealed), "reason": reason})


# -- targets and legality (§5) -------------------------------------------------


def open_opponents(state: State, seat: int) -> list[int]:
    """Return the opponents ``seat`` may choose: in the round and not protected."""
    return [other for other in _alive(state) if other != seat and not state["protected"][other]]


def legal_targets(state: State, seat: int, card: str) -> list[int]:
    """Return the seats ``card`` may choose when played by ``seat`` (empty: no target)."""
    kind = TARGETS[card]
    if kind == "other":
        return open_opponents(state, seat)
    if kind == "any":
        return sorted([seat, *open_opponents(state, seat)])
    return []


def countess_forced(hand: list[str]) -> bool:
    """Tell whether the hand must play the Countess (ruling 9; only with 2 cards, ruling 11)."""
    return len(hand) == 2 and "countess" in hand and any(card in cards.FORCES_COUNTESS for card in hand)


def legal_moves(state: State, seat: int) -> list[dict[str, Any]]:
    """Return every legal move for ``seat`` now."""
    if state["phase"] == OVER or seat != state["current"]:
        return []
    hand = state["hands"][seat]
    if state["phase"] == CHANCELLOR:
        moves = []
        for keep in sorted(set(hand), key=hand.index):
            rest = list(hand)
            rest.remove(keep)
            for order in dict.fromkeys(permutations(rest)):
                moves.append({"keep": keep, "bottom": list(order)})
        return moves
    moves = []
    playable = ["countess"] if countess_forced(hand) else sorted(set(hand), key=lambda c: value(state["edition"], c))
    for card in playable:
        targets = legal_targets(state, seat, card)
        if not targets:
            moves.append({"card": card})
        elif card == "guard":
            moves.extend(
                {"card": card, "target": target, "guess": guess}
                for target in targets
                for guess in cards.guessable(state["edition"])
            )
        else:
            moves.extend({"card": card, "target": target} for target in targets)
    return moves


def _name(state: State, seat: int) -> str:
    return state["players"][seat]


def _check_card_name(state: State, card: Any, what: str) -> str:
    """Return ``card`` if it names a card of this edition, else raise ``IllegalMove``."""
    if not isinstance(card, str):
        raise IllegalMove(f'{what} must be a card name such as "guard"')
    if card not in cards.ALL_CARDS:
        raise IllegalMove(f"Unknown card {card!r}")
    if card not in cards.VALUES[state["edition"]]:
        raise IllegalMove(f"There is no {title(card)} in the {state['edition']} edition")
    return card


def _check_play(state: State, seat: int, move: dict[str, Any]) -> tuple[str, int | None, str | None]:
    """Return (card, target, guess) of a legal play or raise ``IllegalMove`` (§5)."""
    if state["phase"] == CHANCELLOR:
        raise IllegalMove("Finish the Chancellor first: keep one card and put the others on the bottom")
    extra = sorted(str(key) for key in move if key not in ("card", "target", "guess"))
    if extra:
        raise IllegalMove(f"Unexpected field(s) in a play: {', '.join(extra)}")
    if "card" not in move:
        raise IllegalMove("Say which card to play")
    card = _check_card_name(state, move["card"], "card")
    target, guess = move.get("target"), move.get("guess")
    if target is not None and (isinstance(target, bool) or not isinstance(target, int)):
        raise IllegalMove("target must be a seat number")
    if guess is not None:
        guess = _check_card_name(state, guess, "guess")
    hand = state["hands"][seat]
    if card not in hand:
        raise IllegalMove(f"You do not hold a {title(card)}")
    if countess_forced(hand) and card != "countess":
        other = next(c for c in hand if c in cards.FORCES_COUNTESS)
        raise IllegalMove(f"You must play the Countess while you hold the {title(other)}")
    kind = TARGETS[card]
    if kind is None:
        if target is not None:
            raise IllegalMove(f"The {title(card)} does not choose a player")
    else:
        targets = legal_targets(state, seat, card)
        if not targets:
            if target is not None:
                raise IllegalMove(f"Every other player is protected or out: play the {title(card)} without a target")
        elif target is None:
            raise IllegalMove(f"Choose a player for the {title(card)}")
        elif target not in targets:
            raise IllegalMove(_why_not_target(state, seat, card, target))
    if card == "guard" and target is not None:
        if guess is None:
            raise IllegalMove("Name a card for the Guard")
        if guess == "guard":
            raise IllegalMove("The Guard cannot name the Guard")
    elif guess is not None:
        raise IllegalMove("Only a Guard with a target names a card")
    return card, target, guess


def _why_not_target(state: State, seat: int, card: str, target: int) -> str:
    """Explain why ``target`` cannot be chosen."""
    if not 0 <= target < len(state["players"]):
        return f"There is no seat {target}"
    if target == seat:
        return f"The {title(card)} cannot choose yourself"
    if not state["in_round"][target]:
        return f"{_name(state, target)} is out of this round"
    return f"{_name(state, target)} is protected by the Handmaid"


def _check_chancellor(state: State, seat: int, move: dict[str, Any]) -> tuple[str, list[str]]:
    """Return (keep, bottom) of a legal Chancellor resolution or raise ``IllegalMove``."""
    if state["phase"] != CHANCELLOR:
        raise IllegalMove("There is no Chancellor to resolve: play a card")
    if set(move) != {"keep", "bottom"}:
        raise IllegalMove("A Chancellor resolution has exactly the fields keep and bottom")
    keep = _check_card_name(state, move["keep"], "keep")
    bottom = move["bottom"]
    if not isinstance(bottom, list):
        raise IllegalMove("bottom must be a list of card names")
    bottom = [_check_card_name(state, card, "each bottom card") for card in bottom]
    hand = state["hands"][seat]
    if keep not in hand:
        raise IllegalMove(f"You do not hold a {title(keep)}")
    if Counter([keep, *bottom]) != Counter(hand):
        rest = list(hand)
        rest.remove(keep)
        raise IllegalMove(f"bottom must list exactly your other cards, each once: {', '.join(sorted(rest))}")
    return keep, bottom


# -- card effects (§4) -----------------------------------------------------------


def _play(state: State, seat: int, card: str, target: int | None, guess: str | None, events: list[Event]) -> None:
    """Play ``card``: discard it first, then resolve its effect."""
    hand = list(state["hands"][seat])
    hand.remove(card)
    _put(state, "hands", seat, hand)
    _add(state, "discards", seat, [{"card": card, "how": "played"}])
    data: dict[str, Any] = {"seat": seat, "card": card}
    if TARGETS[card] == "other" and target is None:
        # Ruling 3: with every opponent protected or out the card is discarded with no effect.
        _emit(state, events, f"{card}_played", {**data, "no_target": True})
        return
    if target is not None:
        data["target"] = target
    edition = state["edition"]
    hands = state["hands"]
    if card == "guard":
        hit = hands[target][0] == guess
        _emit(state, events, "guard_played", {**data, "guess": guess, "hit": hit})
        if hit:
            _eliminate(state, target, events, "guard")
    elif card == "priest":
        _emit(state, events, "priest_played", data)
        _emit(state, events, "priest_saw", {**data, "seen": hands[target][0]}, [seat])
    elif card == "baron":
        # Ruling 14: the Baron is already discarded, so the actor's remaining card is compared.
        mine, theirs = hands[seat][0], hands[target][0]
        diff = value(edition, mine) - value(edition, theirs)
        loser = None if diff == 0 else (target if diff > 0 else seat)
        _emit(state, events, "baron_played", {**data, "loser": loser})
        _emit(state, events, "baron_compared", {**data, "seat_card": mine, "target_card": theirs}, [seat, target])
        if loser is not None:
            _eliminate(state, loser, events, "baron")
    elif card == "handmaid":
        _put(state, "protected", seat, True)
        _emit(state, events, "handmaid_played", data)
    elif card == "prince":
        _prince(state, seat, target, events)
    elif card == "king":
        hands = list(hands)
        hands[seat], hands[target] = hands[target], hands[seat]
        state["hands"] = hands
        _emit(state, events, "king_played", data)
        _emit(
            state,
            events,
            "king_traded",
            {**data, "seat_received": hands[seat][0], "target_received": hands[target][0]},
            [seat, target],
        )
    elif card == "chancellor":
        k = min(2, len(state["deck"]))
        _emit(state, events, "chancellor_played", {**data, "drew": k})
        if k:
            drawn = state["deck"][:k]
            state["deck"] = state["deck"][k:]
            _add(state, "hands", seat, drawn)
            _emit(state, events, "chancellor_drew", {**data, "cards": drawn}, [seat])
            state["phase"] = CHANCELLOR
    elif card == "princess":
        _emit(state, events, "princess_played", data)
        _eliminate(state, seat, events, "princess_played")
    else:  # countess, spy: no effect when played
        _emit(state, events, f"{card}_played", data)


def _prince(state: State, seat: int, target: int, events: list[Event]) -> None:
    """Make ``target`` discard its hand without effect and draw (deck, else the set-aside card)."""
    discarded = state["hands"][target][-1]
    _put(state, "hands", target, state["hands"][target][:-1])
    _add(state, "discards", target, [{"card": discarded, "how": "discarded"}])
    data: dict[str, Any] = {"seat": seat, "card": "prince", "target": target, "discarded": discarded}
    if discarded == "princess":
        # Ruling 5: discarding the Princess knocks the target out; no replacement is drawn.
        _emit(state, events, "prince_played", {**data, "replacement": None})
        _eliminate(state, target, events, "princess_discarded")
        return
    if state["deck"]:
        new, source = _draw(state), "deck"
    else:
        # Ruling 6 / 31: only the last turn can empty the deck, and the set-aside card is used once.
        assert state["set_aside"] is not None, "the set-aside card was already taken"
        new, source = state["set_aside"], "set_aside"
        state["set_aside"] = None
    _add(state, "hands", target, [new])
    _emit(state, events, "prince_played", {**data, "replacement": source})
    _emit(state, events, "prince_drew", {"seat": target, "card": new, "source": source}, [target])


def _resolve_chancellor(state: State, seat: int, keep: str, bottom: list[str], events: list[Event]) -> None:
    """Keep one card and put the others on the bottom of the deck, ``bottom[-1]`` lowest."""
    _put(state, "hands", seat, [keep])
    state["deck"] = [*state["deck"], *bottom]
    state["phase"] = PLAY
    _emit(state, events, "chancellor_returned", {"seat": seat, "count": len(bottom)})
    _emit(state, events, "chancellor_kept", {"seat": seat, "keep": keep, "bottom": list(bottom)}, [seat])


# -- end of round and game (§6) --------------------------------------------------


def showdown_winners(state: State) -> tuple[list[int], list[int]]:
    """Return (winners, tied) of a showdown; ``tied`` are the players still level at the end."""
    edition = state["edition"]
    alive = _alive(state)
    best = max(value(edition, state["hands"][seat][0]) for seat in alive)
    tied = [seat for seat in alive if value(edition, state["hands"][seat][0]) == best]
    if edition == CLASSIC and len(tied) > 1:
        totals = {seat: discard_total(state, seat) for seat in tied}
        top = max(totals.values())
        tied = [seat for seat in tied if totals[seat] == top]
        if len(tied) > 1 and state["options"]["classic_final_tie"] == "nobody":
            return [], tied
    return tied, tied


def discard_total(state: State, seat: int) -> int:
    """Return the total value of ``seat``'s discard pile this round (the classic tie-break)."""
    return sum(value(state["edition"], entry["card"]) for entry in state["discards"][seat])


def spy_bonus(state: State) -> int | None:
    """Return the seat earning the 2019 Spy bonus: the only in-round player with a Spy discarded."""
    if state["edition"] == CLASSIC:
        return None
    spies = [seat for seat in _alive(state) if any(entry["card"] == "spy" for entry in state["discards"][seat])]
    return spies[0] if len(spies) == 1 else None


def _end_round(state: State, events: list[Event], reason: str) -> None:
    """Score the round, then end the game or deal the next round."""
    alive = _alive(state)
    showdown = None
    if reason == "last_standing":
        winners = tied = alive
    else:
        winners, tied = showdown_winners(state)
        showdown = {
            "hands": [{"seat": seat, "card": state["hands"][seat][0]} for seat in alive],
            "discard_totals": [{"seat": seat, "total": discard_total(state, seat)} for seat in alive],
            "winners": winners,
        }
        _emit(state, events, "showdown", showdown)
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
    _emit(state, events, "round_ended", ended)
    top = max(state["tokens"])
    leaders = [seat for seat, tokens in enumerate(state["tokens"]) if tokens == top]
    if top >= state["target"] and len(leaders) == 1:
        state.update(phase=OVER, current=None, winners=leaders)
        _emit(state, events, "game_ended", {"winners": leaders, "tokens": list(state["tokens"])})
        return
    if top >= state["target"]:
        # ADOPTED §6.4 / ruling 28: a tie for the lead at the target means another round.
        _emit(state, events, "target_tied", {"seats": leaders, "tokens": top})
    # A "nobody" tie has no winner; the tied players draw lots to start (README decision).
    candidates = winners or tied
    if len(candidates) == 1:
        _start_round(state, candidates[0], events, candidates=None)
    else:
        starter = seeded_rng(state["seed"], "starter", state["round"]).choice(sorted(candidates))
        _start_round(state, starter, events, candidates=sorted(candidates))


# -- apply ---------------------------------------------------------------------


def apply_move(state: State, seat: int, move: Any) -> tuple[State, list[Event]]:
    """Return the state after ``seat`` makes ``move`` and the events; never mutate ``state``."""
    if state["phase"] == OVER:
        raise IllegalMove("The game is over")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(state["players"]):
        raise IllegalMove(f"There is no seat {seat!r}")
    if seat != state["current"]:
        raise IllegalMove(f"It is not your turn: it is {_name(state, state['current'])}'s turn")
    if not isinstance(move, dict):
        raise IllegalMove('A move must be a JSON object such as {"card": "handmaid"}')
    events: list[Event] = []
    new = dict(state)  # a shallow copy: every list it changes is replaced, never changed in place
    if "keep" in move or "bottom" in move:
        keep, bottom = _check_chancellor(state, seat, move)
        _resolve_chancellor(new, seat, keep, bottom, events)
    else:
        card, target, guess = _check_play(state, seat, move)
        _play(new, seat, card, target, guess, events)
    if new["phase"] == PLAY:
        _end_turn(new, events)
    return new, events


def game_result(state: State) -> dict[str, Any] | None:
    """Return the outcome once the game is over, else None."""
    if state["phase"] != OVER:
        return None
    tokens = state["tokens"]
    ranking = sorted(range(len(tokens)), key=lambda seat: (-tokens[seat], seat))
    winner = state["winners"][0]
    score = "–".join(str(tokens[seat]) for seat in ranking)
    return {
        "winners": list(state["winners"]),
        "scores": list(tokens),
        "ranking": ranking,
        "summary": f"{_name(state, winner)} wins {score}",
        "rounds": [{**record, "winners": list(record["winners"])} for record in state["rounds"]],
        "target": state["target"],
    }


class LoveLetterEngine(Engine):
    """Love Letter (classic 2012 by default; the 2019 edition as an option).

    Every method that takes a state reads it through ``upcast``, so a game
    stored by an older engine version goes on (see ``upcast.py``).
    """

    slug = "love-letter"
    name = "Love Letter"
    version = VERSION
    # Version 2 changed only the stored state's shape (``upcast.py``): it plays version 1's games to the same
    # events and result, so both are played by this code.
    supported_versions = (1, VERSION)
    min_players = 2
    max_players = 6
    option_specs = OPTION_SPECS
    default_players = 2
    summary = "Get your letter to the princess: deduce, protect and outlast your rivals, one card at a time."

    # The rules live in this package's module functions; the contract's docstrings are in games/base.py.
    validate_options = staticmethod(validate_options)
    setup = staticmethod(new_game)
    upcast = staticmethod(upcast)

    def to_move(self, state: State) -> list[int]:
        """Return the seat that must play or resolve the Chancellor; empty once over."""
        state = upcast(state)
        return [] if state["phase"] == OVER else [state["current"]]

    def legal_moves(self, state: State, seat: int) -> list[dict[str, Any]]:
        return legal_moves(upcast(state), seat)

    def apply(self, state: State, seat: int, move: Any) -> tuple[State, list[Event]]:
        return apply_move(upcast(state), seat, move)

    def result(self, state: State) -> dict[str, Any] | None:
        return game_result(upcast(state))

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return player_view.view(upcast(state), seat)

    def view_after_end(self, state: State) -> dict[str, Any]:
        """Return every hand, the set-aside card and the deck order too (the rules file, §7.6)."""
        return player_view.view_after_end(upcast(state))

    def score_breakdown(self, state: State) -> list[dict[str, Any]]:
        """Return the tokens of each round won and each Spy bonus (``breakdown.py``)."""
        return breakdown.score_breakdown(upcast(state))

    def resign(self, state: State, seat: int) -> tuple[State, list[Event]]:
        return resign(upcast(state), seat)

    def describe_move(self, state: State, move: dict[str, Any]) -> str:
        return notation.describe_move(upcast(state), move)

    def parse_move(self, text: str, state: State, seat: int) -> dict[str, Any]:
        return notation.parse_move(text, upcast(state), seat)

    view_text = staticmethod(player_view.view_text)
    describe_event = staticmethod(player_view.describe_event)
    notation_help = staticmethod(notation.notation_help)

    def bots(self) -> dict[str, Any]:
        """Return the bots this game offers: ``random`` and ``basic`` (see ``games/love_letter/bots.py``)."""
        from games.bots import RandomBot
        from games.love_letter.bots import BasicBot

        return {"random": RandomBot(), "basic": BasicBot()}
