"""Server-rendered pages: the lobby, creating and joining tables, and the game page.

The game page is a header (seats, status, actions), a panel (the position and
my moves) and the history (the latest moves; older ones on demand). The panel
polls with the version it shows: an unchanged game answers 204 from one row,
a changed one sends the panel with the header and only the history entries
the page lacks, so no request costs more as the game grows.
"""

from __future__ import annotations

import json
import uuid

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render, resolve_url
from django.template.loader import select_template
from django.utils.translation import gettext
from django.views.decorators.http import require_POST, require_safe

from games import engines, get_engine
from turnbased.kit.http import request_guards
from turnbased.accounts.models import is_bot_account
from turnbased.chat import selectors as chat_selectors
from turnbased.contacts import selectors as contacts_selectors
from turnbased.groups import selectors as groups_selectors
from turnbased.clocks.models import ClockKind, ExpiryPolicy, StandIn
from turnbased.clocks.agreed import paused_until
from turnbased.clocks.services import DAYS_PER_MOVE, format_duration, table_clock_of
from turnbased.kit.errors import GameNotFound, PlayError
from turnbased.events.presence import record_visit
from turnbased.kit.http.limits import page_refusal
from turnbased.kit.http.page_actions import act_on_game
from turnbased.play import records, selectors, services
from turnbased.play.models import GameStatus, MoveSource, Visibility
from turnbased.play.presenters import clock_rows, how_to_play_html, invite_url, option_rows, time_control_summary
from turnbased.kit.db.replica import reads_from_replica


def _viewer_or_404(game_id: int, request, invite_code: str | None = None) -> selectors.Viewer:
    try:
        return selectors.viewer_of(game_id, request.user, invite_code=invite_code)
    except GameNotFound:
        raise Http404(gettext("No such game.")) from None


def _page_number(raw: str | None) -> int:
    """Return the page a ``?page=`` asks for: 1 for anything but a positive whole number."""
    return int(raw) if raw and raw.isascii() and raw.isdigit() and len(raw) < 7 and int(raw) > 0 else 1


@require_safe
def lobby(request):
    context = {
        "open_games": selectors.open_games(request.user),
        "engines": engines().values(),
    }
    if request.user.is_authenticated:
        page = selectors.lobby_page(request.user, _page_number(request.GET.get("page")))
        context["rows"], context["page"] = page.rows, page
        context["talk"] = chat_selectors.lobby_talk(  # issue 12, table talk
            page.rows, request.user, game_ids=page.game_ids, my_turn_count=page.my_turn_count)
        context["friends"] = contacts_selectors.lobby_friends(request.user)  # issue 44: friends and blocks
        context["groups"] = groups_selectors.lobby_groups(request.user)  # issue 44: groups
    return render(request, "play/lobby.html", context)


@login_required
def game_new(request):
    """Create a table: a person or a bot in each seat (the first one too, for a table of bots to watch).

    The form shows one seat picker per player; changing the count updates them (by script, or without
    one by sending the form back as a GET, which keeps every choice made so far).
    """
    all_engines = engines()
    form = request.POST if request.method == "POST" else request.GET
    slug = form.get("game")
    if slug is None:
        slug = settings.DEFAULT_GAME if settings.DEFAULT_GAME in all_engines else next(iter(all_engines))
    if slug not in all_engines:
        raise Http404(gettext("No such game."))
    engine = get_engine(slug)
    error = None
    refusal = page_refusal(request, "table_create")
    players = _int_or_none(form.get("players"))
    if refusal:
        error = refusal.detail
    elif request.method == "POST":
        raw_options = {spec.name: _typed(spec, request.POST.get(spec.name)) for spec in engine.option_specs}
        creator_plays = request.POST.get("seat_0", SEAT_ME) == SEAT_ME
        bots = {
            index: request.POST[f"seat_{index}"]
            for index in range(0 if not creator_plays else 1, players or 0)
            if request.POST.get(f"seat_{index}", SEAT_PERSON) not in (SEAT_PERSON, SEAT_ME)
        }
        visibility, terms = _visibility(request.POST.get("visibility", Visibility.PUBLIC))
        requirements = _requirements(request.POST)
        if requirements:
            terms["requirements"] = requirements
        try:
            game = services.create_game(
                creator=request.user,
                engine_slug=slug,
                players=players,
                options=services.user_options(slug, raw_options),
                visibility=visibility,
                bots=bots,
                creator_plays=creator_plays,
                time_control=_time_control(request.POST),
                terms=terms,
            )
        except PlayError as failure:
            error = failure.detail
        else:
            if game.status == GameStatus.OPEN:
                messages.success(request, gettext("Table created. Invite players by name or share the invite link."))
            else:
                messages.success(request, gettext("Table created. Every seat is filled: the game has started."))
            return redirect("game-detail", game.pk)
    context = _new_game_context(engine, all_engines, form, players, error)
    context["groups"] = groups_selectors.groups_for_tables(request.user)  # issue 44: a group's table
    context["chosen_group"] = _chosen_group(form)
    response = render(request, "play/game_new.html", context)
    return refusal.applied_to(response) if refusal else response


