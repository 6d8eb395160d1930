"""Pages: the leaderboards, a player's page and their finished-games archive. Anyone may read them."""

from __future__ import annotations

from django.conf import settings
from django.core.paginator import InvalidPage
from django.http import Http404
from django.shortcuts import render
from django.views.decorators.http import require_safe

from games import engines, get_engine
from turnbased.contacts import selectors as contacts_selectors
from turnbased.ratings import selectors
from turnbased.ratings.models import RatingPool
from turnbased.ratings.rules import DISPLAY_BASE, DISPLAY_SCALE, RATED_MIN_OWN_MOVES
from turnbased.kit.db.replica import reads_from_replica


def _player_or_404(username: str):
    try:
        return selectors.player_named(username)
    except selectors.NoSuchPlayer:
        raise Http404("No such player.") from None


def _whole_number(raw: str | None) -> int | None:
    """Return a query parameter of ASCII digits as a number, None when absent; 404 for anything else."""
    if raw is None or raw == "":
        return None
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 9:
        raise Http404("No such page.")
    return int(raw)


@require_safe
@reads_from_replica
def ratings_index(request):
    games = [
        {"engine": engine, "player_counts": selectors.player_counts(slug)} for slug, engine in engines().items()
    ]
    return render(request, "ratings/index.html", {"games": games})


@require_safe
@reads_from_replica
def leaderboard(request, game_slug: str):
    if game_slug not in engines():
        raise Http404("No such game.")
    engine = get_engine(game_slug)
    players = _whole_number(request.GET.get("players"))
    players = engine.default_players if players is None else players
    if players not in selectors.player_counts(game_slug):
        raise Http404(f"{engine.display_name()} is not played by {players}.")
    pool = request.GET.get("pool") or RatingPool.PEOPLE
    if pool not in RatingPool.values:
        raise Http404("No such rating pool.")
    try:
        page = selectors.leaderboard_page(game_slug, players, _whole_number(request.GET.get("page")), pool)
    except InvalidPage:
        raise Http404("No such page.") from None
    return render(request, "ratings/leaderboard.html", {
        "engine": engine, "players": players, "player_counts": selectors.player_counts(game_slug), "page": page,
        "pool": pool, "pools": RatingPool.choices, "display_base": DISPLAY_BASE, "display_scale": DISPLAY_SCALE,
        # Which games count, as the site is set (docs/players.md, "Ratings and players").
        "provisional_games": settings.RATINGS_PROVISIONAL_GAMES, "min_own_moves": RATED_MIN_OWN_MOVES,
        "min_days": settings.RATINGS_MIN_ACCOUNT_DAYS, "min_games": settings.RATINGS_MIN_FINISHED_GAMES,
        "related_minutes": settings.RATINGS_RELATED_SIGNUP_MINUTES, "per_day": settings.RATINGS_SAME_PLAYERS_PER_DAY,
    })


@require_safe
@reads_from_replica
def player_profile(request, username: str):
    player = _player_or_404(username)
    return render(request, "ratings/player.html", {
        "player": player,
        "records": selectors.game_records(player, request.user),
        "ratings": selectors.ratings_of(player),
        "reliability": selectors.reliability(player, request.user),
        "abandonment": selectors.abandonment(player, request.user),  # issue 44: fair entry
        "active_days_ago": selectors.days_since_active(player, request.user),
        "provisional_games": settings.RATINGS_PROVISIONAL_GAMES,
        # Issue 44: whether I follow or blocked them (my own lists: never whether they blocked me).
        "follows": contacts_selectors.is_followed(request.user, player),
        "blocks": contacts_selectors.is_blocked(request.user, player),
    })


@require_safe
@reads_from_replica
def player_games(request, username: str):
    player = _player_or_404(username)
    game_slug = request.GET.get("game") or None
    if game_slug is not None and game_slug not in engines():
        raise Http404("No such game.")
    opponent = request.GET.get("opponent") or None
    if opponent is not None and not selectors.is_username(opponent):
        raise Http404("No such player.")
    try:
        page = selectors.archive_page(player, request.user, _whole_number(request.GET.get("page")),
                                      game_slug=game_slug, opponent=opponent)
    except InvalidPage:
        raise Http404("No such page.") from None
    filters = {key: value for key, value in (("game", game_slug), ("opponent", opponent)) if value}
    return render(request, "ratings/player_games.html", {
        "player": player,
        "page": page,
        "engines": engines().values(),
        "opponents": selectors.opponents(player, request.user),
        "game_slug": game_slug,
        "opponent": opponent,
        "filters": filters,
    })
