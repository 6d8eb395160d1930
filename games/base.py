"""The engine contract every game implements.

A game is a pure, deterministic function of (players, options, seed, moves).
Nothing under ``games/`` imports Django, reads the clock or uses global
randomness: the platform stores the seed and the move log, and replaying them
through an engine must reproduce the same state.

States, moves, views and events are plain JSON values (dicts, lists, str,
int, bool, None), so the platform can store them and send them as they are.

Data that no state decides (tile drawings, card faces) is not repeated in
every view: ``assets`` hands it to the platform once, which serves each asset
at a content-hashed URL that browsers cache for good, and a view names the
asset it needs.
"""

from __future__ import annotations

import copy
import random
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, ClassVar

# Re-exported: the platform names a decided game's ways and words its result from the contract's module.
from games.decisions import ADJUDICATED, AGREED_DRAW, ALL_LOSE, DECIDED, decided, worded_result  # noqa: F401
from games.decisions import list_of as _list_of
from games.i18n import Catalog, catalog_of, current_language, locale_name
from games.random_bot import RandomBot
from games.view_text import text_lines

_ = catalog_of(__name__)

JSON = Any
State = dict[str, Any]
Move = dict[str, Any]

PUBLIC = None  # Event.visible_to value meaning "every player and spectator"
RESIGN: dict[str, Any] = {"resign": True}  # the one move every game understands, at any time


class EngineError(Exception):
    """Base class for errors an engine reports to a player; ``reason`` is human text, in the reader's language.

    Engines word the reason when they raise (``games.i18n``): the platform calls them in the language of
    whoever sent the move, so the answer reads in theirs.
    """

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class IllegalMove(EngineError):
    """The move is well formed but the rules forbid it now (or it is not this seat's turn)."""


class BadNotation(EngineError):
    """The text could not be read as a move of this game."""


class InvalidOptions(EngineError):
    """The table options or player count are not playable."""


class UnknownEngineVersion(LookupError):
    """No installed engine plays this game at this version (or no engine has this slug at all).

    A game pins the engine version it started with; this is raised rather than
    playing it by other rules. ``reason`` is human text.
    """

    def __init__(self, slug: str, version: Any, known: tuple[int, ...] = ()):
        shown = version if isinstance(version, int) and not isinstance(version, bool) else repr(version)
        if known:
            reason = _.ngettext(
                "The game {slug!r} was played with engine version {shown}, which this installation does not have "
                "(it plays version {known}).",
                "The game {slug!r} was played with engine version {shown}, which this installation does not have "
                "(it plays versions {known}).",
                len(known),
            ).format(slug=slug, shown=shown, known=", ".join(map(str, known)))
        else:
            reason = _("No engine called {slug!r} is installed, so no version of it can be played.").format(slug=slug)
        super().__init__(reason)
        self.reason, self.slug, self.version, self.known = reason, slug, version, known

    def __str__(self) -> str:
        return self.reason


@dataclass(frozen=True)
class Event:
    """A fact that happened, and who may see it.

    ``visible_to`` is ``PUBLIC`` (None) or a list of seats. When a fact has a
    public part and a private part (a Priest look: everyone sees that it
    happened, only the actor sees the card), the engine emits two events.
    """

    kind: str
    data: dict[str, Any] = field(default_factory=dict)
    visible_to: list[int] | None = PUBLIC

    def visible_for(self, seat: int | None) -> bool:
        """Tell whether the viewer at ``seat`` (None: spectator) may see this event."""
        return self.visible_to is None or (seat is not None and seat in self.visible_to)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "data": self.data, "visible_to": self.visible_to}

    @classmethod
    def from_json(cls, value: dict[str, Any]) -> "Event":
        return cls(kind=value["kind"], data=value.get("data", {}), visible_to=value.get("visible_to"))


