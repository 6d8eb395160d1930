"""Private notes, written: one service for the page, the API and an email reply alike."""

from __future__ import annotations

import re

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext, ngettext

from turnbased.events.models import EventKind
from turnbased.events.services import NewEvent, events_record
from turnbased.kit.errors import InvalidRequest
from turnbased.notes.models import MAX_NOTE_CHARS, GameNote
from turnbased.notes.selectors import note_game


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


def note_save(*, game_id: int, user: AbstractBaseUser, text, append: bool = False) -> GameNote | None:
    """Keep ``text`` as the player's notes on a game they sit at (``append``: after what they already wrote, as an
    email reply adds a line); empty notes are deleted. Return the notes kept (None once cleared). Refused, with
    nothing changed, for a game they do not sit at (404 where they may not see it) and for text over the limit;
    their own devices are told (stream, webhooks: ``game_note``)."""
    text = _checked(text)
    with transaction.atomic():
        game = note_game(game_id, user)
        note = GameNote.objects.select_for_update().filter(game=game, user=user).first()
        if append and note is not None and text:
            text = _checked(f"{note.text}\n\n{text}")
        if not text:
            if note is not None:
                note.delete()
            note = None
        elif note is None:
            note = GameNote.objects.create(game=game, user=user, text=text)
        elif note.text != text:
            note.text = text
            note.save(update_fields=["text", "updated_at"])
        events_record(events=[NewEvent(user_id=user.pk, kind=EventKind.GAME_NOTE, game_id=game.pk, seq=game.seq,
                                       payload={"engine": game.engine, "engine_version": game.engine_version,
                                                "note": note.text if note else ""})])
    return note