def _visibility(chosen: str) -> tuple[str, dict]:
    """Read the "who can join" choice: a visibility, or ``group:<id>`` for a table kept for a group's members
    (private, with the term ``group``: issue 44)."""
    group_id = _chosen_group({"visibility": chosen})
    if group_id is not None:
        return Visibility.PRIVATE, {"group": group_id}
    return chosen, {}


def _requirements(form) -> dict:
    """Read the new-table form's requirements for players (issue 44: fair entry); {} when it asks nothing."""
    numbers = {name: _int_or_none(form.get(name)) for name in
               ("min_reliability", "max_abandoned", "min_finished", "rating_min", "rating_max")}
    chosen = {name: value for name, value in numbers.items() if value is not None}
    flags = {name: form.get(name, "on") != "off" for name in ("provisional_ok", "new_players")}
    return {**chosen, **flags} if chosen or not flags["provisional_ok"] else {}


def _chosen_group(form) -> int | None:
    """Return the group the form chose (``visibility=group:<id>``, or ``?group=<id>`` from a group's page): -1 for
    a choice that names no group (the service says so), None for none."""
    chosen = form.get("visibility") or ""
    raw = chosen.removeprefix("group:") if chosen.startswith("group:") else form.get("group") or ""
    if not raw and not chosen.startswith("group:"):
        return None
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 19 else -1


# What a seat picker may say besides a bot's name.
SEAT_ME, SEAT_PERSON = "me", "person"


def _new_game_context(engine, all_engines, form, players: int | None, error: str | None) -> dict:
    """Return the new-table form's choices, with whatever the player chose so far selected."""
    if players is None or not engine.min_players <= players <= engine.max_players:
        players = engine.default_players
    seats = [
        {"index": index, "number": index + 1, "shown": index < players,
         "chosen": form.get(f"seat_{index}", SEAT_ME if index == 0 else SEAT_PERSON)}
        for index in range(engine.max_players)
    ]
    options = [
        {"spec": spec, "chosen": form.get(spec.name, str(spec.default))} for spec in engine.worded_option_specs()
    ]
    for option in options:
        option["changed"] = option["chosen"] != str(option["spec"].default)
    advanced = [option for option in options if option["spec"].advanced]
    return {
        "engines": all_engines.values(),
        "engine": engine,
        "bots": list(engine.bots()),
        "seats": seats,
        "players": players,
        # The rule variants fold away under "Advanced", open when the form comes back with one changed.
        "options": [option for option in options if not option["spec"].advanced],
        "advanced_options": advanced,
        "advanced_changed": any(option["changed"] for option in advanced),
        "form": form,
        "days_per_move": DAYS_PER_MOVE,
        "expiry_policies": ExpiryPolicy.choices,
        # Only the levels this game offers: a game without a strong bot stands its basic one in.
        "stand_ins": [(value, label) for value, label in StandIn.choices if value in engine.bots()],
        "player_counts": range(engine.min_players, engine.max_players + 1),
        "visibilities": Visibility.choices,
        "error": error,
    }


def _time_control(form) -> dict:
    kind = form.get("clock", "none")
    control = {
        "kind": kind,
        "weekends_off": form.get("weekends_off") == "on",
        "allow_absence": form.get("allow_absence", "on") == "on",
        "expiry": form.get("expiry", ExpiryPolicy.BOT_TURN),
        "stand_in": form.get("stand_in", StandIn.BASIC),
    }
    if kind == "per_move":
        control["days_per_move"] = _int_or_none(form.get("days_per_move")) or 3
    if kind == "bank":
        control["bank_days"] = _int_or_none(form.get("bank_days")) or 7
        control["increment_days"] = _int_or_none(form.get("increment_days")) or 0
    return control


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


def _bot_account_viewer(viewer: selectors.Viewer) -> bool:
    """Tell whether the viewer sits at the game as a bot account (its seat's user comes with its profile: no query).

    A bot account plays through the API: its page shows no moves and no actions.
    """
    seat = next((seat for seat in viewer.game.seats.all() if seat.index == viewer.seat), None)
    return seat is not None and is_bot_account(seat.user)


