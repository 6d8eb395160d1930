"""Origins of the site and of its stream, read by the settings (before Django is set up: no Django here)."""

from __future__ import annotations

from urllib.parse import urlsplit


def origin_of(url: str) -> str | None:
    """Return the origin (``scheme://host[:port]``, lowercase) of an absolute http(s) URL; None for a path."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return None
    return f"{parts.scheme}://{parts.netloc}".lower()


def stream_connect_sources(stream_url: str) -> list[str]:
    """Return what the Content-Security-Policy's ``connect-src`` must allow besides the site: the stream's origin
    when pages reach it at another one (its own port under ``make run``)."""
    origin = origin_of(stream_url)
    return [origin] if origin else []
