"""Reads of following: a person's watches, what they may follow, their feed of followed games (as any spectator
sees them), whether a notice of a followed game may still be delivered, and the words of its stream event."""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext

from turnbased.competitions.models import Competition, CompetitionStatus, EventTable
from turnbased.competitions.selectors import competition_for, visible_to
from turnbased.events.models import Event
from turnbased.following.models import Watch
from turnbased.groups.models import GroupTable, Membership
from turnbased.groups.selectors import group_of
from turnbased.kit.errors import Conflict, GameNotFound, NotAllowed, NotFound
from turnbased.play import selectors as play_selectors
from turnbased.play.models import Game, GameStatus, Seat, Visibility

KINDS = ("game", "group", "competition")
# Enough for every club and event a person plays in and the games they care to watch; a longer list is a crawler's.
MOST_WATCHES = 200
# The feed keeps a finished game this long after its end (its result, and its full reveal on its page).
FEED_KEEPS_ENDED = timedelta(days=7)
# The lobby shows this many of the feed; the following page the rest, a page at a time.
LOBBY_LISTED = 5


def watches_of(user: AbstractBaseUser) -> QuerySet[Watch]:
    """The person's watches, the newest first, each with what it names (one query)."""
    return (Watch.objects.filter(user=user).select_related("game", "group", "competition")
            .defer("game__state").order_by("-created_at", "-pk"))


def watch_for(watch_id, user: AbstractBaseUser) -> Watch:
    """Return one of the person's own watches; ``NotFound`` for any other id (another's watch does not exist for
    them)."""
    found = None
    if isinstance(watch_id, int) and not isinstance(watch_id, bool) and 0 < watch_id < 2**63 and user.is_authenticated:
        found = watches_of(user).filter(pk=watch_id).first()
    if found is None:
        raise NotFound(gettext("You follow nothing with that id."))
    return found


def watch_of(user: AbstractBaseUser | AnonymousUser, kind: str, target_id: int) -> Watch | None:
    """The person's watch of one game, group or competition, or None."""
    if not user.is_authenticated:
        return None
    return Watch.objects.filter(user=user, **{f"{kind}_id": target_id}).first()


def target_for(kind: str, target_id, user: AbstractBaseUser):
    """Return what ``user`` asks to follow, refused as the rules say (docs/players.md, "Following games"):

    - a game they may see (any other does not exist for them: ``GameNotFound``), open or in play, at which they do not
      sit (they hear of its moves as its player);
    - a group they are a member of (its games are its members' to see);
    - a competition they may see (any other does not exist for them), not over.
    """
    if kind == "game":
        if not isinstance(target_id, int) or isinstance(target_id, bool) or not 0 < target_id < 2**63:
            raise GameNotFound()
        viewer = play_selectors.viewer_of(target_id, user)
        if viewer.seat is not None:
            raise Conflict(gettext("You play at this table: its moves reach you already."))
        if viewer.game.status not in (GameStatus.OPEN, GameStatus.ACTIVE):
            raise Conflict(gettext("This game is over: its page keeps it, with everything it hid."))
        return viewer.game
    if kind == "group":
        group = group_of(target_id)
        if not Membership.objects.filter(group=group, user=user).exists():
            raise NotAllowed(gettext("A group's games are for its members to see: join the group to follow them."))
        return group
    competition = competition_for(target_id, user)
    if competition.status in (CompetitionStatus.FINISHED, CompetitionStatus.CANCELLED):
        raise Conflict(gettext("This competition is over: its page keeps its games and standings."))
    return competition


def _covered(user: AbstractBaseUser) -> Q:
    """The games the person's watches cover: each followed game, every game of a followed group or competition."""
    mine = Watch.objects.filter(user=user)
    return (Q(pk__in=mine.filter(game__isnull=False).values("game_id"))
            | Q(pk__in=GroupTable.objects.filter(group_id__in=mine.filter(group__isnull=False).values("group_id"))
                .values("game_id"))
            | Q(pk__in=EventTable.objects.filter(
                round__stage__competition_id__in=mine.filter(competition__isnull=False).values("competition_id"),
                game__isnull=False).values("game_id")))


