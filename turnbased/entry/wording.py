"""The words of fair entry's events (the stream's and webhooks'), in the reader's language when they are read."""

from __future__ import annotations

from django.utils.translation import ngettext

from games import engines


def _title(table) -> str | None:
    if not isinstance(table, dict) or not isinstance(table.get("id"), int):
        return None
    engine = engines().get(table.get("engine"))
    return f"{engine.display_name() if engine else table.get('engine')} #{table['id']}"


def word_tables_left(payload: dict, event) -> dict:
    game, tables = _title(payload.get("game")), payload.get("tables")
    if game is None or not isinstance(tables, list):
        return payload
    text = ngettext("A bot took your seat at %(game)s, so you left the table you were waiting to start: %(tables)s.",
                    "A bot took your seat at %(game)s, so you left the tables you were waiting to start: "
                    "%(tables)s.", len(tables)) \
        % {"game": game, "tables": ", ".join(filter(None, (_title(table) for table in tables)))}
    return {**payload, "text": text}
