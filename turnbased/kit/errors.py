"""Errors the play services raise; each carries a human ``detail`` and an HTTP status.

The detail is worded when the error is raised, in the active language (the reader's: the request's,
the account's, an email's recipient's); a lazy text is worded there too, so callers always get a str.
"""

from __future__ import annotations

from django.utils.translation import gettext


class PlayError(Exception):
    status = 400

    def __init__(self, detail: str, **extra):
        detail = str(detail)
        super().__init__(detail)
        self.detail = detail
        self.extra = extra


class InvalidRequest(PlayError):
    """The request is malformed or names something that does not exist in this game."""

    status = 400


class Unprocessable(PlayError):
    """The request has the shape the API's schema describes, but what it asks cannot be done: a move the
    rules refuse, a player count the game does not take, an absence in the past (422; 400 is for a request
    that breaks the schema)."""

    status = 422


class IllegalMoveError(Unprocessable):
    """The engine refused the move; ``detail`` is the engine's reason."""


class NotAllowed(PlayError):
    """The user may see the game but may not do this."""

    status = 403


class NotFound(PlayError):
    """The request names something that does not exist, or that is not the user's (we do not say which)."""

    status = 404


class GameNotFound(NotFound):
    """No such game, or a private game the user is not part of (we do not say which)."""

    def __init__(self, detail: str | None = None):
        super().__init__(gettext("No such game.") if detail is None else detail)


class Conflict(PlayError):
    """The game's state does not allow this now (full, not started, over, not your turn)."""

    status = 409


class EngineUnavailable(Conflict):
    """The game was played with an engine version this installation does not have; nothing can show or play it."""


class StaleSequence(Conflict):
    """The move was written for another position; ``extra['seq']`` is the current one."""

    def __init__(self, *, current_seq: int, sent_seq: int):
        super().__init__(
            gettext("The game has moved on: your move answered move %(sent)s, the game is now at move %(current)s. "
                    "Look at the board again and resend.") % {"sent": sent_seq, "current": current_seq},
            seq=current_seq,
        )
        self.current_seq = current_seq
