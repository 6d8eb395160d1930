"""Love Letter rules: the classic 2012 16-card game (default) and the 2019 21-card edition.

Follows docs/rules/love-letter.md (the rules file): the turn state machine
of §3.3, the card effects of §4, scoring of §6 and every ADOPTED ruling of §9;
the options are checked in ``options.py`` and the moves (§5) in ``legality.py``.
Rule algorithms are module functions working on a copy of the state;
``LoveLetterEngine`` is the thin contract adapter around them. Every reason a
move or a resignation is refused is worded in the reader's language.

``apply`` copies only what a move changes: the new state is a new dict whose
changed lists are new lists (``_put``, ``_draw``, ``_add``), and the lists it
shares with the input are never changed in place. The state keeps no event
log: only the current round's private events (``private``, what each seat's
private log shows) and what each seat knows of the others' hands (``known``,
for its card tracker). The platform's move table holds every event.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from games.base import Engine, Event, IllegalMove, InvalidOptions, State, seeded_rng
from games.i18n import catalog_of
from games.love_letter import board, breakdown, cards, history, notation, player_view, tracker
from games.love_letter.cards import TARGETS, value
from games.love_letter.legality import CHANCELLOR, OVER, PLAY, alive, check_chancellor, check_play, legal_moves
from games.love_letter.options import OPTION_SPECS, validate_options
from games.love_letter.scoring import discard_total, game_result, showdown_winners, spy_bonus
from games.love_letter.upcast import VERSION, upcast

_ = catalog_of(__name__)
N_ = _.noop


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
    playing = alive(state)
    if len(playing) == 1:
        _end_round(state, events, "last_standing")
    elif not state["deck"]:
        _end_round(state, events, "showdown")
    else:
        _start_turn(state, _next_seat(state, state["current"]), events)


def _name(state: State, seat: int) -> str:
    return state["players"][seat]


def _has_left(state: State, seat: int) -> bool:
    return bool(state.get("left", [False] * len(state["players"]))[seat])


def resign(state: State, seat: int) -> tuple[State, list[Event]]:
    """Return the state after ``seat`` leaves the game for good (ruling 33), and the events.

    The seat is knocked out of the current round at once and of every later
    round at its start; when one player is left in the game, they win it.
    """
    if state["phase"] == OVER:
        raise IllegalMove(_("The game is over"))
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(state["players"]):
        raise IllegalMove(_("There is no seat {seat}").format(seat=repr(seat)))
    if _has_left(state, seat):
        raise IllegalMove(_("You have already left this game"))
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
        elif len(alive(new)) == 1:
            _end_round(new, events, "last_standing")
    return new, events


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


# -- end of round and game (§6: who wins is worked out in scoring.py) -----------


def _end_round(state: State, events: list[Event], reason: str) -> None:
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
        raise IllegalMove(_("The game is over"))
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(state["players"]):
        raise IllegalMove(_("There is no seat {seat}").format(seat=repr(seat)))
    if seat != state["current"]:
        raise IllegalMove(_("It is not your turn: it is {player}'s turn").format(player=_name(state, state["current"])))
    if not isinstance(move, dict):
        raise IllegalMove(_("A move must be a JSON object such as {example}").format(example='{"card": "handmaid"}'))
    events: list[Event] = []
    new = dict(state)  # a shallow copy: every list it changes is replaced, never changed in place
    if "keep" in move or "bottom" in move:
        keep, bottom = check_chancellor(state, seat, move)
        _resolve_chancellor(new, seat, keep, bottom, events)
    else:
        card, target, guess = check_play(state, seat, move)
        _play(new, seat, card, target, guess, events)
    if new["phase"] == PLAY:
        _end_turn(new, events)
    return new, events


class LoveLetterEngine(Engine):
    """Love Letter (classic 2012 by default; the 2019 edition as an option).

    Every method that takes a state reads it through ``upcast``, so a game
    stored by an older engine version goes on (see ``upcast.py``).
    """

    slug = "love-letter"
    name = N_("Love Letter")
    version = VERSION
    # Version 2 changed only the stored state's shape (``upcast.py``): it plays version 1's games to the same
    # events and result, so both are played by this code.
    supported_versions = (1, VERSION)
    min_players = 2
    max_players = 6
    option_specs = OPTION_SPECS
    default_players = 2
    summary = N_("Get your letter to the princess: deduce, protect and outlast your rivals, one card at a time.")

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
    describe_event = staticmethod(history.describe_event)
    describe_result = staticmethod(history.describe_result)
    notation_help = staticmethod(notation.notation_help)

    def board_data(self, view: dict[str, Any], moves: list[dict[str, Any]]) -> dict[str, Any]:
        """Return every word the board shows, in the reader's language (``board.py``)."""
        return board.board_data(view, moves)

    def bots(self) -> dict[str, Any]:
        """Return the bots this game offers: ``random`` and ``basic`` (see ``games/love_letter/bots.py``)."""
        from games.bots import RandomBot
        from games.love_letter.bots import BasicBot

        return {"random": RandomBot(), "basic": BasicBot()}
