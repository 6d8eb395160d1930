"""Love Letter rules: the classic 2012 16-card game (default) and the 2019 21-card edition.

Follows docs/rules/love-letter.md (the rules file): the options are checked in
``options.py``, the moves (§5) in ``legality.py``; setup, the deal and the turn
state machine of §3.3 with the end of each round are in ``rounds.py``, the
card effects of §4 in ``effects.py`` and who wins (§6) in ``scoring.py``; every
ADOPTED ruling of §9 is followed. Rule algorithms are module functions working
on a copy of the state; this module applies a move or a resignation, and
``LoveLetterEngine`` is the thin contract adapter around them. Every reason a
move or a resignation is refused is worded in the reader's language.

``apply`` copies only what a move changes: the new state is a new dict whose
changed lists are new lists (``changes.py``), and the lists it shares with the
input are never changed in place. The state keeps no event log: only the
current round's private events (``private``, what each seat's private log
shows) and what each seat knows of the others' hands (``known``, for its card
tracker). The platform's move table holds every event.
"""

from __future__ import annotations

from typing import Any

from games.base import Engine, Event, IllegalMove, State
from games.i18n import catalog_of
from games.love_letter import board, breakdown, history, notation, player_view, worlds
from games.love_letter.changes import emit
from games.love_letter.effects import eliminate, play, resolve_chancellor
from games.love_letter.legality import OVER, PLAY, alive, check_chancellor, check_play, legal_moves
from games.love_letter.options import OPTION_SPECS, validate_options
from games.love_letter.rounds import end_round, end_turn, has_left, new_game
from games.love_letter.scoring import game_result
from games.love_letter.upcast import VERSION, upcast

_ = catalog_of(__name__)
N_ = _.noop


def _name(state: State, seat: int) -> str:
    return state["players"][seat]


def resign(state: State, seat: int) -> tuple[State, list[Event]]:
    """Return the state after ``seat`` leaves the game for good (ruling 33), and the events.

    The seat is knocked out of the current round at once and of every later
    round at its start; when one player is left in the game, they win it.
    """
    if state["phase"] == OVER:
        raise IllegalMove(_("The game is over"))
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(state["players"]):
        raise IllegalMove(_("There is no seat {seat}").format(seat=repr(seat)))
    if has_left(state, seat):
        raise IllegalMove(_("You have already left this game"))
    new = dict(state)
    new["left"] = list(state.get("left") or [False] * len(state["players"]))
    new["left"][seat] = True
    events: list[Event] = []
    emit(new, events, "player_left", {"seat": seat})
    staying = [other for other in range(len(new["players"])) if not new["left"][other]]
    if len(staying) == 1:
        new.update(phase=OVER, current=None, winners=staying)
        emit(new, events, "game_ended", {"winners": staying, "tokens": list(new["tokens"]), "reason": "resigned"})
        return new, events
    if new["in_round"][seat]:
        eliminate(new, seat, events, "left")
        if new["current"] == seat:
            end_turn(new, events)
        elif len(alive(new)) == 1:
            end_round(new, events, "last_standing")
    return new, events


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
        resolve_chancellor(new, seat, keep, bottom, events)
    else:
        card, target, guess = check_play(state, seat, move)
        play(new, seat, card, target, guess, events)
    if new["phase"] == PLAY:
        end_turn(new, events)
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
    # No shared result: players tied on the most tokens at the target play another round (rules §6.4), so no
    # draw may be agreed (rules §7.8).
    shares_results = False
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

    def public_scores(self, state: State) -> list[float]:
        """Return the tokens of affection each seat has won: on the table for all to see."""
        return [seat["tokens"] for seat in self.view(state, None)["seats"]]

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

    def take_back_refusal(self, before: State, seat: int, move: Any, after: State, events: list[Event]) -> str:
        """Refuse every move (docs/rules/love-letter.md, §7.7): each one ends with the next player drawing a card,
        looks at or compares hands, or deals the next round; the Chancellor's first half draws two."""
        return _("In Love Letter every card played is followed by a card drawn, so no move can be taken back.")
    notation_help = staticmethod(notation.notation_help)

    def mark_spots(self, view: dict[str, Any]) -> list[tuple[str, str]]:
        """Each other player's hand while they are in the round (``marks.py``)."""
        from games.love_letter.marks import mark_spots

        return mark_spots(view)

    def board_data(self, view: dict[str, Any], moves: list[dict[str, Any]]) -> dict[str, Any]:
        """Return every word the board shows, in the reader's language (``board.py``)."""
        return board.board_data(view, moves)

    # The round's visible events: what the seat still knows of the other hands (``worlds.py``, HISTORY_MOVES).
    world_history_moves = worlds.HISTORY_MOVES

    def sample_world(self, view: dict[str, Any], history: list[dict[str, Any]], seat: int, rng: Any) -> State:
        """Draw the hidden cards among those the seat has not seen, keeping what it saw of other hands
        (``worlds.py``)."""
        return worlds.sample_world(view, history, seat, rng)

    def bots(self) -> dict[str, Any]:
        """Return the bots this game offers: ``random``, ``basic`` (see ``games/love_letter/bots.py``) and ``strong``,
        a search (``games/search.py``, with ``strong.py``'s settings for each edition)."""
        from games.bots import RandomBot
        from games.love_letter.bots import BasicBot
        from games.love_letter.strong import SETTINGS, SETTINGS_2019, StrongBot

        return {"random": RandomBot(), "basic": BasicBot(), "strong": StrongBot(self, SETTINGS, SETTINGS_2019)}
