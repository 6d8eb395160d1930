"""The versioned URL of a game's static asset, for board templates (see ``turnbased/web/assets.py``)."""

from django import template

from turnbased.web.assets import asset_url

register = template.Library()


@register.simple_tag
def game_asset_url(slug: str, name: str) -> str:
    """Return the URL of the game's asset ``name`` (empty when the game has no such asset)."""
    return asset_url(slug, name) or ""
