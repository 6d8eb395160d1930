"""Server-rendered pages: the lobby, creating and joining tables, and the game page.

The game page's panel (board, moves, history) is fetched again by htmx when
the position changes, so players never reload by hand.
"""

from __future__ import annotations

import json
import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import select_template
from django.views.decorators.http import require_GET, require_POST

from games import engines, get_engine
from turnbased.mail.delivery import record_visit
from turnbased.play import selectors, services
from turnbased.play.errors import GameNotFound, PlayError
from turnbased.play.models import GameStatus, MoveSource, Visibility
from turnbased.play.presenters import invite_url, public_options


DEFAULT_GAME = "love-letter"


def _viewer_or_404(game_id: int, request, invite_code: str | None = None) -> selectors.Viewer:
    try:
        return selectors.viewer_of(game_id, request.user, invite_code=invite_code)
    except GameNotFound:
        raise Http404("No such game.") from None


@require_GET
def lobby(request):
    context = {
        "open_games": selectors.open_games(request.user)[:50],
        "engines": engines().values(),
    }
    if request.user.is_authenticated:
        context["rows"] = selectors.lobby_rows(request.user)
    return render(request, "play/lobby.html", context)


@login_required
def game_new(request):
    all_engines = engines()
    slug = request.POST.get("game") or request.GET.get("game")
    if slug is None:
        slug = DEFAULT_GAME if DEFAULT_GAME in all_engines else next(iter(all_engines))
    if slug not in all_engines:
        raise Http404("No such game.")
    engine = get_engine(slug)
    error = None
    if request.method == "POST":
        raw_options = {spec.name: _typed(spec, request.POST.get(spec.name)) for spec in engine.option_specs}
        try:
            game = services.create_game(
                creator=request.user,
                engine_slug=slug,
                players=_int_or_none(request.POST.get("players")),
                options=services.user_options(slug, raw_options),
                visibility=request.POST.get("visibility", Visibility.PUBLIC),
            )
        except PlayError as failure:
            error = failure.detail
        else:
            messages.success(request, "Table created. Share the invite link so others can join.")
            return redirect("game-detail", game.pk)
    return render(request, "play/game_new.html", {
        "engines": all_engines.values(),
        "engine": engine,
        "player_counts": range(engine.min_players, engine.max_players + 1),
        "visibilities": Visibility.choices,
        "error": error,
    })


def _int_or_none(raw: str | None) -> int | None:
    try:
        return int(raw) if raw else None
    except ValueError:
        return -1  # the service explains the allowed range


def _typed(spec, raw: str | None):
    """Map a form string back to the option's choice value (choices may be ints or bools)."""
    for value, _label in spec.choices:
        if str(value) == raw:
            return value
    return spec.default if raw is None else raw


def _panel_context(request, viewer: selectors.Viewer, error: str | None = None) -> dict:
    game = viewer.game
    engine = get_engine(game.engine)
    moves = selectors.legal_moves_for(viewer)
    for entry in moves:
        entry["json"] = json.dumps(entry["move"], sort_keys=True)
    history = selectors.visible_history(viewer) if game.state is not None else []
    return {
        "game": game,
        "engine": engine,
        "viewer": viewer,
        "view": selectors.private_view(viewer),
        "moves": moves,
        "history": list(reversed(history)),
        "board_template": select_template([f"games/{game.engine}/board.html", "games/_default_board.html"]),
        "idempotency_key": uuid.uuid4().hex,
        "error": error,
        "names": list(game.player_names) or [s.display_name for s in game.seats.all()],
    }


def _note_presence(request, viewer: selectors.Viewer) -> None:
    """A player with the page open gets no turn email until they leave it."""
    if viewer.is_player:
        record_visit(user=request.user, game_id=viewer.game.pk)


@require_GET
def game_detail(request, game_id: int):
    viewer = _viewer_or_404(game_id, request)
    _note_presence(request, viewer)
    game = viewer.game
    context = _panel_context(request, viewer)
    context.update({
        "options": public_options(game),
        "invite_url": invite_url(game) if viewer.is_player else None,
        "is_creator": request.user.is_authenticated and game.created_by_id == request.user.pk,
        "can_join": (
            game.status == GameStatus.OPEN and not viewer.is_player and game.seats.count() < game.seat_count
        ),
        "min_players": get_engine(game.engine).min_players,
    })
    return render(request, "play/game_detail.html", context)


@require_GET
def game_panel(request, game_id: int):
    """Return the panel when the position moved past ``seq`` (htmx polls this); 204 when it did not."""
    viewer = _viewer_or_404(game_id, request)
    _note_presence(request, viewer)
    seen = request.GET.get("seq")
    status = request.GET.get("status")
    if seen == str(viewer.game.seq) and status == viewer.game.status:
        return HttpResponse(status=204)
    return render(request, "play/_panel.html", _panel_context(request, viewer))


@require_POST
@login_required
def game_move(request, game_id: int):
    error = None
    try:
        raw = request.POST.get("move")
        text = request.POST.get("text")
        move = json.loads(raw) if raw else None
        services.submit_move(
            game_id=game_id,
            user=request.user,
            expected_seq=int(request.POST.get("expected_seq", "-1")),
            move=move,
            text=text.strip() if text and move is None else None,
            source=MoveSource.WEB,
            idempotency_key=request.POST.get("idempotency_key") or None,
        )
    except (ValueError, json.JSONDecodeError):
        error = "That move could not be read; pick one of the listed moves."
    except GameNotFound:
        raise Http404("No such game.") from None
    except PlayError as failure:
        error = failure.detail
    if request.headers.get("HX-Request"):
        return render(request, "play/_panel.html", _panel_context(request, _viewer_or_404(game_id, request), error))
    if error:
        messages.error(request, error)
    return redirect("game-detail", game_id)


def _act(request, game_id: int, action, success: str, **kwargs):
    try:
        action(game_id=game_id, user=request.user, **kwargs)
    except GameNotFound:
        raise Http404("No such game.") from None
    except PlayError as failure:
        messages.error(request, failure.detail)
    else:
        messages.success(request, success)
    return redirect("game-detail", game_id)


@require_POST
@login_required
def game_join(request, game_id: int):
    return _act(request, game_id, services.join_game, "You joined the table.",
                invite_code=request.POST.get("invite_code") or None)


@require_POST
@login_required
def game_start(request, game_id: int):
    return _act(request, game_id, services.start_game, "The game has started.")


@require_POST
@login_required
def game_leave(request, game_id: int):
    try:
        services.leave_game(game_id=game_id, user=request.user)
    except GameNotFound:
        raise Http404("No such game.") from None
    except PlayError as failure:
        messages.error(request, failure.detail)
        return redirect("game-detail", game_id)
    messages.success(request, "You left the table.")
    return redirect("lobby")


@require_POST
@login_required
def game_resign(request, game_id: int):
    return _act(request, game_id, services.resign_game, "You resigned.")


@require_POST
@login_required
def game_abort(request, game_id: int):
    return _act(request, game_id, services.abort_game, "The table was aborted.")


@login_required
@require_GET
def game_invite(request, game_id: int, invite_code: str):
    """Show a table reached through its invite link, with a join button."""
    viewer = _viewer_or_404(game_id, request, invite_code=invite_code)
    if viewer.is_player:
        return redirect("game-detail", game_id)
    game = viewer.game
    return render(request, "play/game_invite.html", {
        "game": game,
        "engine": get_engine(game.engine),
        "options": public_options(game),
        "invite_code": invite_code,
        "seats": list(game.seats.all()),
    })
