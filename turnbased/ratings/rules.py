"""The rating rules: which games count and in which pool, how a result becomes places, and the number people see.

Pure functions over the engine contract's ``result`` (``games/base.py``: ``winners``,
``scores``, ``ranking``, ``draw``), the platform's record of who left, and what the
services read of the players' accounts (``Player``); nothing here reads a game's own
details or the database. The thresholds are site settings (``RATINGS_*``, docs/operating.md).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from itertools import combinations
from typing import Any

from django.conf import settings
from openskill.models import PlackettLuce

from games.base import ALL_LOSE

# openskill's default model and priors: a new player is mu 25, sigma 25/3.
MODEL = PlackettLuce()

# The displayed rating: openskill's ordinal (mu - 3 sigma, the skill the player has with 99.7% certainty),
# scaled and shifted so a new player shows 1000 and every game moves it by a few dozen points.
DISPLAY_BASE = 1000
DISPLAY_SCALE = 20

# Too short to count (issue 27: three quick resignations lifted an account from 1000 to 1168 in a minute): a
# game that a resignation or a seat handed to a bot ends is rated only when every player had made at least this
# many moves of their own, as lichess and BGA rate no game abandoned in its first moves.
RATED_MIN_OWN_MOVES = 3
# Mailbox providers known to ignore dots in the name before the @ (a.l.i.c.e@ and alice@ reach one mailbox).
DOTLESS_MAILBOXES = {"gmail.com": "gmail.com", "googlemail.com": "gmail.com"}


def display_rating(mu: float, sigma: float) -> int:
    """Return the rating as people see it: round(1000 + 20 × (mu − 3 sigma))."""
    return round(MODEL.rating(mu=mu, sigma=sigma).ordinal(z=3.0, alpha=DISPLAY_SCALE, target=DISPLAY_BASE))


def provisional(games: int) -> bool:
    """Tell whether a rating from ``games`` rated games is provisional: fewer than ``RATINGS_PROVISIONAL_GAMES``.

    Shown with a "?" and kept off the leaderboards, as lichess does. A count of games rather than openskill's
    sigma: sigma falls slowly and unevenly (a 4-player game lowers it less than a 2-player one), a count people
    can follow.
    """
    return games < settings.RATINGS_PROVISIONAL_GAMES


@dataclass(frozen=True)
class Player:
    """What the rules read of a player's account (``services``)."""

    user_id: int
    confirmed: bool  # their primary address is confirmed
    joined: datetime
    enough_finished_games: bool  # they finished at least RATINGS_MIN_FINISHED_GAMES games before this one
    signup_network: str  # a digest of the network they signed up from; "" when unknown
    mailbox: str  # their address as its mailbox reads it (``mailbox``)


def mailbox(email: str) -> str:
    """Return the mailbox an address reaches: lower case, without a "+tag", without the dots Gmail ignores ("" for
    no address)."""
    name, _, domain = email.strip().lower().rpartition("@")
    name = name.split("+", 1)[0]
    if not (name and domain):
        return ""  # no address: no mailbox to share
    if domain in DOTLESS_MAILBOXES:
        name, domain = name.replace(".", ""), DOTLESS_MAILBOXES[domain]
    return f"{name}@{domain}"


def account_reason(player: Player, *, now: datetime) -> str | None:
    """Return why the player's account cannot be rated yet, or None: it needs a confirmed address, and either
    ``RATINGS_MIN_ACCOUNT_DAYS`` days since sign-up or ``RATINGS_MIN_FINISHED_GAMES`` finished games."""
    if not player.confirmed:
        return "an account without a confirmed address"
    old_enough = player.joined <= now - timedelta(days=settings.RATINGS_MIN_ACCOUNT_DAYS)
    if not (old_enough or player.enough_finished_games):
        return (f"an account younger than {settings.RATINGS_MIN_ACCOUNT_DAYS} days with fewer than "
                f"{settings.RATINGS_MIN_FINISHED_GAMES} finished games")
    return None


def related(first: Player, second: Player) -> bool:
    """Tell whether two accounts may be one person's: signed up from one network, or within
    ``RATINGS_RELATED_SIGNUP_MINUTES`` of each other."""
    same_network = bool(first.signup_network) and first.signup_network == second.signup_network
    window = timedelta(minutes=settings.RATINGS_RELATED_SIGNUP_MINUTES)
    return same_network or abs(first.joined - second.joined) < window


