"""Each game's static assets (``Engine.assets``), served once at a content-hashed URL that browsers keep.

An asset is JSON that no state decides (Carcassonne's tile drawings), so a view names it instead of
repeating it in every answer. Its URL, ``/assets/games/<slug>/<name>.<digest>.json``, carries a
digest of its content: the answer may be cached for a year (``immutable``), and a new drawing gets
a new URL. A URL with an old or made-up digest is redirected to the current one, uncached, so a page
from before a deploy still draws. Board templates get the URL with ``{% game_asset_url slug name %}``
(``templatetags/game_assets.py``), API clients from ``GET /api/game-types/``.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import cache

from django.http import HttpResponse, HttpResponseRedirect, JsonResponse
from django.urls import reverse
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.http import quote_etag
from django.utils.translation import gettext
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_safe

from games import engines

A_YEAR = 365 * 24 * 60 * 60
DIGEST_LENGTH = 16  # hex digits of SHA-256: 64 bits, ample for a handful of assets per game


@dataclass(frozen=True)
class Asset:
    body: bytes  # the JSON as served
    digest: str


@cache
def _assets_of(slug: str) -> dict[str, Asset]:
    """Encode a game's assets once per process: they change only with the code."""
    found = {}
    for name, value in engines()[slug].assets().items():
        body = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
        found[name] = Asset(body=body, digest=hashlib.sha256(body).hexdigest()[:DIGEST_LENGTH])
    return found


def game_asset(slug: str, name: str) -> Asset | None:
    """Return a game's asset by name, or None when the game or the name is unknown."""
    if slug not in engines():
        return None
    return _assets_of(slug).get(name)


def asset_url(slug: str, name: str) -> str | None:
    """Return the versioned path of a game's asset, or None when there is no such asset."""
    found = game_asset(slug, name)
    if found is None:
        return None
    return reverse("game-asset", kwargs={"slug": slug, "name": name, "digest": found.digest})


def asset_urls(slug: str) -> dict[str, str]:
    """Return ``{name: versioned path}`` for every asset of a game."""
    return {name: asset_url(slug, name) for name in _assets_of(slug)} if slug in engines() else {}


@require_safe
@gzip_page
def serve_asset(request, slug: str, name: str, digest: str):
    """Answer an asset with year-long caching; 404 for an unknown one; redirect a stale digest."""
    found = game_asset(slug, name)
    if found is None:
        return JsonResponse({"detail": gettext("No such asset.")}, status=404)
    if digest != found.digest:
        response = HttpResponseRedirect(asset_url(slug, name))
        patch_cache_control(response, no_cache=True)
        return response
    # Weak, so the gzipped and the plain answer share it (GZipMiddleware weakens a strong one anyway).
    tag = f"W/{quote_etag(found.digest)}"
    response = get_conditional_response(request, etag=tag) or HttpResponse(found.body, content_type="application/json")
    response.headers["ETag"] = tag
    patch_cache_control(response, public=True, max_age=A_YEAR, immutable=True)
    return response
