"""Email a competition's news to its players (issue 45): an invitation to enter, the start, a round's tables open,
a round closed with where one stands, the end (or the call-off), a withdrawal one did not ask for, a league's next
season that entered one, and a challenge on a ladder.

The competitions app sends each signal in the transaction that made the news; each email is written to the outbox
there (so it commits with the news or not at all) and sent once it has committed, like every email: at most once.
The person's email settings decide, as for a game's news.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.dispatch import receiver
from django.urls import reverse
from django.utils.translation import gettext as _

from turnbased.competitions import selectors
from turnbased.competitions.models import Entrant
from turnbased.competitions.signals import (
    competition_ended, competition_invitation, competition_started, entrant_removed, round_closed, round_opened,
    challenge_made, season_opened,
)
from turnbased.mail import compose
from turnbased.mail.models import EmailKind
from turnbased.mail.news import takes_news, write_and_send


def _url(competition) -> str:
    return settings.SITE_URL + reverse("competition-detail", args=[competition.pk])


def news_email(user, competition, news: str, **context):
    """Write one competition email: ``news`` says which (started, tables, round, ended, cancelled, invitation,
    removed, season, challenge)."""
    with compose.for_recipient(user):  # the subject too, in the recipient's language
        name = competition.name
        subject = {
            "invitation": _("You are invited to enter %(name)s"),
            "started": _("%(name)s has started"),
            "tables": _("%(name)s: your next games are open"),
            "round": _("%(name)s: a round has closed"),
            "ended": _("%(name)s has ended"),
            "cancelled": _("%(name)s is called off"),
            "removed": _("You were withdrawn from %(name)s"),
            "season": _("%(name)s: the next season is open"),
            "challenge": _("%(name)s: you are challenged"),
        }[news] % {"name": name}
        context.update(user=user, news=news, competition={"name": name, "url": _url(competition)})
        return compose.build(to=user.email, subject=subject, template="competition_news", context=context, user=user)


def _people(user_ids):
    return get_user_model().objects.filter(pk__in=list(user_ids)).select_related("profile")


def _send(user, competition, news: str, **context) -> None:
    if takes_news(user):
        write_and_send(news_email(user, competition, news, **context), user, kind=EmailKind.COMPETITION)


@receiver(competition_invitation, dispatch_uid="turnbased-mail-competition-invitation")
def on_invitation(sender, invitation, **kwargs) -> None:
    competition = invitation.competition
    _send(invitation.user, competition, "invitation", organiser=compose.person_name(competition.organiser))


@receiver(competition_started, dispatch_uid="turnbased-mail-competition-started")
def on_started(sender, competition, user_ids, **kwargs) -> None:
    for user in _people(user_ids):
        _send(user, competition, "started")


@receiver(round_opened, dispatch_uid="turnbased-mail-competition-round-opened")
def on_round_opened(sender, round, tables, **kwargs) -> None:
    competition = round.stage.competition
    users = dict(Entrant.objects.filter(competition=competition).values_list("pk", "user_id"))
    games: dict[int, list[dict]] = {}
    for table in tables:
        for entrant in table.players:
            games.setdefault(users[entrant], []).append({
                "title": table.game.title, "url": settings.SITE_URL + reverse("game-detail", args=[table.game_id])})
    for user in _people(games):
        _send(user, competition, "tables", games=games[user.pk], round=round.number, deadline=round.deadline)


@receiver(round_closed, dispatch_uid="turnbased-mail-competition-round-closed")
def on_round_closed(sender, round, user_ids, **kwargs) -> None:
    stage = round.stage
    places, place = {}, 1
    for group in selectors.standings_ranked(stage):  # once for every email
        for row in group:
            places[row.entrant.user_id] = (place, row.points)
        place += len(group)
    for user in _people(user_ids):
        mine = places.get(user.pk)
        _send(user, stage.competition, "round", round=round.number, place=mine[0] if mine else None,
              points=mine[1] if mine else None, count=len(places))


@receiver(competition_ended, dispatch_uid="turnbased-mail-competition-ended")
def on_ended(sender, competition, user_ids, **kwargs) -> None:
    cancelled = competition.status == "cancelled"
    for user in _people(user_ids):
        _send(user, competition, "cancelled" if cancelled else "ended")


@receiver(entrant_removed, dispatch_uid="turnbased-mail-competition-removed")
def on_removed(sender, competition, entrant, **kwargs) -> None:
    user = _people([entrant.user_id]).first()
    if user is not None:
        _send(user, competition, "removed", because=entrant.withdrawn_because)


@receiver(season_opened, dispatch_uid="turnbased-mail-competition-season")
def on_season(sender, competition, moves, **kwargs) -> None:
    for user in _people(moves):
        _send(user, competition, "season", season=competition.season, starts_at=competition.starts_at,
              move=moves[user.pk])


@receiver(challenge_made, dispatch_uid="turnbased-mail-competition-challenge")
def on_challenge(sender, table, challenger, defender, **kwargs) -> None:
    user = _people([defender.pk]).first()
    if user is not None:
        game = {"title": table.game.title, "url": settings.SITE_URL + reverse("game-detail", args=[table.game_id])}
        _send(user, table.round.stage.competition, "challenge", challenger=compose.person_name(challenger),
              games=[game])
