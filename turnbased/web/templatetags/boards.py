"""Small filters that game board templates share."""

from django import template

register = template.Library()


@register.filter
def index_by(rows, field):
    """Turn a list of dicts into a dict keyed by ``field``."""
    return {row[field]: row for row in rows or []}


@register.filter
def get(mapping, key):
    """Look a key up in a dict (templates cannot subscript with a variable)."""
    if mapping is None:
        return None
    return mapping.get(key) if hasattr(mapping, "get") else None


@register.filter
def percent(value):
    """Format a probability 0..1 as a whole percentage."""
    if value is None:
        return "—"
    return f"{round(float(value) * 100)}%"
