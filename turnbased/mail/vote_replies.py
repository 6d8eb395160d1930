"""Proposals put to a vote by email reply (issue 46): a pause of the table's clocks, more time for one's own turn,
a draw, a cancel; and the words of the answers to the replies that make or answer them.

A game's reply whose first line is ``pause`` or ``more time`` (each maybe followed by a number of days: "pause 5",
"szünet 5 nap"), ``draw`` or ``cancel`` (in the player's words or in English: ``commands``) proposes it to the
others at the table through ``agreements.services.proposal_make``, from any of the game's reply addresses. Nothing
changes until the others agree, but when only bots had to agree, it is carried at once. A refusal is answered with
the service's reason and changes nothing. The answers to such a proposal (``accept``, ``decline``) are read by
``agreement_replies``, which has them worded here (``words``).

``acting`` calls ``propose`` in the reply's transaction; ``answering`` words the answers through
``agreement_replies.words``.
"""

from __future__ import annotations

from django.utils import formats, timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from turnbased.agreements import rules, selectors, services
from turnbased.agreements.checks import proposals_offered
from turnbased.agreements.models import ProposalKind, ProposalStatus
from turnbased.clocks.agreed import EXTRA_DAYS_MOST, PAUSE_DAYS_MOST
from turnbased.kit.errors import PlayError
from turnbased.mail import commands
from turnbased.mail.models import InboundStatus
from turnbased.mail.outcomes import Answer, Done, fresh
from turnbased.mail.verifying import Reply
from turnbased.play.models import Game
from turnbased.play.selectors import Viewer

# The proposal each command makes.
KINDS = {commands.PAUSE: ProposalKind.PAUSE, commands.MORE_TIME: ProposalKind.EXTRA_TIME,
         commands.DRAW: ProposalKind.DRAW, commands.CANCEL: ProposalKind.CANCEL}
ANSWERS = frozenset({Answer.PROPOSED, Answer.PROPOSAL_CARRIED, Answer.PROPOSAL_NOT_MADE})


def _seat_of(game: Game, user) -> int | None:
    return next((seat.index for seat in game.seats.all() if seat.user_id == user.pk), None)


def propose(reply: Reply, line: str, command: str) -> Done:
    """Propose what ``command`` says to the others at the table: a pause or more time for the player themselves
    for the days ``line`` names (else ``commands.DEFAULT_DAYS``), a draw, a cancel."""
    kind = KINDS[command]
    terms = None
    if command in commands.DEFAULT_DAYS:
        days = commands.days_in(line, command, translation.get_language())
        terms = {"days": days} if kind == ProposalKind.PAUSE else {"seat": _seat_of(reply.game, reply.user),
                                                                    "days": days}
    try:
        proposal = services.proposal_make(game_id=reply.game.pk, user=reply.user, kind=kind, terms=terms)
    except PlayError as error:
        return Done(InboundStatus.REJECTED, f"{kind} refused: {error.detail}", Answer.PROPOSAL_NOT_MADE,
                    fresh(reply.game), detail=error.detail, proposal={"kind": kind})
    game = fresh(reply.game)
    shown = selectors.proposal_shown(proposal, game)
    if proposal.status == ProposalStatus.ACCEPTED:
        return Done(InboundStatus.ANSWERED, f"{kind} carried", Answer.PROPOSAL_CARRIED, game, proposal=shown)
    return Done(InboundStatus.ANSWERED, f"{kind} proposed", Answer.PROPOSED, game, proposal=shown)


def _when(moment) -> str:
    return formats.date_format(timezone.localtime(moment), "DATETIME_FORMAT")


def words(done: Done, said: dict[str, str]) -> tuple[str, str]:
    """Return the heading and the detail of the answer to a reply that made or answered a pause, extra time, a draw
    or a cancel; ``said`` are the command words the player writes (``commands.shown_words``)."""
    shown = done.proposal or {}
    kind = shown.get("kind")
    days = shown.get("days") or 0
    values = {"player": shown.get("player", ""), "for_player": shown.get("for_player") or "", "days": days, **said}
    match done.answer:
        case Answer.PROPOSED:
            return _made(kind, days) % values, _waiting(kind) % {"when": _when(shown["expires_at"])}
        case Answer.PROPOSAL_CARRIED:
            return (_carried(kind, days) % values,
                    _("No other person at the table had to agree, so it was done at once."))
        case Answer.PROPOSAL_NOT_MADE:
            return _not_made(kind), done.detail
        case Answer.PROPOSAL_ACCEPTED:
            if shown.get("status") == ProposalStatus.ACCEPTED:
                return _agreed(kind, days) % values, _agreed_by_all(kind) % values
            return _agreed(kind, days) % values, _("It is done once everyone else at the table agrees too.")
        case Answer.PROPOSAL_DECLINED:
            return _declined(kind) % values, _("Nothing changes, and the game goes on.")
        case Answer.PROPOSAL_REFUSED:
            return _("Your answer to the proposal was not counted."), done.detail
        case Answer.CONFIRM_PROPOSAL:
            return _confirm(kind) % values, _confirm_why(kind)
    raise ValueError(f"no answer is worded for {done.answer}")


def _confirm(kind: str) -> str:
    return {
        ProposalKind.PAUSE: _("Reply \"%(accept)s\" or \"%(decline)s\" to this email to answer %(player)s's proposal to "
                              "pause the clocks."),
        ProposalKind.EXTRA_TIME: _("Reply \"%(accept)s\" or \"%(decline)s\" to this email to answer %(player)s's "
                                   "proposal to give %(for_player)s more time."),
        ProposalKind.DRAW: _("Reply \"%(accept)s\" or \"%(decline)s\" to this email to answer %(player)s's offer of a "
                             "draw."),
        ProposalKind.CANCEL: _("Reply \"%(accept)s\" or \"%(decline)s\" to this email to answer %(player)s's proposal "
                               "to cancel the game."),
    }[kind]


