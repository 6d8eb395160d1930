"""Reads of private notes: a player's notes on a game (theirs alone), all of a player's notes (their export), and
the words of the event that tells the player's own devices their notes changed."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import QuerySet
from django.utils.translation import gettext

from turnbased.events.models import Event
from turnbased.kit.errors import NotAllowed
from turnbased.notes.models import GameNote
from turnbased.play import store
from turnbased.play.models import Game
from turnbased.play.selectors import Viewer, private_view, viewer_of


def note_viewer(game_id: int, user: AbstractBaseUser | AnonymousUser) -> Viewer:
    """Return the player's place at the game whose notes they ask for: one they sit at. A game they may not see does
    not exist for them (``GameNotFound``); one they may watch but do not play is refused, as only its players keep
    notes."""
    viewer = viewer_of(game_id, user)
    if viewer.seat is None or not user.is_authenticated:
        raise NotAllowed(gettext("Only the game's players keep notes on it."))
    return viewer


def note_game(game_id: int, user: AbstractBaseUser | AnonymousUser) -> Game:
    """Return the game whose notes ``user`` asks for (``note_viewer``)."""
    return note_viewer(game_id, user).game


def spots_of(viewer: Viewer) -> list[tuple[str, str]]:
    """The cards and tiles the player may mark now, ``(spot, name)``, as the engine reads them from their own view
    (``Engine.mark_spots``): nothing hidden from their seat."""
    view = private_view(viewer)
    return store.engine_of(viewer.game).mark_spots(view) if view is not None else []


def note_of(game: Game, user: AbstractBaseUser) -> GameNote | None:
    """Return the player's notes on the game (None before they wrote any)."""
    return GameNote.objects.filter(game=game, user=user).first()


def notes_of(user: AbstractBaseUser) -> QuerySet[GameNote]:
    """Every note the player keeps (their export: nobody else's, whatever the game)."""
    return GameNote.objects.filter(user=user).select_related("game")


def note_shown(game: Game, note: GameNote | None, spots: list[tuple[str, str]] | None = None) -> dict:
    """A note as the API and the stream show it (an empty one when none was written); with ``spots``, the cards and
    tiles the player may mark now (``spots_of``), and each mark named by the spot it is on."""
    marks = list(note.marks) if note else []
    shown = {"game": game.pk, "text": note.text if note else "", "marks": marks,
             "updated_at": note.updated_at if note else None}
    if spots is not None:
        names = dict(spots)
        shown["spots"] = [{"spot": spot, "name": name} for spot, name in spots]
        shown["marks"] = [{**mark, "name": names.get(mark["spot"], "")} for mark in marks]
    return shown


def word_note_event(payload: dict, event: Event) -> dict:
    """The words of a ``game_note`` event (``text``), in the reader's language: the row keeps none. The table's name
    (``name``) is added as for every row about a game (``play.player_events.word_table``), before this runs."""
    title = payload.get("name") or f"#{event.game_id}"
    if payload.get("note"):
        text = gettext("You saved your notes on %(game)s.") % {"game": title}
    else:
        text = gettext("You cleared your notes on %(game)s.") % {"game": title}
    return {**payload, "text": text}
