"""Games waiting on a person, and how many more they may take on (docs/players.md, "Games waiting on you").

A person who has more games waiting on them than a site-set number (``GAMES_WAITING_TO_CREATE``, 3, and
``GAMES_WAITING_TO_JOIN``, 4) creates no table and takes no seat until they answer some: the games where it is
their turn (with another person at the table: a game against bots keeps nobody waiting), the invitations to open
tables they have not answered, and the tables they sit at or made that have not started. A new account also has a
cap on its games not yet finished (``NEW_ACCOUNT_OPEN_GAMES``, 3), one higher for every game it played to the end.
Bot accounts have neither limit: they answer at once. A limit set to ``off`` does not apply.

Everything is read in one statement (``standing``), which the lobby, the new-table page and the API show as where
the person stands ("you can join 2 more games"), and which a creation and a join check under the person's row lock.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import connection
from django.utils.translation import gettext, ngettext

from turnbased.accounts.models import Profile
from turnbased.play.models import Game, GameStatus, Invitation, Seat


@dataclass(frozen=True)
class Limits:
    """The site's limits: None where one is off."""

    to_create: int | None
    to_join: int | None
    new_account_games: int | None


def limits() -> Limits:
    return Limits(to_create=settings.GAMES_WAITING_TO_CREATE, to_join=settings.GAMES_WAITING_TO_JOIN,
                  new_account_games=settings.NEW_ACCOUNT_OPEN_GAMES)


@dataclass(frozen=True)
class Standing:
    """What waits on a person, and what they may still take on under the site's limits."""

    turns: int          # games in play where it is their turn, with another person at the table
    invitations: int    # invitations to open tables they have not answered
    tables: int         # open tables they sit at or made
    open_games: int     # games they play that have not finished (for the new account's cap)
    finished: int       # games they played to the end
    exempt: bool        # a bot account: no limit applies
    limits: Limits

    @property
    def waiting(self) -> int:
        return self.turns + self.invitations + self.tables

    @property
    def open_games_cap(self) -> int | None:
        """How many games not yet finished the account may have (None: no cap)."""
        if self.exempt or self.limits.new_account_games is None:
            return None
        return self.limits.new_account_games + self.finished

    @property
    def may_join(self) -> int | None:
        """How many more seats the person may take now (None: as many as they like)."""
        room = []
        if not self.exempt and self.limits.to_join is not None:
            # Refused while more than the limit wait: each seat taken adds a table waiting to start.
            room.append(self.limits.to_join + 1 - self.waiting)
        if self.open_games_cap is not None:
            room.append(self.open_games_cap - self.open_games)
        return max(0, min(room)) if room else None

    @property
    def may_create(self) -> bool:
        return self.why_not_create(plays=True) is None

    def why_not_join(self) -> str | None:
        """Why the person may take no seat now, in the active language, or None."""
        if not self.exempt and self.limits.to_join is not None and self.waiting > self.limits.to_join:
            return ngettext(
                "%(count)s game waits on you (your turns, invitations to answer and your tables not yet started); "
                "while more than %(limit)s do, you cannot join another. Take your turns or answer an invitation "
                "first.",
                "%(count)s games wait on you (your turns, invitations to answer and your tables not yet started); "
                "while more than %(limit)s do, you cannot join another. Take your turns or answer an invitation "
                "first.", self.waiting) % {"count": self.waiting, "limit": self.limits.to_join}
        return self._over_cap()

    def why_not_create(self, *, plays: bool) -> str | None:
        """Why the person may make no table that waits for players now, in the active language, or None."""
        if not self.exempt and self.limits.to_create is not None and self.waiting > self.limits.to_create:
            return ngettext(
                "%(count)s game waits on you (your turns, invitations to answer and your tables not yet started); "
                "while more than %(limit)s do, you cannot create a table. Take your turns or answer an invitation "
                "first.",
                "%(count)s games wait on you (your turns, invitations to answer and your tables not yet started); "
                "while more than %(limit)s do, you cannot create a table. Take your turns or answer an invitation "
                "first.", self.waiting) % {"count": self.waiting, "limit": self.limits.to_create}
        return self._over_cap() if plays else None

    def _over_cap(self) -> str | None:
        cap = self.open_games_cap
        if cap is None or self.open_games < cap:
            return None
        return ngettext(
            "A new account may play %(cap)s game at once, and one more for every game it finishes; you play "
            "%(count)s. Finish one before you take on another.",
            "A new account may play %(cap)s games at once, and one more for every game it finishes; you play "
            "%(count)s. Finish one before you take on another.", cap) % {"cap": cap, "count": self.open_games}

    def worded(self) -> str:
        """Say where the person stands, in the active language (the lobby and the new-table page); "" when no
        limit applies to them."""
        more = self.may_join
        if more is None:
            return ""
        if more == 0:
            return self.why_not_join() or ""
        said = [ngettext("%(count)s game waits on you (your turns, invitations to answer and your tables not yet "
                         "started).", "%(count)s games wait on you (your turns, invitations to answer and your tables "
                         "not yet started).", self.waiting) % {"count": self.waiting},
                ngettext("You can join %(count)s more game.", "You can join %(count)s more games.", more)
                % {"count": more}]
        if not self.may_create:
            said.append(gettext("You can create a table again once fewer games wait on you."))
        return " ".join(said)


