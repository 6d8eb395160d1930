"""Private notes, written: one service for the page, the API and an email reply alike."""

from __future__ import annotations

import re

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext, ngettext

from turnbased.events.models import EventKind
from turnbased.events.services import NewEvent, events_record
from turnbased.kit.errors import InvalidRequest, Unprocessable
from turnbased.notes.models import MARK_SYMBOLS, MAX_MARK_LABEL_CHARS, MAX_MARKS, MAX_NOTE_CHARS, GameNote
from turnbased.notes.selectors import note_viewer, spots_of


# Control characters but the line break and the tab: notes keep their layout, nothing else invisible.
_UNPRINTABLE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u2064\ufeff]")


def _checked(text) -> str:
    """Return notes as they are kept: line breaks as written, control characters dropped, no blanks around."""
    if not isinstance(text, str):
        raise InvalidRequest(gettext("The notes must be text."))
    text = _UNPRINTABLE.sub("", text.replace("\r\n", "\n").replace("\r", "\n")).strip()
    if len(text) > MAX_NOTE_CHARS:
        raise InvalidRequest(ngettext("Notes hold at most %(count)s character.", "Notes hold at most %(count)s "
                                      "characters.", MAX_NOTE_CHARS) % {"count": MAX_NOTE_CHARS})
    return text


def _label(value) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise InvalidRequest(gettext("A mark's words must be text."))
    label = " ".join(_UNPRINTABLE.sub("", value).split())
    if len(label) > MAX_MARK_LABEL_CHARS:
        raise InvalidRequest(ngettext("A mark's words hold at most %(count)s character.",
                                      "A mark's words hold at most %(count)s characters.", MAX_MARK_LABEL_CHARS)
                             % {"count": MAX_MARK_LABEL_CHARS})
    return label


def _checked_marks(marks, kept: list[dict], spots: set[str]) -> list[dict]:
    """Return marks as they are kept, one per spot (the last given wins): each on a card or tile the player may mark
    now, or one they kept from before as it was (its card may have left the board since: it stays theirs)."""
    if not isinstance(marks, list):
        raise InvalidRequest(gettext("The marks must be a list."))
    checked: dict[str, dict] = {}
    for mark in marks:
        if not isinstance(mark, dict) or not isinstance(mark.get("spot"), str):
            raise InvalidRequest(gettext("Each mark names its spot and its symbol."))
        if mark.get("symbol") not in MARK_SYMBOLS:
            raise InvalidRequest(gettext("A mark's symbol is one of: %(symbols)s.")
                                 % {"symbols": ", ".join(MARK_SYMBOLS)})
        shown = {"spot": mark["spot"], "symbol": mark["symbol"], "label": _label(mark.get("label"))}
        if shown["spot"] not in spots and shown not in kept:
            raise Unprocessable(gettext("There is no card or tile to mark there: %(spot)s.")
                                % {"spot": shown["spot"][:40]})
        checked.pop(shown["spot"], None)
        checked[shown["spot"]] = shown
    if len(checked) > MAX_MARKS:
        raise InvalidRequest(ngettext("Notes hold at most %(count)s mark.", "Notes hold at most %(count)s marks.",
                                      MAX_MARKS) % {"count": MAX_MARKS})
    return list(checked.values())


def note_save(*, game_id: int, user: AbstractBaseUser, text=None, marks=None, append: bool = False) -> GameNote | None:
    """Keep ``text`` as the player's notes on a game they sit at (``append``: after what they already wrote, as an
    email reply adds a line), and ``marks`` as their marks on its cards and tiles; either left out (None) stays as it
    was. Notes with no text and no mark are deleted. Return the notes kept (None once cleared). Refused, with nothing
    changed, for a game they do not sit at (404 where they may not see it), text over the limit, and a mark on no
    card or tile of their view; their own devices are told (stream, webhooks: ``game_note``)."""
    text = None if text is None else _checked(text)
    with transaction.atomic():
        viewer = note_viewer(game_id, user)
        game = viewer.game
        note = GameNote.objects.select_for_update().filter(game=game, user=user).first()
        kept_text, kept_marks = (note.text, list(note.marks)) if note is not None else ("", [])
        if text is None:
            text = kept_text
        elif append and text and kept_text:
            text = _checked(f"{kept_text}\n\n{text}")
        if marks is not None:
            marks = _checked_marks(marks, kept_marks, {spot for spot, _ in spots_of(viewer)})
        else:
            marks = kept_marks
        if not text and not marks:
            if note is not None:
                note.delete()
            note = None
        elif note is None:
            note = GameNote.objects.create(game=game, user=user, text=text, marks=marks)
        elif (note.text, note.marks) != (text, marks):
            note.text, note.marks = text, marks
            note.save(update_fields=["text", "marks", "updated_at"])
        events_record(events=[NewEvent(user_id=user.pk, kind=EventKind.GAME_NOTE, game_id=game.pk, seq=game.seq,
                                       payload={"engine": game.engine, "engine_version": game.engine_version,
                                                "note": note.text if note else "",
                                                "marks": list(note.marks) if note else []})])
    return note


def mark_set(*, game_id: int, user: AbstractBaseUser, spot, symbol, label=None) -> GameNote | None:
    """Put a mark on one card or tile (replacing the one there), keeping the rest of the notes as they are."""
    note_viewer(game_id, user)  # refused as any change of the notes is, first
    note = GameNote.objects.filter(game_id=game_id, user=user).first()
    marks = [mark for mark in (note.marks if note else []) if mark.get("spot") != spot]
    return note_save(game_id=game_id, user=user, marks=[*marks, {"spot": spot, "symbol": symbol, "label": label}])


def mark_remove(*, game_id: int, user: AbstractBaseUser, spot) -> GameNote | None:
    """Take the mark off one card or tile (nothing changes where there is none)."""
    note_viewer(game_id, user)  # refused as any change of the notes is, first
    note = GameNote.objects.filter(game_id=game_id, user=user).first()
    marks = [mark for mark in (note.marks if note else []) if mark.get("spot") != spot]
    if note is None or len(marks) == len(note.marks):
        return note
    return note_save(game_id=game_id, user=user, marks=marks)