def _panel_context(request, viewer: selectors.Viewer, error: str | None = None) -> dict:
    game = viewer.game
    engine = get_engine(game.engine)
    bot_account_viewer = _bot_account_viewer(viewer)
    moves = [] if bot_account_viewer else selectors.legal_moves_for(viewer)
    for entry in moves:
        entry["json"] = json.dumps(entry["move"], sort_keys=True)
    view = selectors.private_view(viewer)
    names = list(game.player_names) or [s.display_name for s in game.seats.all()]
    return {
        "game": game,
        "engine": engine,
        "viewer": viewer,
        "version": selectors.version_of(game),
        "view": view,
        "board": engine.board_data(view, moves) if view is not None else None,
        "moves": moves,
        "forced_due": selectors.forced_move_due(viewer, moves),
        "board_template": select_template([f"games/{game.engine}/board.html", "games/_default_board.html"]),
        "board_styles": select_template([f"games/{game.engine}/styles.html", "games/_default_styles.html"]),
        "idempotency_key": uuid.uuid4().hex,
        "error": error,
        "bot_account_viewer": bot_account_viewer,
        "names": names,
        "waiting_for": [names[seat] for seat in game.to_move if seat < len(names)],
        "clocks": _clock_display(game),
        "paused_until": paused_until(table_clock_of(game)) if game.status == GameStatus.ACTIVE else None,
    }


def _clock_display(game) -> list[dict]:
    """Return the clock boxes to show: none for a game without a clock (they would hold only names)."""
    if game.status != GameStatus.ACTIVE or table_clock_of(game).kind == ClockKind.NONE:
        return []
    names = list(game.player_names)
    return [
        {**row, "name": names[row["seat"]] if row["seat"] < len(names) else "", "left": format_duration(row["remaining_seconds"])}
        for row in clock_rows(game)
    ]


def _note_presence(request, viewer: selectors.Viewer) -> None:
    """A player with the page open gets no turn email until they leave it."""
    if viewer.is_player:
        record_visit(user_id=request.user.pk, game_id=viewer.game.pk)


def _header_context(request, viewer: selectors.Viewer) -> dict:
    game = viewer.game
    return {
        "time_control": time_control_summary(game),
        "options": option_rows(game),
        "invite_url": invite_url(game) if viewer.is_player else None,
        "is_creator": request.user.is_authenticated and game.created_by_id == request.user.pk,
        "bot_account_viewer": _bot_account_viewer(viewer),
        "can_join": game.status == GameStatus.OPEN and not viewer.is_player and game.seats.count() < game.seat_count,
        "min_players": get_engine(game.engine).min_players,
        "fairness": records.fairness(game),
    }


@require_safe
def game_detail(request, game_id: int):
    return _game_page(request, _viewer_or_404(game_id, request))


def _game_page(request, viewer: selectors.Viewer, error: str | None = None):
    _note_presence(request, viewer)
    context = {**_panel_context(request, viewer, error), **_header_context(request, viewer)}
    history = selectors.history_page(viewer) if viewer.game.state is not None else None
    context["history"] = chat_selectors.history_with_messages(history, viewer, request.user)  # with the table talk
    context["how_to_play"] = how_to_play_html(viewer.game.engine)
    return render(request, "play/game_detail.html", context)


def _panel_update(request, viewer: selectors.Viewer, seen: int | None, error: str | None = None):
    """Render the panel, with the header and the history entries after seq ``seen`` swapped in out of band."""
    context = {**_panel_context(request, viewer, error), **_header_context(request, viewer)}
    if viewer.game.state is not None:
        entries = selectors.history_after(viewer, seen) if seen is not None else None
        if entries is None:  # the page is too far behind (or did not say where it was): its whole history again
            history = chat_selectors.history_with_messages(selectors.history_page(viewer), viewer, request.user)
            context.update(history=history, history_oob=True)
        else:
            context["new_entries"] = entries
    return render(request, "play/_panel_update.html", context)


def _seq_param(raw: str | None) -> int | None:
    """Return a seq sent by a page (ASCII digits, at most 10), or None for a missing or malformed one."""
    if raw is None or not (raw.isascii() and raw.isdigit()) or len(raw) > 10:
        return None
    return int(raw)


@require_safe
def game_panel(request, game_id: int):
    """Return 204 while the game is at the version the page shows (htmx polls this), else the panel update.

    The version (``?seq=&status=&seated=``, and ``&held=1`` while a feature holds the table) is checked against one
    row before anything is rendered.
    """
    try:
        version, seat = selectors.game_version(game_id, request.user)
    except GameNotFound:
        raise Http404(gettext("No such game.")) from None
    if seat is not None:
        record_visit(user_id=request.user.pk, game_id=game_id)
    seen, seated = _seq_param(request.GET.get("seq")), _seq_param(request.GET.get("seated"))
    shown = selectors.GameVersion(seen, request.GET.get("status"), seated, held=request.GET.get("held") == "1")
    if seen is not None and seated is not None and shown == version:
        return HttpResponse(status=204)
    return _panel_update(request, _viewer_or_404(game_id, request), seen=seen)