@dataclass(frozen=True)
class OptionSpec:
    """A table option a player may choose when creating a game (shown in forms and the API).

    ``label``, the choices' labels and ``help`` are English texts marked for the game's catalog
    (``N_``); ``Engine.worded_option_specs`` gives them in the reader's language. ``name`` and the
    values are machine fields and never change with it.

    ``advanced`` marks a rule variant most tables leave at its default (a house rule, a reading of
    an unclear rule): the new-table form folds it away under "Advanced". The main choices (an
    edition, say) stay in view.
    """

    name: str
    label: str
    choices: tuple[tuple[Any, str], ...]
    default: Any
    help: str = ""
    advanced: bool = False

    def worded(self, translate) -> "OptionSpec":
        """Return this option with its texts passed through ``translate`` (a catalog)."""
        return OptionSpec(
            name=self.name,
            label=translate(self.label),
            choices=tuple((value, translate(label)) for value, label in self.choices),
            default=self.default,
            help=translate(self.help) if self.help else "",
            advanced=self.advanced,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "label": self.label,
            "choices": [{"value": v, "label": label} for v, label in self.choices],
            "default": self.default,
            "help": self.help,
        }


def seeded_rng(seed: int | str, *salt: Any) -> random.Random:
    """Return a private RNG derived from the game's seed and a salt (for example the round number)."""
    return random.Random(":".join(str(part) for part in (seed, *salt)))


