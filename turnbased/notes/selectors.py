"""Reads of private notes: a player's notes on a game (theirs alone), all of a player's notes (their export), and
the words of the event that tells the player's own devices their notes changed."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import QuerySet
from django.utils.translation import gettext

from turnbased.events.models import Event
from turnbased.kit.errors import NotAllowed
from turnbased.notes.models import GameNote
from turnbased.play.models import Game
from turnbased.play.selectors import viewer_of


def note_game(game_id: int, user: AbstractBaseUser | AnonymousUser) -> Game:
    """Return the game whose notes ``user`` asks for: one they sit at. A game they may not see does not exist for
    them (``GameNotFound``); one they may watch but do not play is refused, as only its players keep notes."""
    viewer = viewer_of(game_id, user)
    if viewer.seat is None or not user.is_authenticated:
        raise NotAllowed(gettext("Only the game's players keep notes on it."))
    return viewer.game


def note_of(game: Game, user: AbstractBaseUser) -> GameNote | None:
    """Return the player's notes on the game (None before they wrote any)."""
    return GameNote.objects.filter(game=game, user=user).first()


def notes_of(user: AbstractBaseUser) -> QuerySet[GameNote]:
    """Every note the player keeps (their export: nobody else's, whatever the game)."""
    return GameNote.objects.filter(user=user).select_related("game")


def note_shown(game: Game, note: GameNote | None) -> dict:
    """A note as the API and the stream show it (an empty one when none was written)."""
    return {"game": game.pk, "text": note.text if note else "", "updated_at": note.updated_at if note else None}


def word_note_event(payload: dict, event: Event) -> dict:
    """The words of a ``game_note`` event (``text``), in the reader's language: the row keeps none. The table's name
    (``name``) is added as for every row about a game (``play.player_events.word_table``), before this runs."""
    title = payload.get("name") or f"#{event.game_id}"
    if payload.get("note"):
        text = gettext("You saved your notes on %(game)s.") % {"game": title}
    else:
        text = gettext("You cleared your notes on %(game)s.") % {"game": title}
    return {**payload, "text": text}
