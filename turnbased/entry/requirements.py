"""A table's requirements: read from what a person (or client) asked for, worded for a page and an email, and
checked against a player, naming the first one the player does not meet (docs/players.md, "Fair entry")."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext, ngettext

from turnbased.entry.models import TableRequirements
from turnbased.kit.errors import InvalidRequest, Unprocessable
from turnbased.play.models import Game, GameStatus, Seat
from turnbased.ratings import selectors as ratings_selectors
from turnbased.ratings.models import Rating, RatingPool
from turnbased.ratings.rules import MODEL, display_rating

FIELDS = ("min_reliability", "max_abandoned", "min_finished", "rating_min", "rating_max", "provisional_ok",
          "new_players")
NUMBERS = {"min_reliability": (0, 100), "max_abandoned": (0, ratings_selectors.RECENT_CLOCKED_GAMES),
           "min_finished": (0, 10_000), "rating_min": (0, 10_000), "rating_max": (0, 10_000)}
# The rating of a player with none yet in a game: where everyone starts, and provisional.
STARTING_RATING = display_rating(MODEL.mu, MODEL.sigma)


def read(raw) -> dict:
    """Return the requirements a dict asks for, checked (a blank or missing one asks nothing); refuse bad ones."""
    if not isinstance(raw, dict):
        raise InvalidRequest(gettext("requirements must be an object."))
    unknown = sorted(set(raw) - set(FIELDS))
    if unknown:
        raise InvalidRequest(gettext("Unknown requirements: %(names)s.") % {"names": ", ".join(unknown)})
    chosen = {}
    for name, (least, most) in NUMBERS.items():
        value = raw.get(name)
        if value is None:
            continue
        if not isinstance(value, int) or isinstance(value, bool) or not least <= value <= most:
            raise Unprocessable(gettext("%(name)s must be a whole number from %(least)s to %(most)s.")
                                % {"name": name, "least": least, "most": most})
        chosen[name] = value
    for name in ("provisional_ok", "new_players"):
        value = raw.get(name, True)
        if not isinstance(value, bool):
            raise InvalidRequest(gettext("%(name)s must be true or false.") % {"name": name})
        chosen[name] = value
    if chosen.get("rating_min") is not None and chosen.get("rating_max") is not None \
            and chosen["rating_min"] > chosen["rating_max"]:
        raise Unprocessable(gettext("The lowest rating asked for is above the highest."))
    return chosen


def asks_anything(chosen: dict) -> bool:
    return any(chosen.get(name) is not None for name in NUMBERS) or chosen.get("provisional_ok") is False


def worded(requirements: TableRequirements) -> list[str]:
    """Say each requirement, in the active language, for the table's page (before joining) and lists."""
    said = []
    if requirements.min_reliability is not None:
        said.append(gettext("a move reliability of at least %(percent)s%%") % {"percent": requirements.min_reliability})
    if requirements.max_abandoned is not None:
        said.append(ngettext("at most %(count)s of the last %(games)s clocked games abandoned",
                             "at most %(count)s of the last %(games)s clocked games abandoned",
                             requirements.max_abandoned)
                    % {"count": requirements.max_abandoned, "games": ratings_selectors.RECENT_CLOCKED_GAMES})
    if requirements.min_finished is not None:
        said.append(ngettext("at least %(count)s finished game", "at least %(count)s finished games",
                             requirements.min_finished) % {"count": requirements.min_finished})
    if requirements.rating_min is not None or requirements.rating_max is not None:
        low = requirements.rating_min if requirements.rating_min is not None else "…"
        high = requirements.rating_max if requirements.rating_max is not None else "…"
        said.append(gettext("a rating from %(low)s to %(high)s in this game") % {"low": low, "high": high})
    if not requirements.provisional_ok:
        said.append(gettext("a rating that is no longer provisional"))
    if not requirements.new_players and (requirements.min_reliability is not None
                                         or requirements.max_abandoned is not None):
        said.append(gettext("not new to games with a clock"))
    return said


@dataclass(frozen=True)
class Standing:
    """What the requirements read of a player: their figures, as a gate reads them (every game of theirs)."""

    reliability: int | None
    clocked_games: int
    abandoned: int
    finished: int
    rating: int
    provisional: bool