def _seen_by(user: AbstractBaseUser) -> Q:
    """The games the person may see without sitting at them: public ones, their groups' tables, the tables of the
    competitions they may see; never a held one (its seats' alone until it is let go)."""
    member_of = Membership.objects.filter(user=user).values("group_id")
    competitions = Competition.objects.filter(visible_to(user)).values("pk")
    return Q(held=False) & (
        Q(visibility=Visibility.PUBLIC)
        | Q(pk__in=GroupTable.objects.filter(group_id__in=member_of).values("game_id"))
        | Q(pk__in=EventTable.objects.filter(round__stage__competition_id__in=competitions, game__isnull=False)
            .values("game_id")))


def feed(user: AbstractBaseUser) -> QuerySet[Game]:
    """The games the person follows, as any spectator sees them: in play, or ended within a week (its result and its
    full reveal), never one they sit at (their own list has it), the latest news first."""
    recent = timezone.now() - FEED_KEEPS_ENDED
    return (Game.objects.filter(_covered(user)).filter(_seen_by(user))
            .filter(Q(status=GameStatus.ACTIVE) | Q(status=GameStatus.FINISHED, finished_at__gte=recent))
            .exclude(Exists(Seat.objects.filter(game=OuterRef("pk"), user=user)))
            .select_related("clock").defer("state").order_by("-last_move_at", "-pk"))


def feed_rows(games: list[Game]) -> list[dict]:
    """Each game of a feed page with its seats and its latest move as a spectator reads it (never a seat's words,
    whoever asks: a followed game shows what anyone may see)."""
    games = play_selectors.with_seats(games)
    lines = play_selectors.last_move_lines(games, AnonymousUser())
    return [{"game": game, "line": lines.get(game.pk, "")} for game in games]


def lobby_feed(user: AbstractBaseUser) -> dict:
    """The lobby's few followed games and whether there are more; nothing (no query past one) for a person who
    follows nothing."""
    if not user.is_authenticated or not Watch.objects.filter(user=user).exists():
        return {"rows": [], "more": False, "follows": False}
    games = list(feed(user)[:LOBBY_LISTED + 1])
    return {"rows": feed_rows(games[:LOBBY_LISTED]), "more": len(games) > LOBBY_LISTED, "follows": True}


def notice_refusal(user: AbstractBaseUser, game: Game, levels: tuple[str, ...]) -> str | None:
    """Why a notice of a followed game is no longer for the person (skipped at delivery), or None: they stopped
    following it or lowered what their watch tells, took a seat at it, or may no longer see it (left its group, it is
    held)."""
    if not Watch.objects.filter(user=user, notify__in=levels).filter(covering(game.pk)).exists():
        return "no longer followed"
    if Seat.objects.filter(game=game, user=user).exists():
        return "plays at the table"
    if not Game.objects.filter(pk=game.pk).filter(_seen_by(user)).exists():
        return "may not see the game"
    return None


def covering(game_id: int) -> Q:
    """The watches that cover one game (itself, its group, its competition)."""
    return (Q(game_id=game_id)
            | Q(group_id__in=GroupTable.objects.filter(game_id=game_id).values("group_id"))
            | Q(competition_id__in=EventTable.objects.filter(game_id=game_id).values("round__stage__competition_id")))


def watch_shown(watch: Watch) -> dict:
    """A watch as the API and the pages show it: what it names (its id and name) and what it tells."""
    target = watch.game or watch.group or watch.competition
    name = target.title if watch.game_id else target.name
    return {"id": watch.pk, "kind": watch.kind, "target": watch.target_id, "name": name, "notify": watch.notify,
            "created_at": watch.created_at}


def word_followed_event(payload: dict, event: Event) -> dict:
    """The words of a ``followed_move`` or ``followed_end`` event (``text``), in the reader's language, after the move's
    entries and the result were worded for a spectator (``play.player_events``): the rows hold nothing of any hand."""
    title = payload.get("name") or f"#{event.game_id}"
    if event.kind == "followed_end":
        result = payload.get("result") if isinstance(payload.get("result"), dict) else {}
        text = gettext("%(game)s, which you follow, is over.") % {"game": title}
        summary = result.get("summary")
    else:
        text = gettext("%(game)s, which you follow, moved on.") % {"game": title}
        summary = payload.get("text")
    return {**payload, "text": f"{text} {summary}" if summary else text}
