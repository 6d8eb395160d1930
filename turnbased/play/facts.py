"""What happened at a table, told to the features that react to it: the core records, features react.

The core (``play``, ``clocks``) tells each fact here (``tell``) in the transaction of the change that made it: a
player was invited, joined, a game started, a turn began, a move was played, a seat was handed to a bot or taken by
a person, a deadline is near, a game finished. A feature that reacts registers its handler once, when its app is ready (``reacting_to`` in its
``reactions.py``, imported by its ``AppConfig.ready``). Handlers run at once, in the teller's transaction, in the
order the apps are installed, so what they write commits or rolls back with the change: a finished game's rating
commits with its end, a turn's notification with its move. A handler never calls the core's services back, and
the core names no feature (docs/design.md, "How a feature reacts": rating a finished game, worked through).

Who may see a private table, who may take a seat at one and whom one may invite, the core asks the same way: a
feature adds who else may see it (``sees_private_table``), why a seat is not free (``seat_kept``), why an
invitation may not be sent (``invitation_kept``), which open tables a person's lists leave out
(``open_tables_hidden``) and why a person may make no table now (``creation_kept``). A feature may close a private
table's invite link to a person (``link_closed``: a group's table is for its members), and may add terms a table is
made with (``table_term``: the group it is kept for), recorded in the creation's transaction.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from turnbased.play.models import Game


@dataclass(frozen=True)
class PlayerInvited:
    """A player was invited to an open table by name."""

    game: Game
    user_id: int


@dataclass(frozen=True)
class PlayerJoined:
    """A player took a seat at an open table (the others are told)."""

    game: Game
    user_id: int


@dataclass(frozen=True)
class GameStarted:
    """Every seat is taken (or the creator started early): the first position is set."""

    game: Game


@dataclass(frozen=True)
class TurnBegan:
    """A new position is for these people to decide (the seats to move, but for the ones a forced move is about to
    be played for and bots): each is told it is their turn."""

    game: Game
    seq: int
    user_ids: tuple[int, ...]


@dataclass(frozen=True)
class MovePlayed:
    """A new position was logged (a move, a bot's or a forced one, a resignation, a takeback) and the game goes on;
    a move that ends it is told as ``GameFinished`` alone. Told to whoever follows the game from outside its seats,
    so a reaction must cost the move no statement of its own (``one_statement``)."""

    game: Game
    seq: int


@dataclass(frozen=True)
class SeatHandedOn:
    """A seat was handed to a bot for the rest of the game (its player ran out of time too often, or was removed)."""

    game: Game
    seat: int
    user_id: int | None = None  # the person who played it


@dataclass(frozen=True)
class SeatTaken:
    """A seat of a game in play changed hands (``SeatChange``): a person took it from the bot that played it, or its
    player handed it to them."""

    game: Game
    seat: int
    user_id: int  # the person who holds it now
    left_user_id: int | None  # the person who held it before, if any


@dataclass(frozen=True)
class DeadlineNear:
    """A player's deadline at a game comes within their reminder's lead time (told once per deadline)."""

    game: Game
    seq: int
    user_id: int


@dataclass(frozen=True)
class GameFinished:
    """A game was played out, resigned or lost on time: its result is set, its status finished."""

    game: Game


@dataclass(frozen=True)
class GameReleased:
    """A finished game a feature held (``Game.held``) was let go (``services.game_release``): what its end would have
    told anyone but its seats (a rating) is told now."""

    game: Game


Fact = (PlayerInvited | PlayerJoined | GameStarted | TurnBegan | MovePlayed | SeatHandedOn | SeatTaken
        | DeadlineNear | GameFinished | GameReleased)
F = TypeVar("F", bound=Callable)

_handlers: dict[type, list[Callable]] = defaultdict(list)


def reacting_to(*kinds: type) -> Callable[[F], F]:
    """Register the decorated function as a handler of the facts of ``kinds`` (once: a handler registered again,
    as a module imported twice would, is kept once)."""
    def register(handler: F) -> F:
        for kind in kinds:
            known = {(registered.__module__, registered.__qualname__) for registered in _handlers[kind]}
            if (handler.__module__, handler.__qualname__) not in known:
                _handlers[kind].append(handler)
        return handler

    return register


def tell(fact: Fact) -> None:
    """Tell every handler of the fact's kind, in the order they registered; call inside the change's transaction."""
    for handler in _handlers[type(fact)]:
        handler(fact)


def handlers_of(kind: type) -> list[Callable]:
    """Return the handlers registered for ``kind`` (for the tests and the design's walk through)."""
    return list(_handlers[kind])


# -- what features add to the core's decisions -------------------------------------------------------------

_private_viewers: list[Callable[[Game, object], bool]] = []
_seat_keepers: list[Callable[[Game, object], str | None]] = []
_invitation_keepers: list[Callable[[Game, object, object], str | None]] = []
_open_table_hiders: list[Callable[[object], object]] = []
_link_closers: list[Callable[[Game, object], bool]] = []
_creation_keepers: list[Callable[..., str | None]] = []
_table_terms: dict[str, Callable[[Game, object, object], None]] = {}


def sees_private_table(check: Callable[[Game, object], bool]) -> Callable[[Game, object], bool]:
    """Register ``check(game, user)``: whether the user may see the private ``game`` though not seated, the creator,
    invited or holding its link (a rematch waiting for its players is theirs to see)."""
    if check not in _private_viewers:
        _private_viewers.append(check)
    return check


def may_see_private(game: Game, user) -> bool:
    """Tell whether a feature lets the user see the private table."""
    return any(check(game, user) for check in _private_viewers)


def seat_kept(check: Callable[[Game, object], str | None]) -> Callable[[Game, object], str | None]:
    """Register ``check(game, user)``: why the user may not take a free seat at the open ``game`` (a rematch keeps
    its seats for the last game's players), or None."""
    if check not in _seat_keepers:
        _seat_keepers.append(check)
    return check


def why_seat_kept(game: Game, user) -> str | None:
    """Return why a feature keeps the open table's seats from the user, or None."""
    for check in _seat_keepers:
        reason = check(game, user)
        if reason:
            return reason
    return None


def invitation_kept(check: Callable[[Game, object, object], str | None]) -> Callable[[Game, object, object], str | None]:
    """Register ``check(game, inviter, invitee)``: why the inviter may not invite the invitee to the open ``game``
    (the invitee does not take invitations from them), or None."""
    if check not in _invitation_keepers:
        _invitation_keepers.append(check)
    return check


def why_invitation_kept(game: Game, inviter, invitee) -> str | None:
    """Return why a feature keeps the invitation from being sent, or None."""
    for check in _invitation_keepers:
        reason = check(game, inviter, invitee)
        if reason:
            return reason
    return None


def open_tables_hidden(hide: Callable[[object], object]) -> Callable[[object], object]:
    """Register ``hide(user)``: a condition (a ``Q`` on games) naming the open tables the signed-in user's lists of
    open tables leave out (the ones whose seats a feature keeps from them anyway), or None."""
    if hide not in _open_table_hiders:
        _open_table_hiders.append(hide)
    return hide


def hidden_open_tables(user) -> list:
    """Return the conditions of the open tables a feature leaves out of the user's lists."""
    return [condition for condition in (hide(user) for hide in _open_table_hiders) if condition is not None]


def link_closed(check: Callable[[Game, object], bool]) -> Callable[[Game, object], bool]:
    """Register ``check(game, user)``: whether the private ``game``'s invite link shows it to the user, and seats
    them, no longer (a group's table is for its members: the link shared outside the group opens nothing)."""
    if check not in _link_closers:
        _link_closers.append(check)
    return check


def closes_link(game: Game, user) -> bool:
    """Tell whether a feature closes the private table's invite link to the user."""
    return any(check(game, user) for check in _link_closers)


def creation_kept(check: Callable[..., str | None]) -> Callable[..., str | None]:
    """Register ``check(creator, plays=...)``: why the person may not make a table that waits for players now
    (``plays``: they take a seat at it), or None. Runs in the creation's transaction, before the table exists."""
    if check not in _creation_keepers:
        _creation_keepers.append(check)
    return check


def why_creation_kept(creator, *, plays: bool) -> str | None:
    """Return why a feature keeps the person from making a table that waits for players, or None."""
    for check in _creation_keepers:
        reason = check(creator, plays=plays)
        if reason:
            return reason
    return None


def table_term(name: str) -> Callable[[F], F]:
    """Register the decorated ``record(game, creator, value)`` as the meaning of the term ``name`` a table may be
    made with (``play.services.create_game(terms=...)``). It runs in the creation's transaction, once the table's
    row exists, and refuses a value it does not take by raising one of the services' errors (nothing is made).
    The core keeps every term on the table's row as given (``Game.terms``): a feature whose term says all it needs
    reads it back from there, with no row (and no query) of its own."""
    def register(record: F) -> F:
        _table_terms[name] = record
        return record

    return register


def table_terms() -> list[str]:
    """Return the names of the terms a table may be made with."""
    return sorted(_table_terms)


def record_terms(game: Game, creator, terms: dict) -> None:
    """Record each of ``terms`` through the feature that gives it its meaning (names checked by the caller)."""
    for name, value in terms.items():
        _table_terms[name](game, creator, value)