def relation_reason(players: list[Player], *, established: Collection[int]) -> str | None:
    """Return why the game is unrated from how its players' accounts are related, or None.

    Two accounts that reach one mailbox are one person: never rated together. Two related ones (``related``)
    are rated together only once both are ``established`` (user ids whose rating at the game is no longer
    provisional): the games that made them so were against accounts they are not related to.
    """
    for first, second in combinations(players, 2):
        if first.mailbox and first.mailbox == second.mailbox:
            return "two accounts of one mailbox"
        if related(first, second) and not {first.user_id, second.user_id} <= set(established):
            return "two related accounts, one of them with a provisional rating"
    return None


def unrated_reason(*, private: bool, bot_seats: bool, fewest_own_moves: int, ended_early: bool) -> str | None:
    """Return why a finished game does not count for ratings, from its table and how it ended; None when it does.

    ``ended_early``: a resignation, a seat handed to a bot or a draw its players agreed ended it;
    ``fewest_own_moves``: the moves of the player who made fewest.
    """
    if private:
        return "a private table"
    if bot_seats:
        return "a bot held a seat"
    if ended_early and fewest_own_moves < RATED_MIN_OWN_MOVES:
        return f"ended by a resignation, a timeout or an agreement before every player made {RATED_MIN_OWN_MOVES} moves"
    return None


def most_games_of_a_pair(rated_games: Iterable[Collection[int]], players: Collection[int]) -> int:
    """Return the most rated games any two of ``players`` played together among ``rated_games``, each given as the
    users it rated."""
    players = set(players)
    pairs: Counter[tuple[int, int]] = Counter()
    for rated in rated_games:
        pairs.update(combinations(sorted(players.intersection(rated)), 2))
    return max(pairs.values(), default=0)


def pair_reason(*, busiest_pair: int, per_day: int) -> str | None:
    """Return why a game is unrated from what its players did together, or None: once two of them had ``per_day``
    rated games together in the last 24 hours (``busiest_pair``: the most any two had), their next is unrated (a
    second account feeding the first)."""
    if busiest_pair >= per_day:
        return f"two of the players had {per_day} rated games together in the last 24 hours"
    return None


# The pools a rated game counts in: a game with a bot account at the table never moves a rating among people, so
# a program can neither lift nor sink a person's rating there; its players' ratings in the bot pool move instead.
PEOPLE_POOL = "people"
BOT_POOL = "bots"


def rating_pool(*, bot_account_seated: bool) -> str:
    """Return the pool a rated game counts in: the bot pool when a bot account holds a seat, else people."""
    return BOT_POOL if bot_account_seated else PEOPLE_POOL


def places(result: dict[str, Any], seat_count: int, left: Iterable[int] = ()) -> list[int]:
    """Return each seat's place (1 is best; seats that tie share a place, the next place skips: 1, 1, 3).

    From the engine contract's result and the platform's record of the seats that ``left`` (resigned, or
    handed to a bot when their time ran out): every seat that stayed to the end places above every seat
    that left. Within each of the two, the ``winners`` share the top place (on a draw, with no winners,
    every seat that stayed shares first place); the others follow in the engine's ``ranking``, and seats
    next to each other in it with equal ``scores`` share a place. A game stopped with every seat losing
    (``games.base.ALL_LOSE``) places every seat last, together.
    """
    if result.get("decided") == ALL_LOSE:
        return [seat_count] * seat_count
    left = set(left)
    winners = {seat for seat in result.get("winners") or [] if 0 <= seat < seat_count}
    ranking = [seat for seat in result.get("ranking") or [] if 0 <= seat < seat_count]
    ranking += [seat for seat in range(seat_count) if seat not in ranking]
    scores = result.get("scores") or []
    groups: list[list[int]] = []
    for stayed in (True, False):
        members = [seat for seat in ranking if (seat not in left) == stayed]
        if stayed and not winners:  # a draw
            groups.append(members)
            continue
        groups.append([seat for seat in members if seat in winners])
        run: list[int] = []
        for seat in members:
            if seat in winners:
                continue
            if run and _score(scores, seat) != _score(scores, run[-1]):
                groups.append(run)
                run = []
            run.append(seat)
        groups.append(run)
    placed = [0] * seat_count
    place = 1
    for group in groups:
        for seat in group:
            placed[seat] = place
        place += len(group)
    return placed


def _score(scores: list, seat: int) -> Any:
    return scores[seat] if seat < len(scores) else None


def rate(before: list[tuple[float, float]], placed: list[int]) -> list[tuple[float, float]]:
    """Return each player's (mu, sigma) after a game, from their (mu, sigma) before and their places."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
    after = MODEL.rate(teams, ranks=[float(place) for place in placed])
    return [(team[0].mu, team[0].sigma) for team in after]
