"""Helpers for account tests: read links out of the emails allauth sends."""

from __future__ import annotations

import re

LINK = re.compile(r"https?://testserver(/accounts/[^\s]+/)")


def link_in(message, path_start: str) -> str:
    """Return the path of the first link in ``message`` under ``path_start``."""
    for path in LINK.findall(message.body):
        if path.startswith(path_start):
            return path
    raise AssertionError(f"no {path_start} link in {message.subject!r}:\n{message.body}")


def sent_to(mailoutbox, address: str) -> list:
    return [message for message in mailoutbox if message.to == [address]]
