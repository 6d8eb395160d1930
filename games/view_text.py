"""The default plain-text rendering of a view (``Engine.view_text``): a JSON value laid out as indented lines, for
a game that draws nothing better for its emails."""

from __future__ import annotations

from typing import Any


def text_lines(value: Any, indent: str = "") -> list[str]:
    """Lay a JSON value out as indented ``key: value`` lines."""
    if isinstance(value, dict):
        lines = []
        for key, item in value.items():
            if isinstance(item, (dict, list)) and item:
                lines.append(f"{indent}{key}:")
                lines.extend(text_lines(item, indent + "  "))
            else:
                lines.append(f"{indent}{key}: {item}")
        return lines
    if isinstance(value, list):
        if all(not isinstance(item, (dict, list)) for item in value):
            return [indent + ", ".join(str(item) for item in value)]
        lines = []
        for item in value:
            item_lines = text_lines(item, indent + "  ")
            item_lines[0] = f"{indent}- {item_lines[0].lstrip()}"
            lines.extend(item_lines)
        return lines
    return [f"{indent}{value}"]
