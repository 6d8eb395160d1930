"""Reads of table talk: who may read a game's chat, its messages as a reader sees them, unread counts.

Players of a game read and write its chat; anyone who may see a public game
reads it; a private game's chat exists only for those who may see the game
(``play.selectors.viewer_of``). Every read leaves out the authors the reader
muted or blocked. No read grows with the length of the chat: pages of messages, counts
and latest ids are single queries.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import connection
from django.db.models import BigIntegerField, Count, IntegerField, OuterRef, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce

from turnbased.accounts.models import is_bot_account
from turnbased.chat.models import Message, Mute, ReadMark
from turnbased.contacts.selectors import blocked_ids
from turnbased.kit.errors import GameNotFound
from turnbased.play import selectors as play_selectors
from turnbased.play.models import Game, GameStatus, Seat, Visibility

# The game page shows this many latest messages; a page of the API holds API_PAGE unless asked otherwise.
PAGE_MESSAGES = 50
API_PAGE = 100


def chat_viewer(game_id: int, user: AbstractBaseUser | AnonymousUser) -> play_selectors.Viewer:
    """Return the user's place at the game, as the game page has it; ``GameNotFound`` where they may not see it."""
    return play_selectors.viewer_of(game_id, user)


def muted_ids(user: AbstractBaseUser | AnonymousUser):
    """Return the ids of the people the user muted or blocked (a block mutes), as a subquery (nobody for a
    visitor)."""
    if not user.is_authenticated:
        return Mute.objects.none().values("muted_id")
    return Mute.objects.filter(user_id=user.pk).values("muted_id").union(blocked_ids(user))


def muted_players(user: AbstractBaseUser | AnonymousUser) -> list[str]:
    """Return the names of the people the user muted, alphabetically."""
    if not user.is_authenticated:
        return []
    return sorted(Mute.objects.filter(user_id=user.pk).values_list("muted__username", flat=True), key=str.lower)


def visible_messages(game: Game | int, user: AbstractBaseUser | AnonymousUser) -> QuerySet[Message]:
    """Return the game's messages the user sees (muted authors left out), with their authors (and whether each is
    a bot account), oldest first."""
    game_id = game if isinstance(game, int) else game.pk
    return (Message.objects.filter(game_id=game_id).exclude(author_id__in=muted_ids(user))
            .select_related("author", "author__profile").order_by("id"))


def latest_messages(game: Game, user, *, limit: int = PAGE_MESSAGES) -> list[Message]:
    """Return the latest ``limit`` messages the user sees, oldest first."""
    return list(reversed(visible_messages(game, user).order_by("-id")[:limit]))


@dataclass(frozen=True)
class MessagePage:
    """Messages after an id, oldest first, and whether more follow the last one."""

    messages: list[Message]
    more: bool


def messages_after(game: Game, user, *, after: int = 0, limit: int = API_PAGE) -> MessagePage:
    """Return up to ``limit`` messages the user sees with an id above ``after``, oldest first."""
    found = list(visible_messages(game, user).filter(id__gt=after)[: limit + 1])
    return MessagePage(messages=found[:limit], more=len(found) > limit)


def messages_between_moves(game: Game, user, *, low_seq: int, high_seq: int) -> list[Message]:
    """Return the messages written from move ``low_seq`` to move ``high_seq`` (both included), oldest first."""
    return list(visible_messages(game, user).filter(seq__gte=low_seq, seq__lte=high_seq))


def messages_for_email(game: Game, user, *, since_seq: int) -> list[Message]:
    """Return what the others said since the user's last move (seq ``since_seq``), for a turn email; the latest 20."""
    found = visible_messages(game, user).filter(seq__gte=since_seq).exclude(author_id=user.pk).order_by("-id")[:20]
    return list(reversed(found))


def unread_count(game: Game, user) -> int:
    """Return how many messages by others the player has not seen in this game."""
    if not user.is_authenticated:
        return 0
    return unread_counts(user, [game.pk]).get(game.pk, 0)


def unread_counts(user: AbstractBaseUser, game_ids: list[int]) -> dict[int, int]:
    """Return, per game, the messages by others after the user's read mark (muted authors left out), in one query."""
    if not game_ids:
        return {}
    mark = ReadMark.objects.filter(user_id=user.pk, game_id=OuterRef("game_id")).values("last_read_id")[:1]
    rows = (
        Message.objects.filter(game_id__in=game_ids)
        .exclude(author_id=user.pk).exclude(author_id__in=muted_ids(user))
        .filter(id__gt=Coalesce(Subquery(mark), Value(0), output_field=BigIntegerField()))
        .order_by().values("game_id").annotate(unread=Count("id")).values_list("game_id", "unread")
    )
    return dict(rows)


@dataclass(frozen=True)
class ChatState:
    """What a chat poll compares with what the page shows, read from one row."""

    latest_id: int
    your_turn: bool


