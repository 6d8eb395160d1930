"""Agreements by email reply (issue 46): ask for one's last move back, and answer a proposal waiting at the game.

A game's reply whose first line is ``takeback`` (in the player's words or in English) asks the others at the table
through ``agreements.services.takeback_ask``, from any of the game's reply addresses: it always means the player's
last move, and asking changes nothing until the others agree (a pause, more time, a draw or a cancel is proposed
by ``vote_replies``). A first line saying ``accept`` or ``decline`` (the words a group's email is answered with)
answers the proposal waiting at the game through ``proposal_answer``, when the email answered was written at a
position the proposal stands for: for a takeback or a draw, which a move lapses, the position it was made at
(its email, or a turn email of that position); for the others, that position or a later one. From an older email
nothing is done and the answer asks again with the current position's address, as a resign from an older email
is confirmed. When nothing was proposed at the game since that email, the line goes to the game as a move. A
refusal is answered with the service's reason and changes nothing.

``acting`` calls these in the reply's transaction; ``answering`` words the answers with ``words``.
"""

from __future__ import annotations

from django.utils import formats, timezone, translation
from django.utils.translation import gettext as _

from turnbased.agreements import rules, selectors, services
from turnbased.agreements.models import Proposal, ProposalKind, ProposalStatus
from turnbased.kit.errors import PlayError
from turnbased.mail import commands, vote_replies
from turnbased.mail.outcomes import Answer, Done, fresh
from turnbased.mail.models import InboundStatus
from turnbased.mail.verifying import Reply
from turnbased.play import store
from turnbased.play.models import Game

ANSWERS = frozenset({Answer.TAKEBACK_ASKED, Answer.TAKEN_BACK, Answer.TAKEBACK_REFUSED, Answer.PROPOSAL_ACCEPTED,
                     Answer.PROPOSAL_DECLINED, Answer.PROPOSAL_REFUSED, Answer.CONFIRM_PROPOSAL, *vote_replies.ANSWERS})


def ask(reply: Reply) -> Done:
    """Ask the others to let the player take back their last move (carried at once when only bots must agree)."""
    try:
        proposal = services.takeback_ask(game_id=reply.game.pk, user=reply.user)
    except PlayError as error:
        return Done(InboundStatus.REJECTED, f"takeback refused: {error.detail}", Answer.TAKEBACK_REFUSED,
                    fresh(reply.game), detail=error.detail)
    game = fresh(reply.game)
    shown = selectors.proposal_shown(proposal, game)
    if proposal.status == ProposalStatus.ACCEPTED:
        return Done(InboundStatus.MOVED, "taken back", Answer.TAKEN_BACK, game, proposal=shown)
    return Done(InboundStatus.ANSWERED, "takeback asked", Answer.TAKEBACK_ASKED, game, proposal=shown)


def _stands_for(proposal: Proposal, seq: int) -> bool:
    """Whether an answer from an email of position ``seq`` is counted for ``proposal``: one a move lapses stands
    for the position it was made at alone, any other for that position and every later one."""
    return seq == proposal.seq if proposal.kind in rules.LAPSES_ON_MOVE else seq >= proposal.seq


