"""Errors the play services raise; each carries a human ``detail`` and an HTTP status."""

from __future__ import annotations


class PlayError(Exception):
    status = 400

    def __init__(self, detail: str, **extra):
        super().__init__(detail)
        self.detail = detail
        self.extra = extra


class InvalidRequest(PlayError):
    """The request is malformed or names something that does not exist in this game."""

    status = 400


class IllegalMoveError(PlayError):
    """The engine refused the move; ``detail`` is the engine's reason."""

    status = 400


class NotAllowed(PlayError):
    """The user may see the game but may not do this."""

    status = 403


class NotFound(PlayError):
    """The request names something that does not exist, or that is not the user's (we do not say which)."""

    status = 404


class GameNotFound(NotFound):
    """No such game, or a private game the user is not part of (we do not say which)."""

    def __init__(self, detail: str = "No such game."):
        super().__init__(detail)


class Conflict(PlayError):
    """The game's state does not allow this now (full, not started, over, not your turn)."""

    status = 409


class EngineUnavailable(Conflict):
    """The game was played with an engine version this installation does not have; nothing can show or play it."""


class StaleSequence(Conflict):
    """The move was written for another position; ``extra['seq']`` is the current one."""

    def __init__(self, *, current_seq: int, sent_seq: int):
        super().__init__(
            f"The game has moved on: your move answered move {sent_seq}, the game is now at "
            f"move {current_seq}. Look at the board again and resend.",
            seq=current_seq,
        )
        self.current_seq = current_seq