def _table(model) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def _statement(*, lock: bool) -> str:
    game, seat, invitation, profile = _table(Game), _table(Seat), _table(Invitation), _table(Profile)
    user = _table(get_user_model())
    another_person = (f"EXISTS (SELECT 1 FROM {seat} other WHERE other.game_id = s.game_id AND other.user_id IS NOT "
                      f"NULL AND other.user_id <> s.user_id AND other.bot = '')")
    return f"""
        SELECT
          (SELECT count(*) FROM {seat} s JOIN {game} g ON g.id = s.game_id
            WHERE s.user_id = u.id AND s.bot = '' AND g.status = %(active)s
              AND g.to_move @> to_jsonb(s.index) AND {another_person}),
          (SELECT count(*) FROM {invitation} i JOIN {game} g ON g.id = i.game_id
            WHERE i.user_id = u.id AND i.declined_at IS NULL AND g.status = %(open)s
              AND i.game_id <> %(besides)s
              AND NOT EXISTS (SELECT 1 FROM {seat} mine WHERE mine.game_id = i.game_id AND mine.user_id = u.id)),
          (SELECT count(*) FROM (
              SELECT g.id FROM {game} g WHERE g.created_by_id = u.id AND g.status = %(open)s AND g.id <> %(besides)s
              UNION
              SELECT g.id FROM {seat} mine JOIN {game} g ON g.id = mine.game_id
                WHERE mine.user_id = u.id AND g.status = %(open)s AND g.id <> %(besides)s) tables),
          (SELECT count(*) FROM {seat} s JOIN {game} g ON g.id = s.game_id
            WHERE s.user_id = u.id AND s.bot = '' AND s.left_at IS NULL AND g.id <> %(besides)s
              AND (g.status = %(open)s OR (g.status = %(active)s AND {another_person}))),
          (SELECT count(*) FROM {seat} s JOIN {game} g ON g.id = s.game_id
            WHERE s.user_id = u.id AND s.bot = '' AND g.status = %(finished)s),
          COALESCE((SELECT p.is_bot_account FROM {profile} p WHERE p.user_id = u.id), false)
        FROM {user} u WHERE u.id = %(user)s
        {"FOR UPDATE OF u" if lock else ""}
    """


def standing(user: AbstractBaseUser, *, besides: Game | None = None, lock: bool = False) -> Standing:
    """Return what waits on the user and what they may take on, in one statement; leave ``besides`` out of the
    count (the table they are about to join: its invitation is answered by the join). With ``lock``, the user's row
    is locked for the transaction, so two creations or joins at once cannot both pass the count."""
    parameters = {"user": user.pk, "active": GameStatus.ACTIVE, "open": GameStatus.OPEN,
                  "finished": GameStatus.FINISHED, "besides": besides.pk if besides is not None else 0}
    with connection.cursor() as cursor:
        cursor.execute(_statement(lock=lock), parameters)
        row = cursor.fetchone()
    if row is None:
        return Standing(0, 0, 0, 0, 0, True, limits())
    turns, invitations, tables, open_games, finished, exempt = row
    return Standing(turns=turns, invitations=invitations, tables=tables, open_games=open_games, finished=finished,
                    exempt=bool(exempt), limits=limits())


def any_limit() -> bool:
    """Whether any limit is on (when none is, nothing need be read)."""
    current = limits()
    return any(value is not None for value in (current.to_create, current.to_join, current.new_account_games))