class Engine(ABC):
    """One game's rules. Subclasses set the class attributes and implement every abstract method.

    Seats are the integers ``0 .. len(players) - 1``; ``players`` is the list of
    display names in seat order, used only for notation and text.

    **Versions.** ``version`` is the newest version of the rules, the one a new
    game starts with; the platform pins it on the game (``Game.engine_version``)
    and plays and replays that game with ``games.engine_at(slug, version)``
    for good, so an old game (and its golden record under ``tests/records/``)
    replays to the very events and result it had. An instance plays the version
    in its own ``version`` attribute: ``at_version(v)`` returns the engine
    playing version ``v``. To change what the game does (a rule fix, a new
    meaning of an option, another shuffle, other event data):

    1. bump ``version`` and add it to ``supported_versions`` (keep every older
       one there: a version is never dropped while a game may have used it);
    2. keep the old behaviour selectable: branch on ``self.version`` where the
       rule differs (pass it to the module function that needs it), or, for a
       large change, keep a frozen copy of the old rules and override
       ``at_version`` to return it;
    3. add a golden record of the new version (``python -m games.golden``) and
       keep the old ones: the test suite replays every one of them.

    A change that alters no move, event or result (a faster algorithm, a leaner
    stored state read through ``upcast``) may also bump ``version``; the older
    version then stays in ``supported_versions`` played by the same code. The
    record format and the policy are in docs/record-format.md.
    """

    slug: ClassVar[str]
    # The game's name and one-line summary in English, marked for its catalog: ``display_name`` and
    # ``display_summary`` word them for the reader. A record keeps the English ``name``.
    name: ClassVar[str]
    # The newest version (what new games get); on an instance from ``at_version``, the version it plays.
    version: int = 1
    # Whether any move may ever be taken back (``take_back_refusal``): a page offers it only then, without a replay.
    offers_takebacks: ClassVar[bool] = False
    # Whether the rules know a shared result (a tied win, a draw): then its players may agree a draw (AGREED_DRAW).
    shares_results: ClassVar[bool] = False
    # Every version this engine can still play, oldest first, ending with the class's ``version`` (by default alone).
    supported_versions: ClassVar[tuple[int, ...]] = (1,)
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    option_specs: ClassVar[tuple[OptionSpec, ...]] = ()
    # How many seats a new table gets when the creator does not say.
    default_players: ClassVar[int] = 2
    summary: ClassVar[str] = ""
    # The game's words (``games/i18n.py``): the catalog of the package the engine class is defined in.
    catalog: ClassVar[Catalog]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "version" in cls.__dict__ and "supported_versions" not in cls.__dict__:
            cls.supported_versions = (cls.version,)
        if "catalog" not in cls.__dict__:
            cls.catalog = catalog_of(cls.__module__)

    # -- words --------------------------------------------------------------
    def display_name(self) -> str:
        """Return the game's name as the reader's language knows it (its edition's title there)."""
        return self.catalog(self.name)

    def display_summary(self) -> str:
        """Return the one-line summary of the game in the reader's language."""
        return self.catalog(self.summary) if self.summary else ""

    def worded_option_specs(self) -> tuple[OptionSpec, ...]:
        """Return ``option_specs`` with their labels and help in the reader's language."""
        return tuple(spec.worded(self.catalog) for spec in self.option_specs)

    def describe_result(self, result: dict[str, Any], players: list[str]) -> str:
        """Return the result's one line (who won, and how) in the reader's language.

        ``result`` is what ``result`` returned, as stored (its ``summary`` is the record's English
        line); ``players`` the names in seat order. This default names the winners and the scores;
        games should say what decided the game.
        """
        winners = [players[seat] for seat in result.get("winners", []) if 0 <= seat < len(players)]
        scores = " – ".join(str(score) for score in result.get("scores", []))
        if not winners:
            return _("A draw ({scores})").format(scores=scores)
        return _.ngettext("{names} wins ({scores})", "{names} share the win ({scores})", len(winners)).format(
            names=_list_of(winners), scores=scores)

    # -- versions -----------------------------------------------------------
    def at_version(self, version: int) -> "Engine":
        """Return this engine playing exactly as ``version`` did; raise ``UnknownEngineVersion`` for one it never had.

        The default serves every version in ``supported_versions`` with this
        code, on a copy whose ``version`` is the one asked for (the rules read
        ``self.version`` where an older version behaved otherwise; a memo of
        results by state must then be keyed by the version too). An engine
        keeping a frozen copy of old rules overrides this to return that copy.
        """
        if isinstance(version, bool) or not isinstance(version, int) or version not in self.supported_versions:
            raise UnknownEngineVersion(self.slug, version, tuple(self.supported_versions))
        if version == self.version:
            return self
        played = copy.copy(self)
        played.version = version
        return played

    # -- setup --------------------------------------------------------------
    @abstractmethod
    def validate_options(self, players: int, options: dict[str, Any]) -> dict[str, Any]:
        """Return the complete options (defaults filled in) or raise ``InvalidOptions``.

        Options outside ``option_specs`` (for example a scripted deck order)
        are engine-internal: engines accept them, the platform only lets
        players set the ones in ``option_specs``.
        """

    @abstractmethod
    def setup(self, players: list[str], options: dict[str, Any], seed: int | str) -> State:
        """Return the initial state; all randomness comes from ``seed``."""

    # -- stored states ------------------------------------------------------
    def upcast(self, state: State) -> State:
        """Return a stored state in the shape this version of the engine writes (the same object if it has it).

        States written by an older ``version`` are brought forward here; the
        engine's other methods accept either shape. Never changes ``state``.
        """
        return state

    # -- play ---------------------------------------------------------------
    @abstractmethod
    def to_move(self, state: State) -> list[int]:
        """Return the seats that may act now; empty once the game is over."""

    @abstractmethod
    def legal_moves(self, state: State, seat: int) -> list[Move]:
        """Return every legal move for ``seat`` now (empty when it is not their turn)."""

    @abstractmethod
    def apply(self, state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
        """Return the next state and the events; raise ``IllegalMove``. Never mutate ``state``."""

    def is_over(self, state: State) -> bool:
        """Tell whether the game has ended."""
        return self.result(state) is not None

    @abstractmethod
    def result(self, state: State) -> dict[str, Any] | None:
        """Return None while the game goes on, then the outcome.

        The outcome always has ``winners`` (a list of seats), ``scores`` (a
        list, one number per seat), ``ranking`` (seats, best first) and
        ``summary`` (one line of text); a game may add its own details.
        A drawn game has ``winners == []`` and ``draw: True``.
        """

    def public_scores(self, state: State) -> list[float] | None:
        """Return each seat's count so far, in seat order, from what every player and spectator may know now (the
        tokens won, the points on the track): what an adjudication decides a game stopped before its end on.

        Read from the spectator's ``view`` and nothing else, so it can tell nobody what the rules keep hidden.
        None (this default): the game keeps no public count, and an adjudication is a draw.
        """
        return None

    def decided_result(self, state: State, how: str, players: list[str]) -> dict[str, Any]:
        """Return the result of a game stopped before its own end (a round's deadline, a draw agreed), decided
        ``how`` (``games.decisions.DECIDED``) on ``public_scores``; ``players`` names the seats (``decided``)."""
        return decided(self.public_scores(state), how, players)

    # -- information --------------------------------------------------------
    def score_breakdown(self, state: State) -> list[dict[str, Any]]:
        """Return how each seat's final score is made up, once the game is over (empty before).

        Each row is ``{"label", "points", "counts"}``: ``points`` has one number
        per seat. The rows that count (``counts: True``) add up, seat by seat,
        to the result's ``scores``; the others are facts beside the score (a
        tie-break such as tiles collected). Rows hold only what every player
        and spectator may know once the game is over. This default is the
        final score in one row; games should say where the points came from.
        """
        result = self.result(state)
        if result is None:
            return []
        return [{"label": _("Score"), "points": list(result["scores"]), "counts": True}]

    @abstractmethod
    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """Return what ``seat`` (None: a spectator) may know, and nothing more."""

    def view_after_end(self, state: State) -> dict[str, Any]:
        """Return what everyone may see of ``state`` once the game is over: the replay's full reveal.

        ``state`` is any position of a finished game (the replay shows every step with it), so it
        may be a position in play. Games add a ``revealed`` part to the spectator's view (every hand,
        the order of the deck, the face-down tiles) as their rules file says may be shown after the
        end, in a shape their board template draws. This default reveals nothing more than a
        spectator sees, so a game that says nothing stays safe. Never the seed: it is the record's.
        """
        return self.view(state, None)

    @abstractmethod
    def describe_event(self, event: Event, players: list[str], viewer: int | None) -> str:
        """Return one line of text for a history entry, worded for ``viewer``."""

    def how_to_play(self) -> str:
        """Return the rules in short (goal, a turn, scoring, the end) as Markdown, for the game page.

        This default reads ``how_to_play.<language>.md`` (``how_to_play.hu.md``) from the engine's own
        package in the reader's language, else ``how_to_play.md`` (English), and returns "" when the
        package has neither. The platform renders it with raw HTML escaped, so the text is Markdown only.
        """
        package = type(self).__module__.rpartition(".")[0]
        if not package:
            return ""
        code = locale_name(current_language())
        for name in dict.fromkeys((f"how_to_play.{code}.md", f"how_to_play.{code.partition('_')[0]}.md",
                                   "how_to_play.md")):
            try:
                return (resources.files(package) / name).read_text(encoding="utf-8")
            except (FileNotFoundError, ModuleNotFoundError, NotADirectoryError):
                continue
        return ""

    def view_text(self, view: dict[str, Any]) -> str:
        """Render a view (from ``view``) as plain text for an email: the position as that seat sees it.

        This default lists the view's fields; games should draw something a person reads at a glance.
        """
        return "\n".join(text_lines(view))

    def board_data(self, view: dict[str, Any], moves: list[dict[str, Any]]) -> dict[str, Any] | None:
        """Return extra drawing data for the game's board template (``board`` there), or None.

        ``moves`` are the viewer's legal moves as the platform lists them
        (``{move, text, json}``); only the view and these may be used.
        """
        return None

    def mark_spots(self, view: dict[str, Any]) -> list[tuple[str, str]]:
        """Return what a player may mark in their private notes (issue 46), read from their view alone: ``(spot,
        name)`` pairs in board order, ``spot`` a short id the board's markup carries as ``data-spot`` (the marks are
        drawn there), ``name`` the card or tile in the reader's language. This default offers none."""
        return []

    def assets(self) -> dict[str, JSON]:
        """Return this engine's static assets by name: JSON the boards and API clients fetch once.

        An asset is the same whatever the state (drawings of every tile, say), so it holds nothing
        hidden, and a view names the asset it needs instead of repeating it. Names are lowercase
        words joined by hyphens (``art-revised``). The platform serves each at
        ``/assets/games/<slug>/<name>.<digest>.json`` (cached for a year; a new content gets a
        new digest), gives board templates its URL with ``{% game_asset_url slug name %}`` and
        lists the URLs in ``GET /api/game-types/``. It calls this once per process, when a URL is
        first needed: slow drawing belongs in a stored file the engine reads here.
        """
        return {}

    def view_picture(self, view: dict[str, Any]) -> bytes | None:
        """Return a PNG picture of a view for emails (for example the board around the last moves), or None."""
        return None

    # -- bots ---------------------------------------------------------------
    def bots(self) -> dict[str, Any]:
        """Return the bots this game offers by name (see ``games.bots``); every game has ``random``."""
        return {"random": RandomBot()}

    # How many of the latest moves' events ``sample_world`` reads (besides the view): 0, it reads the view alone.
    world_history_moves: ClassVar[int] = 0

    def sample_world(self, view: dict[str, Any], history: list[dict[str, Any]], seat: int,
                     rng: random.Random) -> State | None:
        """Return a whole state drawn at random among those ``seat`` cannot tell from the real one, or None (this
        default): a search bot (``games.search``) plays its moves out in such worlds. It is given only what the
        seat knows, its ``view`` and the events it may see of the ``world_history_moves`` latest moves, so it
        cannot read a hidden card even by mistake. What the seat has not seen (hands, a deck's order, the seed of
        shuffles to come) is drawn with ``rng`` alone, each card as likely as the known counts make it. The world
        plays on, and ``view(world, seat) == view`` (tests/games/test_sampled_worlds.py holds every game to it).
        """
        return None

    # -- leaving ------------------------------------------------------------
    def resign(self, state: State, seat: int) -> tuple[State, list[Event]]:
        """Return the state after ``seat`` gives up the game; raise ``IllegalMove`` if it cannot."""
        raise IllegalMove(_("Resigning is not possible in this game."))

    def play(self, state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
        """Apply a logged move: the platform's ``{"resign": true}`` or one of the game's own moves."""
        if move == RESIGN:
            return self.resign(state, seat)
        return self.apply(state, seat, move)

    # -- takebacks -----------------------------------------------------------
    def take_back_refusal(self, before: State, seat: int, move: Move, after: State, events: list[Event]) -> str | None:
        """Return why ``seat``'s ``move`` (``before`` to ``after``, making ``events``) may not be taken back, in the
        reader's language; None when it may (``games.takebacks`` refuses the rest: not the last entry or not
        ``seat``'s, the game's end, a private event). Allow only a move that drew, turned up, looked at or passed on
        nothing hidden, even through a public event (a card drawn for the next player, a tile turned face up, a
        new row dealt). This default allows none: a game that says nothing stays safe."""
        return _("Moves of this game cannot be taken back.")

    # -- notation -----------------------------------------------------------
    @abstractmethod
    def describe_move(self, state: State, move: Move) -> str:
        """Return the short text notation of ``move`` (it must parse back to the same move)."""

    @abstractmethod
    def parse_move(self, text: str, state: State, seat: int) -> Move:
        """Read the text notation into a move; raise ``BadNotation`` if it cannot be read.

        Parsing does not check legality: ``apply`` does.
        """

    @abstractmethod
    def notation_help(self) -> str:
        """Return a few lines explaining how to write any move of this game."""

    def moves_summary(self, texts: list[str], limit: int = 40) -> list[str]:
        """Return the legal moves' notation as lines short enough for an email.

        Up to ``limit`` moves are listed one per line; beyond that they are
        grouped by their first word with a few examples each, and the reader
        relies on ``notation_help`` for the rule. Games may do better.
        """
        if len(texts) <= limit:
            return list(texts)
        groups: dict[str, list[str]] = {}
        for text in texts:
            groups.setdefault(text.split(" ", 1)[0], []).append(text)
        lines = []
        for word, members in groups.items():
            shown = ", ".join(members[:4])
            more = _.ngettext(" and {count} more like them", " and {count} more like them",
                              len(members) - 4).format(count=len(members) - 4) if len(members) > 4 else ""
            lines.append(f"{word}: {shown}{more}")
        return lines

