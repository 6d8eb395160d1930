"""Takebacks: a move taken back, by consent, as an entry of the log that returns to the position before it.

The log stays append-only. A takeback is logged like a move, by the seat whose move it takes back:
``{"take_back": <seq>}``, where ``<seq>`` is the entry just before it, with one public event,
``move_taken_back``; the position after it is the position before the move it names, rebuilt from the log
(``LogReplay``). Nothing here imports Django: the platform, its ``verify_games`` and the offline verifier
(``games.record``) replay a log through the same rules.

A move may be taken back only when doing so can tell nobody anything and undo nothing anyone else did
(docs/players.md, "Taking a move back"):

- it is the last entry of the log, and its seat's (never across another seat's move, never a takeback of a
  takeback, never a resignation);
- it did not end the game;
- every event it made is public: a private event means someone was shown something (a card drawn, a look);
- its engine allows it (``Engine.take_back_refusal``): a move that drew, turned up or passed on anything hidden
  (a card drawn for the next player, a tile turned over, a new row dealt) is refused there, even when the
  event that shows it is public.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.base import PUBLIC, RESIGN, Engine, Event, IllegalMove, State
from games.i18n import catalog_of

_ = catalog_of(__name__)

TAKE_BACK = "take_back"  # the key of a takeback entry's move: {"take_back": <seq of the move taken back>}
MOVE_TAKEN_BACK = "move_taken_back"  # the kind of its one event, public


def take_back_move(seq: int) -> dict[str, Any]:
    """Return the log's entry for taking back the move logged at ``seq``."""
    return {TAKE_BACK: seq}


def taken_back_seq(move: Any) -> int | None:
    """Return the seq a takeback entry names, or None when ``move`` is no takeback (any other move)."""
    if isinstance(move, dict) and TAKE_BACK in move:
        seq = move[TAKE_BACK]
        if len(move) == 1 and isinstance(seq, int) and not isinstance(seq, bool):
            return seq
        return -1  # a malformed takeback: never a move of a game either, refused by the replay
    return None


def taken_back_event(seat: int, seq: int) -> Event:
    return Event(MOVE_TAKEN_BACK, {"seat": seat, "seq": seq}, PUBLIC)


@dataclass(frozen=True)
class LastMove:
    """The latest entry of a replay, kept so that it can be taken back: the position before it, and what it did."""

    seq: int
    seat: int
    move: dict[str, Any]
    before: State
    after: State
    events: list[Event]


def refusal(engine: Engine, last: LastMove | None, seat: int) -> str | None:
    """Return why ``seat`` may not take back the latest entry ``last`` (None: the log's start, or a takeback just
    made), in the reader's language; None when it may."""
    if last is None:
        return _("There is no move to take back: the game has just started, or a move was just taken back.")
    if last.seat != seat:
        return _("Only your own last move can be taken back, and only before anyone else moves.")
    if last.move == RESIGN:
        return _("A resignation cannot be taken back.")
    if engine.result(last.after) is not None:
        return _("That move ended the game: it cannot be taken back.")
    reason = engine.take_back_refusal(last.before, seat, last.move, last.after, last.events)
    if reason is None and any(event.visible_to is not PUBLIC for event in last.events):
        # The engine's word comes first (it says why in the game's terms); this holds whatever an engine says.
        return _("That move showed someone something the others may not see: it cannot be taken back.")
    return reason


class LogReplay:
    """A game's log played from a position, its takebacks included: ``play`` each entry in order.

    ``state`` is the position after the entries played; ``seq`` their count (the entries start at ``seq + 1``);
    ``last`` the entry that could be taken back now, if any. A replay started from a position in the middle of a
    log (a cache's) knows no entry before it: a takeback as its first entry is refused, and the caller replays
    from the start instead (``needs_earlier``).
    """

    def __init__(self, engine: Engine, state: State, seq: int = 0):
        self.engine, self.state, self.seq = engine, state, seq
        self.last: LastMove | None = None

    @staticmethod
    def needs_earlier(move: Any) -> bool:
        """Tell whether a replay starting at this entry must start earlier: a takeback needs the move before it."""
        return taken_back_seq(move) is not None

    def play(self, seat: int, move: dict[str, Any]) -> tuple[State, list[Event]]:
        """Play the log's next entry (a move, a resignation or a takeback); raise ``IllegalMove``."""
        seq = taken_back_seq(move)
        if seq is None:
            before = self.state
            after, events = self.engine.play(before, seat, move)
            self.seq += 1
            self.last = LastMove(self.seq, seat, move, before, after, events)
            self.state = after
            return after, events
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise IllegalMove(_("There is no seat {seat}.").format(seat=repr(seat)))
        if self.last is None:
            raise IllegalMove(refusal(self.engine, None, seat))
        if seq != self.seq:
            raise IllegalMove(_("A takeback names the move just before it, move {expected}, not {sent}.").format(
                expected=self.seq, sent=repr(move.get(TAKE_BACK))))
        reason = refusal(self.engine, self.last, seat)
        if reason is not None:
            raise IllegalMove(reason)
        self.seq += 1
        self.state, self.last = self.last.before, None
        return self.state, [taken_back_event(seat, seq)]

    def refusal(self, seat: int) -> str | None:
        """Return why ``seat`` may not take back the latest entry now; None when it may."""
        return refusal(self.engine, self.last, seat)


def describe(engine: Engine, event: Event, players: list[str], viewer: int | None) -> str:
    """Return a history line for any logged event: a takeback's in the platform's words, else the game's own."""
    if event.kind == MOVE_TAKEN_BACK:
        seat = event.data.get("seat")
        name = players[seat] if isinstance(seat, int) and 0 <= seat < len(players) else "?"
        return _("{name} took back move {seq}, with everyone's consent.").format(name=name, seq=event.data.get("seq"))
    return engine.describe_event(event, players, viewer)
