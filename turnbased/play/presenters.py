"""Shape a game for one viewer, the same way for the API and the pages."""

from __future__ import annotations

from functools import cache

from django.conf import settings
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from markdown_it import MarkdownIt

from games import get_engine
from turnbased.clocks.agreed import paused_until
from turnbased.clocks.services import clock_summaries, table_clock_of
from turnbased.play import records, selectors
from turnbased.play.models import Game


def public_options(game: Game) -> dict:
    """Return the options players chose; engine-internal ones (a scripted deck) stay secret."""
    names = {spec.name for spec in get_engine(game.engine).option_specs}
    return {name: value for name, value in game.options.items() if name in names}


def worded_result(game: Game) -> dict | None:
    """Return the stored result with its ``summary`` worded for the reader (the record keeps the English line)."""
    if not game.result:
        return game.result
    return {**game.result, "summary": game.result_line}


def option_rows(game: Game) -> list[dict]:
    """Return the chosen options as people read them: each option's label and its value's label, in the engine's order."""
    rows = []
    for spec in get_engine(game.engine).worded_option_specs():
        if spec.name not in game.options:
            continue
        value = game.options[spec.name]
        shown = next((label for choice, label in spec.choices if choice == value and type(choice) is type(value)), None)
        rows.append({"name": spec.name, "label": spec.label, "value": shown if shown is not None else str(value)})
    return rows


def how_to_play_html(slug: str) -> SafeString:
    """Return the game's rules in short (``Engine.how_to_play``) as HTML in the reader's language; raw HTML in the
    text is escaped."""
    return _how_to_play_html(slug, get_language())


@cache
def _how_to_play_html(slug: str, language: str) -> SafeString:
    text = get_engine(slug).how_to_play()
    return mark_safe(MarkdownIt("commonmark", {"html": False}).render(text))  # noqa: S308 (html off: escaped)


def invite_url(game: Game) -> str:
    # A list of games writes one per row, and reverse() cost a quarter of each row: fill the path's shape instead.
    game_path, code_path = _invite_path_parts()
    return f"{settings.SITE_URL}{game_path}{game.pk}{code_path}{game.invite_code}/"


_SOME_GAME, _SOME_CODE = 987654321, "a1b2c3"


@cache
def _invite_path_parts() -> tuple[str, str]:
    """Return the invite path around its game id and code: ("/games/", "/invite/") for "/games/<id>/invite/<code>/"."""
    path = reverse("game-invite", args=[_SOME_GAME, _SOME_CODE])
    before_game, after_game = path.split(str(_SOME_GAME))
    between, end = after_game.split(_SOME_CODE)
    assert end == "/", path  # the shape this fills; a change to the URL would fail here, at the first use
    return before_game, between


def game_summary(game: Game, user, *, viewer: selectors.Viewer | None = None, with_view: bool = True,
                 last_move: str | None = None) -> dict:
    """Return the API's game object for ``user``; ``view`` only when asked, from the viewer's seat.

    ``last_move`` is the latest move as this user may see it (``selectors.last_move_lines``).
    """
    seats = selectors.seat_summaries(game)
    my_seat = selectors.seat_of(game, user)
    view = None
    if with_view:
        viewer = viewer or selectors.Viewer(game=game, seat=my_seat)
        view = selectors.private_view(viewer)
    return {
        "id": game.pk,
        "game": game.engine,
        "name": get_engine(game.engine).display_name(),
        "status": game.status,
        "visibility": game.visibility,
        "seq": game.seq,
        "seat_count": game.seat_count,
        "seats": seats,
        "my_seat": my_seat,
        "to_move": list(game.to_move) if game.status == "active" else [],
        "options": public_options(game),
        "view": view,
        "result": worded_result(game),
        "invite_url": invite_url(game) if my_seat is not None else None,
        "time_control": time_control_summary(game),
        "clocks": clock_rows(game) if game.status == "active" else [],
        "created_at": game.created_at,
        "last_move_at": game.last_move_at,
        "last_move": last_move,
        # Fairness (docs/record-format.md): the seed's commitment from the start, the seed itself once over.
        "commitment": records.commitment_of(game),
        "seed": records.revealed_seed(game),
    }


def time_control_summary(game: Game) -> dict:
    """Return the table's time control and expiry policy, as everyone sees it before joining."""
    table = table_clock_of(game)
    return {
        "kind": table.kind,
        "days_per_move": table.days_per_move,
        "bank_days": table.bank_days,
        "increment_days": table.increment_days,
        "weekends_off": table.weekends_off,
        "allow_absence": table.allow_absence,
        "expiry": table.expiry,
        "stand_in": table.stand_in,
        "description": table.describe(),
        "expiry_description": table.get_expiry_display(),
        "stand_in_description": table.get_stand_in_display(),
        "paused_until": paused_until(table) if game.status == "active" else None,
    }


def clock_rows(game: Game) -> list[dict]:
    return [
        {**row, "remaining_seconds": round(row["remaining_seconds"]) if row["remaining_seconds"] is not None else None}
        for row in clock_summaries(game)
    ]


def move_answer(game: Game, seat: int) -> dict:
    """Return what the mover needs after a move (the POST's lean answer, ``Prefer: return=minimal``): the game's
    position and status, whose turn it is, the mover's view, and the mover's legal moves when they are to act again
    (the Chancellor's second step, a Carcassonne piece after its tile); the result once the game is over."""
    viewer = selectors.Viewer(game=game, seat=seat)
    return {
        "game_seq": game.seq,
        "status": game.status,
        "to_move": list(game.to_move) if game.status == "active" else [],
        "view": selectors.private_view(viewer),
        "legal_moves": selectors.legal_moves_for(viewer),
        "result": worded_result(game),
    }