def answer(reply: Reply, line: str) -> Done | None:
    """Accept or decline the proposal waiting at the game as ``line`` says; None when the line is no answer, or
    nothing was proposed at the game since the email answered (the line is then a move)."""
    said = commands.read_answer(line, translation.get_language())
    if said is None:
        return None
    game = fresh(reply.game)
    waiting = selectors.waiting_proposal(game)
    proposal = waiting or Proposal.objects.filter(game=game, seq__gte=reply.token.seq).first()
    if proposal is None:
        return None
    if waiting is not None and not _stands_for(waiting, reply.token.seq) and waiting.proposer_id != reply.user.pk:
        return Done(InboundStatus.ANSWERED, f"{said} to confirm", Answer.CONFIRM_PROPOSAL, game,
                    proposal=selectors.proposal_shown(waiting, game))
    accept = said == commands.ACCEPT
    try:
        services.proposal_answer(game_id=game.pk, proposal_id=proposal.pk, user=reply.user, accept=accept)
    except PlayError as error:
        return Done(InboundStatus.REJECTED, f"{said} refused: {error.detail}", Answer.PROPOSAL_REFUSED, fresh(game),
                    detail=error.detail, proposal=selectors.proposal_shown(proposal, game))
    proposal.refresh_from_db()
    game = fresh(game)
    shown = selectors.proposal_shown(proposal, game)
    if not accept:
        return Done(InboundStatus.ANSWERED, "declined", Answer.PROPOSAL_DECLINED, game, proposal=shown)
    if proposal.status == ProposalStatus.ACCEPTED and proposal.kind == ProposalKind.TAKE_BACK:
        return Done(InboundStatus.MOVED, "accepted: taken back", Answer.PROPOSAL_ACCEPTED, game, proposal=shown)
    if proposal.status == ProposalStatus.ACCEPTED:
        return Done(InboundStatus.ANSWERED, f"accepted: {proposal.kind} carried", Answer.PROPOSAL_ACCEPTED, game,
                    proposal=shown)
    return Done(InboundStatus.ANSWERED, "accepted", Answer.PROPOSAL_ACCEPTED, game, proposal=shown)


def _when(moment) -> str:
    return formats.date_format(timezone.localtime(moment), "DATETIME_FORMAT")


def words(done: Done, said: dict[str, str]) -> tuple[str, str]:
    """Return the heading and the detail of the answer to a reply that made or answered a proposal; ``said`` are
    the command words the player writes (``commands.shown_words``)."""
    shown = done.proposal or {}
    if done.answer in vote_replies.ANSWERS or shown.get("kind", ProposalKind.TAKE_BACK) != ProposalKind.TAKE_BACK:
        return vote_replies.words(done, said)
    values = {"player": shown.get("player", ""), "move": shown.get("move", ""), **said}
    match done.answer:
        case Answer.TAKEBACK_ASKED:
            return (_("You asked to take back your move %(move)s.") % values,
                    _("The others at the table are told, by email too. It is taken back only if all of them agree "
                      "by %(when)s, and before anyone moves; you will be told either way.")
                    % {"when": _when(shown["expires_at"])})
        case Answer.TAKEN_BACK:
            return (_("Your move %(move)s was taken back.") % values,
                    _("The bots at the table agreed, so it is your turn again."))
        case Answer.TAKEBACK_REFUSED:
            return _("No takeback was asked."), done.detail
        case Answer.PROPOSAL_ACCEPTED:
            if shown.get("status") == ProposalStatus.ACCEPTED:
                return (_("You agreed to take back %(player)s's move %(move)s.") % values,
                        _("Everyone has agreed: the move was taken back, and it is %(player)s's turn again.") % values)
            return (_("You agreed to take back %(player)s's move %(move)s.") % values,
                    _("It is taken back once everyone else at the table agrees too."))
        case Answer.PROPOSAL_DECLINED:
            return (_("You declined %(player)s's request to take back move %(move)s.") % values,
                    _("The move stands, and the game goes on."))
        case Answer.PROPOSAL_REFUSED:
            return _("Your answer to the takeback was not counted."), done.detail
        case Answer.CONFIRM_PROPOSAL:
            return (_("Reply \"%(accept)s\" or \"%(decline)s\" to this email to answer %(player)s's request to take "
                      "back move %(move)s.") % values,
                    _("The email you answered was written for an earlier position of this game, so your answer was "
                      "not counted. This answer is for the game as it stands now; its reply address works until the "
                      "game moves on."))
    raise ValueError(f"no answer is worded for {done.answer}")


def help_text(game: Game | None, said: dict[str, str], user=None) -> list[str]:
    """The sentences the help answer adds for the agreements at the game, each a line of its own: the takeback's
    where moves may be taken back, and each proposal the player may make there now (none for none)."""
    if game is None:
        return []
    sentences = vote_replies.help_text(game, user, said)
    if store.engine_of(game).offers_takebacks:
        sentences.insert(0, _("\"%(takeback)s\" asks the others at the table to let you take back your last move; "
                              "when someone asks you, reply \"%(accept)s\" or \"%(decline)s\".") % said)
    elif sentences:
        sentences.append(_("When someone at the table proposes something, reply \"%(accept)s\" or \"%(decline)s\".")
                         % said)
    return sentences