def chat_state(game_id: int, user: AbstractBaseUser | AnonymousUser) -> ChatState:
    """Return the latest message id the user sees and whether it is their turn, in one query.

    Raises ``GameNotFound`` as ``viewer_of`` does for a private game the user may not see.
    """
    if user.is_authenticated:
        mine = Subquery(Seat.objects.filter(game=OuterRef("pk"), user_id=user.pk).values("index")[:1])
    else:
        mine = Value(None, output_field=IntegerField())
    latest = (Message.objects.filter(game=OuterRef("pk")).exclude(author_id__in=muted_ids(user))
              .order_by("-id").values("id")[:1])
    game = (
        Game.objects.filter(pk=game_id)
        .annotate(my_seat=mine, latest=Coalesce(Subquery(latest), Value(0), output_field=BigIntegerField()))
        .only("status", "visibility", "created_by", "to_move", "held")
        .first()
    )
    if game is None or not _may_read(game, game.my_seat, user):
        raise GameNotFound()
    your_turn = game.status == GameStatus.ACTIVE and game.my_seat is not None and game.my_seat in game.to_move
    return ChatState(latest_id=game.latest, your_turn=your_turn)


def _may_read(game: Game, seat: int | None, user) -> bool:
    """Tell whether the chat exists for the user: the same rule as the game page (no invite code)."""
    if seat is not None:
        return True
    if game.held:
        return False
    if game.visibility != Visibility.PRIVATE:
        return True
    return user.is_authenticated and game.created_by_id == user.pk


def history_with_messages(history, viewer: play_selectors.Viewer, user, *, before: int | None = None):
    """Return a page of history (``play.selectors.HistoryPage``) with the chat of its moves in place, newest first.

    A message written at seq ``s`` follows move ``s``'s entries; messages written
    before the first move belong to the oldest page.
    """
    if history is None:
        return None
    game = viewer.game
    high = game.seq if before is None else min(before, game.seq + 1) - 1
    low = history.older_than or 0
    if high < low:
        return history
    messages = messages_between_moves(game, user, low_seq=low, high_seq=high)
    if not messages:
        return history
    chronological = list(reversed(history.entries))
    keyed = [((entry["seq"], 0, number), entry) for number, entry in enumerate(chronological)]
    keyed += [((message.seq, 1, message.pk), message_entry(message)) for message in messages]
    keyed.sort(key=lambda pair: pair[0])
    return play_selectors.HistoryPage(entries=[entry for _, entry in reversed(keyed)], older_than=history.older_than)


def message_entry(message: Message) -> dict:
    """Return a history entry for a message (``kind`` "chat"), alongside the moves' entries."""
    return {
        "seq": message.seq,
        "kind": "chat",
        "private": False,
        "message_id": message.pk,
        "author": message.author.get_username(),
        "author_bot_account": is_bot_account(message.author),
        "text": message.text,
        "created_at": message.created_at,
    }


def chat_panel(viewer: play_selectors.Viewer, user) -> dict:
    """Return what the chat beside the board shows the viewer: the latest messages, unread, turn, mutes."""
    game = viewer.game
    shown = latest_messages(game, user)
    return {
        "messages": shown,
        "latest_id": shown[-1].pk if shown else 0,
        "unread": unread_count(game, user) if viewer.is_player else 0,
        "your_turn": game.status == GameStatus.ACTIVE and viewer.is_player and viewer.seat in game.to_move,
        "is_player": viewer.is_player,
        "muted": muted_players(user),
    }


def lobby_talk(rows: list[dict], user: AbstractBaseUser, *, game_ids: list[int], my_turn_count: int) -> dict:
    """Add each lobby row's ``unread`` count and return the totals the tab title shows, over all ``game_ids``.

    The lobby shows a page of the user's games; the title counts every game (one query for all).
    """
    counts = unread_counts(user, game_ids)
    for row in rows:
        row["unread"] = counts.get(row["game"].pk, 0)
    return {
        "unread": sum(counts.values()),
        "your_turn": my_turn_count,
        "version": lobby_version(user),
    }


# One statement: the shape of the user's games (id, position, status, seats taken), the latest message of
# others in them (muted authors left out: what they write changes nothing the user sees), and how far the
# user has read; the lobby changes exactly when this does.
_LOBBY_VERSION_SQL = """
SELECT
  (SELECT md5(coalesce(string_agg(g.id || '.' || g.seq || '.' || g.status || '.'
                                   || (SELECT count(*) FROM play_seat t WHERE t.game_id = g.id), ',' ORDER BY g.id), ''))
     FROM play_game g WHERE g.id IN (SELECT s.game_id FROM play_seat s WHERE s.user_id = %(user)s)),
  (SELECT coalesce(max(m.id), 0) FROM chat_message m
     WHERE m.game_id IN (SELECT s.game_id FROM play_seat s WHERE s.user_id = %(user)s) AND m.author_id <> %(user)s
       AND m.author_id NOT IN (SELECT u.muted_id FROM chat_mute u WHERE u.user_id = %(user)s)
       AND m.author_id NOT IN (SELECT b.blocked_id FROM contacts_block b WHERE b.blocker_id = %(user)s)),
  (SELECT coalesce(sum(r.last_read_id), 0) FROM chat_readmark r WHERE r.user_id = %(user)s)
"""


def lobby_version(user: AbstractBaseUser) -> str:
    """Return a short text that changes whenever the user's lobby would show something else."""
    with connection.cursor() as cursor:
        cursor.execute(_LOBBY_VERSION_SQL.strip(), {"user": user.pk})
        games, said, read = cursor.fetchone()
    return f"{games[:12]}-{said}-{read}"