@require_safe
@reads_from_replica
def game_history(request, game_id: int):
    """Return the history entries of the moves before ``?before=`` (the latest without it), a page of moves.

    htmx appends them to the game page's history ("Show older"); a browser without it gets a page.
    """
    raw = request.GET.get("before")
    before = _seq_param(raw)
    if raw is not None and before is None:
        return HttpResponseBadRequest(gettext("before must be a move number."))
    viewer = _viewer_or_404(game_id, request)
    game = viewer.game
    history = selectors.history_page(viewer, before=before) if game.state is not None else None
    history = chat_selectors.history_with_messages(history, viewer, request.user, before=before)
    context = {"game": game, "engine": get_engine(game.engine), "history": history}
    template = "play/_history_more.html" if request.headers.get("HX-Request") else "play/game_history.html"
    return render(request, template, context)


@require_POST
@login_required
def game_move(request, game_id: int):
    refusal = page_refusal(request, "moves")
    if refusal:
        return _refused_move(request, game_id, refusal)
    error = None
    viewer = None
    try:
        raw = request.POST.get("move")
        text = request.POST.get("text")
        move = request_guards.loads(raw) if raw else None
        outcome = services.submit_move(
            game_id=game_id,
            user=request.user,
            expected_seq=int(request.POST.get("expected_seq", "-1")),
            move=move,
            text=text.strip() if text and move is None else None,
            source=MoveSource.WEB,
            idempotency_key=request.POST.get("idempotency_key") or None,
        )
    except (ValueError, json.JSONDecodeError):
        error = gettext("That move could not be read; pick one of the listed moves.")
    except GameNotFound:
        raise Http404(gettext("No such game.")) from None
    except PlayError as failure:
        error = failure.detail
    else:
        # The game as the move left it, in memory: nothing to read again.
        viewer = selectors.Viewer(game=outcome.game, seat=selectors.seat_of(outcome.game, request.user))
    if request.headers.get("HX-Request"):
        viewer = viewer or _viewer_or_404(game_id, request)
        return _panel_update(request, viewer, seen=_seq_param(request.POST.get("expected_seq")), error=error)
    if error:
        messages.error(request, error)
    return redirect("game-detail", game_id)


def _refused_move(request, game_id: int, refusal):
    """Show the position again with why the move was not taken: the panel for htmx, else the page."""
    viewer = _viewer_or_404(game_id, request)
    if request.headers.get("HX-Request"):
        response = _panel_update(request, viewer, seen=_seq_param(request.POST.get("expected_seq")),
                                 error=refusal.detail)
    else:
        response = _game_page(request, viewer, refusal.detail)
    return refusal.applied_to(response)


def _act(request, game_id: int, action, success: str, **kwargs):
    return act_on_game(request, game_id, lambda: action(game_id=game_id, user=request.user, **kwargs), success)


@require_POST
@login_required
def game_join(request, game_id: int):
    return _act(request, game_id, services.join_game, gettext("You joined the table."),
                invite_code=request.POST.get("invite_code") or None)


@require_POST
@login_required
def game_start(request, game_id: int):
    return _act(request, game_id, services.start_game, gettext("The game has started."))


@require_POST
@login_required
def game_leave(request, game_id: int):
    return act_on_game(request, game_id, lambda: services.leave_game(game_id=game_id, user=request.user),
                       gettext("You left the table."), then=lambda _: resolve_url("lobby"))


@require_POST
@login_required
def game_resign(request, game_id: int):
    return _act(request, game_id, services.resign_game, gettext("You resigned."))


@require_POST
@login_required
def game_abort(request, game_id: int):
    return _act(request, game_id, services.abort_game, gettext("The table was aborted."))


@login_required
@require_safe
def game_invite(request, game_id: int, invite_code: str):
    """Show a table reached through its invite link, with a join button."""
    viewer = _viewer_or_404(game_id, request, invite_code=invite_code)
    if viewer.is_player:
        return redirect("game-detail", game_id)
    game = viewer.game
    return render(request, "play/game_invite.html", {
        "time_control": time_control_summary(game),
        "game": game,
        "engine": get_engine(game.engine),
        "options": option_rows(game),
        "invite_code": invite_code,
        "seats": list(game.seats.all()),
    })


@login_required
@require_safe
def next_game(request):
    """Open the game that waits for the user most urgently (soonest deadline, then longest waiting)."""
    waiting = [entry for entry in selectors.lobby_order(request.user) if entry["my_turn"]]
    if not waiting:
        messages.info(request, gettext("No game is waiting for you."))
        return redirect("lobby")
    return redirect("game-detail", waiting[0]["id"])