def standing(player: AbstractBaseUser, *, engine: str, players: int) -> Standing:
    reliability = ratings_selectors.reliability(player, player)
    abandonment = ratings_selectors.abandonment(player)
    finished = Seat.objects.filter(user=player, game__status=GameStatus.FINISHED).count()
    rating = Rating.objects.filter(user=player, game_slug=engine, players=players, pool=RatingPool.PEOPLE).first()
    return Standing(reliability=reliability.percent, clocked_games=abandonment.games,
                    abandoned=abandonment.abandoned, finished=finished,
                    rating=rating.display if rating else STARTING_RATING,
                    provisional=rating.provisional if rating else True)


@dataclass(frozen=True)
class _Asked:
    """The requirements as a competition keeps them (a dict, ``read``), read like a table's row."""

    min_reliability: int | None = None
    max_abandoned: int | None = None
    min_finished: int | None = None
    rating_min: int | None = None
    rating_max: int | None = None
    provisional_ok: bool = True
    new_players: bool = True


def unmet(requirements: TableRequirements, player: AbstractBaseUser, game: Game) -> str | None:
    """Return why the player does not meet the table's requirements (the first one they miss), or None."""
    return _unmet(requirements, standing(player, engine=game.engine, players=game.seat_count), competition=False)


def unmet_for_competition(chosen: dict, player: AbstractBaseUser, *, engine: str, players: int) -> str | None:
    """Return why the player does not meet a competition's requirements (``read``'s dict; its games' rating is
    the one at its tables' size), or None."""
    if not asks_anything(chosen):
        return None
    return _unmet(_Asked(**chosen), standing(player, engine=engine, players=players), competition=True)


def _unmet(requirements, mine: Standing, *, competition: bool) -> str | None:
    new = mine.clocked_games == 0
    if (requirements.min_reliability is not None or requirements.max_abandoned is not None) \
            and new and not requirements.new_players:
        return (gettext("This competition asks for players with a record in games with a clock; you have none yet.")
                if competition else
                gettext("This table asks for players with a record in games with a clock; you have none yet."))
    if requirements.min_reliability is not None and not new \
            and (mine.reliability is None or mine.reliability < requirements.min_reliability):
        said = (gettext("This competition asks for a move reliability of at least %(asked)s%%; yours is %(yours)s%%.")
                if competition else
                gettext("This table asks for a move reliability of at least %(asked)s%%; yours is %(yours)s%%."))
        return said % {"asked": requirements.min_reliability, "yours": mine.reliability or 0}
    if requirements.max_abandoned is not None and not new and mine.abandoned > requirements.max_abandoned:
        said = (ngettext("This competition asks for at most %(asked)s abandoned game of the last %(games)s with a "
                         "clock; you abandoned %(yours)s.",
                         "This competition asks for at most %(asked)s abandoned games of the last %(games)s with a "
                         "clock; you abandoned %(yours)s.", requirements.max_abandoned)
                if competition else
                ngettext("This table asks for at most %(asked)s abandoned game of the last %(games)s with a "
                         "clock; you abandoned %(yours)s.",
                         "This table asks for at most %(asked)s abandoned games of the last %(games)s with a "
                         "clock; you abandoned %(yours)s.", requirements.max_abandoned))
        return said % {"asked": requirements.max_abandoned, "games": mine.clocked_games, "yours": mine.abandoned}
    if requirements.min_finished is not None and mine.finished < requirements.min_finished:
        said = (ngettext("This competition asks for at least %(asked)s finished game; you have %(yours)s.",
                         "This competition asks for at least %(asked)s finished games; you have %(yours)s.",
                         requirements.min_finished)
                if competition else
                ngettext("This table asks for at least %(asked)s finished game; you have %(yours)s.",
                         "This table asks for at least %(asked)s finished games; you have %(yours)s.",
                         requirements.min_finished))
        return said % {"asked": requirements.min_finished, "yours": mine.finished}
    if not requirements.provisional_ok and mine.provisional:
        return (gettext("This competition asks for a rating that is no longer provisional; yours still is.")
                if competition else
                gettext("This table asks for a rating that is no longer provisional; yours still is."))
    low, high = requirements.rating_min, requirements.rating_max
    if (low is not None and mine.rating < low) or (high is not None and mine.rating > high):
        said = (gettext("This competition asks for a rating from %(low)s to %(high)s; yours is %(yours)s.")
                if competition else
                gettext("This table asks for a rating from %(low)s to %(high)s; yours is %(yours)s."))
        return said % {"low": low if low is not None else "…", "high": high if high is not None else "…",
                       "yours": mine.rating}
    return None