def _confirm_why(kind: str) -> str:
    """Why an answer was not counted: a draw stands for the position it was offered at alone (a move lapses it);
    the others for that position and later ones, so only an email from before the proposal is too old."""
    if kind in rules.LAPSES_ON_MOVE:
        return _("The email you answered was written for an earlier position of this game, so your answer was not "
                 "counted. This answer is for the game as it stands now; its reply address works until the game "
                 "moves on.")
    return _("The email you answered was written before this proposal was made, so your answer was not counted. "
             "Answer this email instead.")


def _made(kind: str, days: int) -> str:
    return {
        ProposalKind.PAUSE: ngettext("You proposed to pause every clock at the table for %(days)s day.",
                                     "You proposed to pause every clock at the table for %(days)s days.", days),
        ProposalKind.EXTRA_TIME: ngettext("You asked for %(days)s more day for your turn.",
                                          "You asked for %(days)s more days for your turn.", days),
        ProposalKind.DRAW: _("You offered a draw."),
        ProposalKind.CANCEL: _("You proposed to cancel the game: it would end with no result and count for nobody's "
                               "rating."),
    }[kind]


def _waiting(kind: str) -> str:
    if kind in rules.LAPSES_ON_MOVE:
        return _("The others at the table are told, by email too. It is done only if all of them agree by %(when)s, "
                 "and before anyone moves; you will be told either way.")
    return _("The others at the table are told, by email too. It is done only if all of them agree by %(when)s; you "
             "will be told either way.")


def _carried(kind: str, days: int) -> str:
    return {
        ProposalKind.PAUSE: ngettext("Every clock at the table is paused for %(days)s day.",
                                     "Every clock at the table is paused for %(days)s days.", days),
        ProposalKind.EXTRA_TIME: ngettext("You have %(days)s more day for your turn.",
                                          "You have %(days)s more days for your turn.", days),
        ProposalKind.DRAW: _("The game ended as a draw."),
        ProposalKind.CANCEL: _("The game was cancelled: it has no result and counts for nobody's rating."),
    }[kind]


def _not_made(kind: str) -> str:
    return {
        ProposalKind.PAUSE: _("No pause was proposed."),
        ProposalKind.EXTRA_TIME: _("No extra time was asked for."),
        ProposalKind.DRAW: _("No draw was offered."),
        ProposalKind.CANCEL: _("No cancellation was proposed."),
    }[kind]


def _agreed(kind: str, days: int) -> str:
    return {
        ProposalKind.PAUSE: ngettext("You agreed to pause every clock at the table for %(days)s day.",
                                     "You agreed to pause every clock at the table for %(days)s days.", days),
        ProposalKind.EXTRA_TIME: ngettext("You agreed to give %(for_player)s %(days)s more day.",
                                          "You agreed to give %(for_player)s %(days)s more days.", days),
        ProposalKind.DRAW: _("You agreed to %(player)s's offer of a draw."),
        ProposalKind.CANCEL: _("You agreed to cancel the game."),
    }[kind]


def _agreed_by_all(kind: str) -> str:
    return {
        ProposalKind.PAUSE: _("Everyone has agreed: the clocks are paused, and every deadline moves out by as much."),
        ProposalKind.EXTRA_TIME: _("Everyone has agreed: %(for_player)s has the time for their current turn or their "
                                   "next one."),
        ProposalKind.DRAW: _("Everyone has agreed: the game ended as a draw."),
        ProposalKind.CANCEL: _("Everyone has agreed: the game was cancelled. It has no result and counts for nobody's "
                               "rating."),
    }[kind]


def _declined(kind: str) -> str:
    return {
        ProposalKind.PAUSE: _("You declined %(player)s's proposal to pause the clocks."),
        ProposalKind.EXTRA_TIME: _("You declined %(player)s's proposal to give %(for_player)s more time."),
        ProposalKind.DRAW: _("You declined %(player)s's offer of a draw."),
        ProposalKind.CANCEL: _("You declined %(player)s's proposal to cancel the game."),
    }[kind]


def help_text(game: Game | None, user, said: dict[str, str]) -> list[str]:
    """The sentences the help answer adds for the proposals the player may make at the game now (as the game page
    offers them: ``checks.proposals_offered``), each one whole."""
    seat = _seat_of(game, user) if game is not None and user is not None else None
    if seat is None:
        return []
    offered = proposals_offered(Viewer(game=game, seat=seat))
    values = {**said, "pause_most": PAUSE_DAYS_MOST, "pause_days": commands.DEFAULT_DAYS[commands.PAUSE],
              "more_most": EXTRA_DAYS_MOST, "more_days": commands.DEFAULT_DAYS[commands.MORE_TIME]}
    sentences = {
        ProposalKind.PAUSE: _("\"%(pause)s N\" proposes to the others at the table to pause every clock for N days "
                              "(at most %(pause_most)s; without a number, %(pause_days)s)."),
        ProposalKind.EXTRA_TIME: _("\"%(more_time)s N\" asks the others for N more days for your turn (at most "
                                   "%(more_most)s; without a number, %(more_days)s)."),
        ProposalKind.DRAW: _("\"%(draw)s\" offers the others a draw."),
        ProposalKind.CANCEL: _("\"%(cancel)s\" proposes to cancel the game: it would end with no result, unrated."),
    }
    return [sentences[kind] % values for kind in offered if kind in sentences]
