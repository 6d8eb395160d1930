"""Email the news of agreements at a table (issue 46): a proposal made to the others (a takeback, a pause of the
table's clocks, extra time for a seat, a draw, a cancel), and how it was settled.

The agreements app sends ``proposal_made`` (to the others at the table, whose answer it waits for) and
``proposal_decided`` (to everyone at it) in the transaction that made the news; each email is written to the
outbox there (so it commits with the news or not at all) and sent once it has committed, like every email: at
most once. The person's email settings decide, as for a game's news; a bot account's program reads the table's
events through the API instead, and whoever settled the proposal (the decline, the last acceptance, the
withdrawal) is not told what they just did.

The email of a proposal made carries a reply address for the game at its current position, the one a turn email
of that position carries: a reply saying "accept" or "decline" answers it (``agreement_replies``), and a move
written there is played as it would be from the turn email (and lets a takeback or a draw lapse). A takeback's
email has its own words (``agreement_news`` templates); the others', one whole sentence per kind and status, are
written here (``_vote_words``) and laid out by the ``agreement_vote_news`` templates.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.dispatch import receiver
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from turnbased.accounts.models import is_bot_account
from turnbased.agreements import rules
from turnbased.agreements.models import Proposal, ProposalKind, ProposalStatus
from turnbased.agreements.signals import proposal_decided, proposal_made
from turnbased.mail import compose
from turnbased.mail.models import EmailKind
from turnbased.mail.news import takes_news, write_and_send
from turnbased.mail.tokens import reply_address
from turnbased.play.models import Game, GameStatus


def actor_id(proposal: Proposal) -> int | None:
    """The person who settled ``proposal``: who declined it, who agreed last, who withdrew it (the proposer, for
    a takeback carried at once because nobody else had to agree)."""
    if proposal.status == ProposalStatus.WITHDRAWN:
        return proposal.proposer_id
    answers = [answer for answer in proposal.answers.all() if answer.user_id is not None]
    if proposal.status == ProposalStatus.DECLINED:
        return next((answer.user_id for answer in answers if not answer.accepted), None)
    if proposal.status == ProposalStatus.ACCEPTED:
        latest = max(answers, key=lambda answer: (answer.answered_at, answer.pk), default=None)
        return latest.user_id if latest is not None else proposal.proposer_id
    return None


def _decliner(proposal: Proposal, game: Game) -> str:
    answer = next((answer for answer in proposal.answers.all() if not answer.accepted), None)
    if answer is None:
        return ""
    return compose.person_name(answer.user) if answer.user_id is not None else game.player_names[answer.seat]


def proposal_email(user, proposal: Proposal, game: Game, status: str):
    """Write one email of a proposal: made (``status`` open), or settled as ``status`` says."""
    if proposal.kind != ProposalKind.TAKE_BACK:
        return _vote_email(user, proposal, game, status)
    with compose.for_recipient(user):  # the subject too, in the recipient's language
        title = game.title
        mine = proposal.proposer_id == user.pk
        values = {"player": compose.person_name(proposal.proposer), "move": proposal.terms.get("seq"),
                  "game": title}
        subjects = {
            ProposalStatus.OPEN: _("%(player)s asks to take back move %(move)s at %(game)s"),
            ProposalStatus.ACCEPTED: (_("Your move %(move)s at %(game)s was taken back") if mine
                                      else _("Move %(move)s at %(game)s was taken back")),
            ProposalStatus.DECLINED: _("Takeback declined at %(game)s"),
            ProposalStatus.WITHDRAWN: _("Takeback withdrawn at %(game)s"),
        }
        reply_to = _answer_address(user, game, status)
        context = {
            "user": user, "status": str(status), "mine": mine, "player": values["player"], "move": values["move"],
            "game": {"title": title, "url": compose.game_url(game)}, "expires_at": proposal.expires_at,
            "decliner": _decliner(proposal, game) if status == ProposalStatus.DECLINED else "",
        }
        return compose.build(to=user.email, subject=subjects[status] % values, template="agreement_news",
                             context=context, user=user, reply_to=reply_to)


def _answer_address(user, game: Game, status: str) -> str | None:
    """The address a turn email of the game's position carries, for a proposal waiting (a reply reaches the game,
    read as an answer); None for a settled one."""
    if status != ProposalStatus.OPEN or game.status != GameStatus.ACTIVE:
        return None
    return reply_address(user_id=user.pk, game_id=game.pk, seq=game.seq)


def _vote_email(user, proposal: Proposal, game: Game, status: str):
    """Write one email of a pause, extra time, a draw or a cancel: proposed, or settled as ``status`` says."""
    with compose.for_recipient(user):  # the subject too, in the recipient's language
        names = compose.seat_names(game)
        for_seat = proposal.terms.get("seat")
        values = {
            "player": compose.person_name(proposal.proposer), "game": game.title,
            "days": proposal.terms.get("days") or 0, "for_player": names[for_seat] if for_seat is not None else "",
            "decliner": _decliner(proposal, game) if status == ProposalStatus.DECLINED else "",
            "when": formats.date_format(timezone.localtime(proposal.expires_at), "DATETIME_FORMAT"),
        }
        seat = next((seat.index for seat in game.seats.all() if seat.user_id == user.pk), None)
        whose = "yours" if for_seat == seat else "self" if for_seat == proposal.seat else "other"
        subject, lines = _vote_words(proposal.kind, str(status), whose, values)
        context = {"user": user, "status": str(status), "lines": lines,
                   "game": {"title": game.title, "url": compose.game_url(game)}}
        return compose.build(to=user.email, subject=subject, template="agreement_vote_news", context=context,
                             user=user, reply_to=_answer_address(user, game, status))


def _vote_words(kind: str, status: str, whose: str, values: dict) -> tuple[str, list[str]]:
    """The subject and the paragraphs of a vote's email, in the reader's language: ``whose`` says whom extra time
    is for (``yours``: the reader; ``self``: the proposer, another than the reader; ``other``), ``values`` fill the
    sentences."""
    days = values["days"]
    if status == ProposalStatus.OPEN:
        subjects = {
            ProposalKind.PAUSE: ngettext("%(player)s proposes to pause the clocks at %(game)s for %(days)s day",
                                         "%(player)s proposes to pause the clocks at %(game)s for %(days)s days", days),
            ProposalKind.EXTRA_TIME: {
                "self": ngettext("%(player)s asks for %(days)s more day at %(game)s",
                                 "%(player)s asks for %(days)s more days at %(game)s", days),
                "yours": ngettext("%(player)s offers you %(days)s more day at %(game)s",
                                  "%(player)s offers you %(days)s more days at %(game)s", days),
                "other": ngettext("%(player)s proposes %(days)s more day for %(for_player)s at %(game)s",
                                  "%(player)s proposes %(days)s more days for %(for_player)s at %(game)s", days),
            }[whose],
            ProposalKind.DRAW: _("%(player)s offers a draw at %(game)s"),
            ProposalKind.CANCEL: _("%(player)s proposes to cancel %(game)s"),
        }
        what = {
            ProposalKind.PAUSE: ngettext(
                "%(player)s proposes to stop every clock at %(game)s for %(days)s day: while the pause lasts no time "
                "runs for anyone, and every deadline moves out by as much.",
                "%(player)s proposes to stop every clock at %(game)s for %(days)s days: while the pause lasts no time "
                "runs for anyone, and every deadline moves out by as much.", days),
            ProposalKind.EXTRA_TIME: {
                "self": ngettext("%(player)s asks for %(days)s more day at %(game)s, for their current turn or their "
                                 "next one.",
                                 "%(player)s asks for %(days)s more days at %(game)s, for their current turn or their "
                                 "next one.", days),
                "yours": ngettext("%(player)s offers you %(days)s more day at %(game)s, for your current turn or "
                                  "your next one.",
                                  "%(player)s offers you %(days)s more days at %(game)s, for your current turn or "
                                  "your next one.", days),
                "other": ngettext("%(player)s proposes %(days)s more day for %(for_player)s at %(game)s, for their "
                                  "current turn or their next one.",
                                  "%(player)s proposes %(days)s more days for %(for_player)s at %(game)s, for their "
                                  "current turn or their next one.", days),
            }[whose],
            ProposalKind.DRAW: _("%(player)s offers a draw at %(game)s: the game would end now, drawn for everyone "
                                 "at the table."),
            ProposalKind.CANCEL: _("%(player)s proposes to cancel %(game)s: the game would end now with no result, "
                                   "and count for nobody's rating."),
        }
        if kind in rules.LAPSES_ON_MOVE:
            when = _("That happens only if everyone else at the table agrees by %(when)s, and before anyone moves: "
                     "a move made meanwhile, yours too, lets the offer lapse.")
        else:
            when = _("That happens only if everyone else at the table agrees by %(when)s.")
        return subjects[kind] % values, [what[kind] % values, when % values]
    if status == ProposalStatus.ACCEPTED:
        subjects = {
            ProposalKind.PAUSE: ngettext("The clocks at %(game)s are paused for %(days)s day",
                                         "The clocks at %(game)s are paused for %(days)s days", days),
            ProposalKind.EXTRA_TIME: ngettext("You have %(days)s more day at %(game)s",
                                              "You have %(days)s more days at %(game)s", days) if whose == "yours"
            else ngettext("%(for_player)s has %(days)s more day at %(game)s",
                          "%(for_player)s has %(days)s more days at %(game)s", days),
            ProposalKind.DRAW: _("%(game)s ended as a draw"),
            ProposalKind.CANCEL: _("%(game)s was cancelled"),
        }
        what = {
            ProposalKind.PAUSE: ngettext("Everyone agreed: every clock at %(game)s stops for %(days)s day, and every "
                                         "deadline moves out by as much.",
                                         "Everyone agreed: every clock at %(game)s stops for %(days)s days, and every "
                                         "deadline moves out by as much.", days),
            ProposalKind.EXTRA_TIME: ngettext("Everyone agreed: you have %(days)s more day at %(game)s, for your "
                                              "current turn or your next one.",
                                              "Everyone agreed: you have %(days)s more days at %(game)s, for your "
                                              "current turn or your next one.", days) if whose == "yours"
            else ngettext("Everyone agreed: %(for_player)s has %(days)s more day at %(game)s, for their current turn "
                          "or their next one.",
                          "Everyone agreed: %(for_player)s has %(days)s more days at %(game)s, for their current turn "
                          "or their next one.", days),
            ProposalKind.DRAW: _("Everyone agreed: %(game)s ended as a draw."),
            ProposalKind.CANCEL: _("Everyone agreed: %(game)s was cancelled. It has no result and counts for "
                                   "nobody's rating."),
        }
    elif status == ProposalStatus.DECLINED:
        subjects = {
            ProposalKind.PAUSE: _("Pause declined at %(game)s"),
            ProposalKind.EXTRA_TIME: _("Extra time declined at %(game)s"),
            ProposalKind.DRAW: _("Draw declined at %(game)s"),
            ProposalKind.CANCEL: _("Cancellation declined at %(game)s"),
        }
        what = {
            ProposalKind.PAUSE: _("%(decliner)s declined the proposal to pause the clocks at %(game)s: they run on as "
                                  "before."),
            ProposalKind.EXTRA_TIME: _("%(decliner)s declined the proposal to give %(for_player)s more time at "
                                       "%(game)s: the clocks run on as before."),
            ProposalKind.DRAW: _("%(decliner)s declined the offer of a draw at %(game)s: the game goes on."),
            ProposalKind.CANCEL: _("%(decliner)s declined the proposal to cancel %(game)s: the game goes on."),
        }
    else:
        subjects = {
            ProposalKind.PAUSE: _("Pause withdrawn at %(game)s"),
            ProposalKind.EXTRA_TIME: _("Extra time withdrawn at %(game)s"),
            ProposalKind.DRAW: _("Draw offer withdrawn at %(game)s"),
            ProposalKind.CANCEL: _("Cancellation withdrawn at %(game)s"),
        }
        what = {
            ProposalKind.PAUSE: _("%(player)s withdrew the proposal to pause the clocks at %(game)s: they run on as "
                                  "before."),
            ProposalKind.EXTRA_TIME: _("%(player)s withdrew the proposal to give %(for_player)s more time at "
                                       "%(game)s: the clocks run on as before."),
            ProposalKind.DRAW: _("%(player)s withdrew the offer of a draw at %(game)s: the game goes on."),
            ProposalKind.CANCEL: _("%(player)s withdrew the proposal to cancel %(game)s: the game goes on."),
        }
    return subjects[kind] % values, [what[kind] % values]


def _tell(user_ids, proposal: Proposal, game: Game, status: str, *, skip: int | None = None) -> None:
    people = get_user_model().objects.filter(pk__in=[pk for pk in user_ids if pk != skip]).select_related("profile")
    for user in people.order_by("pk"):
        if not is_bot_account(user) and takes_news(user):
            write_and_send(proposal_email(user, proposal, game, status), user, kind=EmailKind.AGREEMENT)


@receiver(proposal_made, dispatch_uid="turnbased-mail-proposal-made")
def on_proposal_made(sender, proposal, game, user_ids, **kwargs) -> None:
    _tell(user_ids, proposal, game, ProposalStatus.OPEN)


@receiver(proposal_decided, dispatch_uid="turnbased-mail-proposal-decided")
def on_proposal_decided(sender, proposal, game, user_ids, **kwargs) -> None:
    if proposal.status in (ProposalStatus.ACCEPTED, ProposalStatus.DECLINED, ProposalStatus.WITHDRAWN):
        _tell(user_ids, proposal, game, proposal.status, skip=actor_id(proposal))
