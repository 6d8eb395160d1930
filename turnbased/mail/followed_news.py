"""Email the news of a game the person follows (issue 46, following games): a move, as any spectator may see it, or
its end, with the position a spectator sees and the link to the game's page.

The notices are rows of the notifications' outbox, written with the move (``following.reactions``) and settled here
once (``delivery.settle``): a notice whose person stopped following, took a seat or may no longer see the game is
skipped; any other tells their stream and webhooks (``followed_move``, ``followed_end``), and is emailed as their
email settings say. A move's email is skipped when a newer move came first, when the person has the game open, and
when they were emailed of that game's moves within the hour: a game moved on by bots, or by two players online at
once, sends one email, not one a minute. A reply saying ``stop`` stops following (``watch_replies``).
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from turnbased.events.presence import is_present
from turnbased.following import selectors as following
from turnbased.following.models import Notify, Watch
from turnbased.mail import compose
from turnbased.mail.tokens import watch_reply_address
from turnbased.notifications.models import Notification, NotificationKind
from turnbased.play import selectors, store
from turnbased.play.models import GameStatus

KINDS = (NotificationKind.FOLLOWED_MOVE, NotificationKind.FOLLOWED_END)
# The watches a notice of each kind is for (``Notify``).
LEVELS = {NotificationKind.FOLLOWED_MOVE: (Notify.MOVES,), NotificationKind.FOLLOWED_END: (Notify.MOVES, Notify.ENDS)}
# At most one email of a followed game's moves in this time (its stream and webhooks hear of each).
EMAIL_GAP = timedelta(hours=1)


def refusal(notification: Notification) -> str | None:
    """Why the notice is no longer for its person (skipped, nothing told), or None."""
    return following.notice_refusal(notification.user, notification.game, LEVELS[notification.kind])


def decide(notification: Notification, preference) -> tuple[str, str]:
    """Whether the notice is worth an email: ("send", "") or ("skip", why)."""
    user, game = notification.user, notification.game
    if not preference.game_emails:
        return "skip", "game emails off"
    if notification.kind == NotificationKind.FOLLOWED_END:
        return "send", ""
    if game.status != GameStatus.ACTIVE or game.seq != notification.seq:
        return "skip", "superseded"
    if is_present(user.pk, game.pk):
        return "skip", "has the game open"
    if Notification.objects.filter(user=user, game=game, kind=NotificationKind.FOLLOWED_MOVE,
                                   sent_at__gte=timezone.now() - EMAIL_GAP).exists():
        return "skip", "emailed within the hour"
    return "send", ""


def _watch_of(notification: Notification) -> Watch | None:
    """The watch that brought the notice: the game's own, else its group's, else its competition's."""
    watches = list(Watch.objects.filter(user=notification.user).filter(following.covering(notification.game_id))
                   .select_related("game", "group", "competition"))
    return min(watches, key=lambda watch: following.KINDS.index(watch.kind), default=None)


def followed_email(notification: Notification):
    """Write the email of one notice: the game's news since the move before, as a spectator reads it; a reply
    ``stop`` stops the watch that brought it (``watch_replies``)."""
    user, game = notification.user, notification.game
    watch = _watch_of(notification)
    with compose.for_recipient(user):  # the subject too, in the recipient's language
        viewer = selectors.Viewer(game=game, seat=None)
        view = selectors.private_view(viewer)  # a spectator's: the public view
        engine = store.engine_of(game)
        ended = notification.kind == NotificationKind.FOLLOWED_END
        context = {
            "user": user, "ended": ended, "game_name": game.title, "game": game,
            "players": compose.seat_names(game),
            "news": [entry["text"] for entry in selectors.visible_history(viewer, since=notification.seq - 1)],
            "position": engine.view_text(view) if view is not None else "",
            "picture": engine.view_picture(view) if view is not None else None,
            "waiting_for": [game.player_names[i] for i in game.to_move] if game.status == GameStatus.ACTIVE else [],
            "result": game.result_line if ended else "",
            "game_url": compose.game_url(game),
            "following_url": settings.SITE_URL + reverse("following"),
            "watch_name": following.watch_shown(watch)["name"] if watch else "",
        }
        reply_to = watch_reply_address(user_id=user.pk, watch_id=watch.pk) if watch else None
        if ended:
            subject = _("Game over in a game you follow: %(game)s") % {"game": game.title}
        else:
            subject = _("A move in a game you follow: %(game)s") % {"game": game.title}
        return compose.build(to=user.email, subject=subject, template="followed", context=context, user=user,
                             reply_to=reply_to)
