"""Email the news of agreements at a table (issue 46): a takeback asked of the others, and how it was settled.

The agreements app sends ``proposal_made`` (to the others at the table, whose answer it waits for) and
``proposal_decided`` (to everyone at it) in the transaction that made the news; each email is written to the
outbox there (so it commits with the news or not at all) and sent once it has committed, like every email: at
most once. The person's email settings decide, as for a game's news; a bot account's program reads the table's
events through the API instead, and whoever settled the proposal (the decline, the last acceptance, the
withdrawal) is not told what they just did.

The email of a takeback asked carries a reply address for the game at its current position, the one a turn email
of that position carries: a reply saying "accept" or "decline" answers it (``agreement_replies``), and a move
written there is played as it would be from the turn email (and lets the takeback lapse).
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.dispatch import receiver
from django.utils.translation import gettext as _

from turnbased.accounts.models import is_bot_account
from turnbased.agreements.models import Proposal, ProposalStatus
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
    """Write one email of a takeback: asked (``status`` open), or settled as ``status`` says."""
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
        reply_to = None
        if status == ProposalStatus.OPEN and game.status == GameStatus.ACTIVE:
            # The address a turn email of this position carries: a reply reaches the game, read as an answer.
            reply_to = reply_address(user_id=user.pk, game_id=game.pk, seq=game.seq)
        context = {
            "user": user, "status": str(status), "mine": mine, "player": values["player"], "move": values["move"],
            "game": {"title": title, "url": compose.game_url(game)}, "expires_at": proposal.expires_at,
            "decliner": _decliner(proposal, game) if status == ProposalStatus.DECLINED else "",
        }
        return compose.build(to=user.email, subject=subjects[status] % values, template="agreement_news",
                             context=context, user=user, reply_to=reply_to)


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
