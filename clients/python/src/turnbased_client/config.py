"""Where turnbased-cli finds its server and token: the environment first, then its config file.

``TURNBASED_URL``, ``TURNBASED_TOKEN`` and ``TURNBASED_STREAM_URL`` (where the event stream is
served, if not at the server's own address: ``make run`` serves it on port 8001) win; otherwise
``turnbased-cli login`` saved them in ``$TURNBASED_CONFIG``, or
``$XDG_CONFIG_HOME/turnbased/config.json`` (``~/.config/...``).
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

DEFAULT_URL = "http://127.0.0.1:8000"


@dataclass(frozen=True)
class Settings:
    url: str
    token: str | None
    path: Path
    stream_url: str | None = None


def config_path(env: Mapping[str, str]) -> Path:
    if env.get("TURNBASED_CONFIG"):
        return Path(env["TURNBASED_CONFIG"]).expanduser()
    base = Path(env["XDG_CONFIG_HOME"]) if env.get("XDG_CONFIG_HOME") else Path.home() / ".config"
    return base / "turnbased" / "config.json"


def load(env: Mapping[str, str]) -> Settings:
    """Return the server and token to use: the environment's, else the config file's, else the local server."""
    path = config_path(env)
    saved: dict[str, str] = {}
    if path.is_file():
        try:
            saved = json.loads(path.read_text(encoding="utf-8"))
        except ValueError:
            saved = {}
    url = env.get("TURNBASED_URL") or saved.get("url") or DEFAULT_URL
    token = env.get("TURNBASED_TOKEN") or saved.get("token") or None
    stream_url = env.get("TURNBASED_STREAM_URL") or saved.get("stream_url") or None
    return Settings(url=url, token=token, path=path, stream_url=stream_url)


def save(path: Path, *, url: str, token: str | None, stream_url: str | None = None) -> None:
    """Write the server, token and stream's server to the config file, readable by its owner only (a secret)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as file:
        json.dump({"url": url, "token": token, **({"stream_url": stream_url} if stream_url else {})}, file)
    os.chmod(path, 0o600)  # an older file may have had wider rights
