"""The errors the client raises: one for every answer the API refuses, one for a server it cannot reach."""

from __future__ import annotations

from typing import Any


class TurnbasedError(Exception):
    """Anything that kept a request from getting its answer."""


class ApiError(TurnbasedError):
    """The API answered 4xx or 5xx: ``status``, and the problem's ``detail`` for a person to read.

    ``errors`` holds the problems per field of invalid input; ``body`` the whole JSON answer (a
    stale ``expected_seq`` answers 409 with the current ``seq`` and ``game`` in it);
    ``retry_after`` the seconds a 429 or 503 asks to wait.
    """

    def __init__(self, status: int, detail: str, *, errors: Any = None, body: Any = None,
                 retry_after: float | None = None, method: str = "", url: str = "") -> None:
        super().__init__(f"{status}: {detail}")
        self.status = status
        self.detail = detail
        self.errors = errors
        self.body = body
        self.retry_after = retry_after
        self.method = method
        self.url = url

    @property
    def current_seq(self) -> int | None:
        """The game's position now, when a move answered a stale ``expected_seq``."""
        seq = self.body.get("seq") if isinstance(self.body, dict) else None
        return seq if isinstance(seq, int) else None

    @classmethod
    def from_answer(cls, status: int, body: Any, *, reason: str = "", retry_after: float | None = None,
                    method: str = "", url: str = "") -> ApiError:
        """Build the error from an answer: ``{"detail": ...}``, a problem document (RFC 9457), or anything else."""
        detail = reason or f"HTTP {status}"
        errors = None
        if isinstance(body, dict):
            # RFC 9457 problem details carry "detail" (and "title"); the API's own errors carry "detail".
            found = body.get("detail") or body.get("title")
            if isinstance(found, str) and found:
                detail = found
            errors = body.get("errors")
        elif isinstance(body, str) and body.strip():
            detail = body.strip()[:500]
        return cls(status, detail, errors=errors, body=body, retry_after=retry_after, method=method, url=url)


class ConnectionFailed(TurnbasedError):
    """The server could not be reached, or did not answer in time."""
