"""Agreements by vote by email (issue 46): a pause, extra time, a draw or a cancel proposed at a table is emailed to
the others with a subject that says what is proposed; a reply saying "accept" carries it (the clocks paused, the
time given, the game drawn or cancelled), "decline" settles it; a reply saying "pause 3", "more time", "draw" or
"cancel", in the player's words or in English, proposes it; a refusal is answered with its reason and changes
nothing; how it was settled is emailed to the others, not to whoever settled it."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import translation

from games import get_engine
from games.base import AGREED_DRAW
from games.record import canonical_json
from tests.platform.mail.conftest import latest_to, reply_bytes, turn_email, worded  # noqa: F401
from turnbased.accounts.services.languages import language_choose
from turnbased.agreements import services
from turnbased.agreements.models import Proposal, ProposalStatus
from turnbased.clocks.models import SeatClock, TableClock
from turnbased.mail import commands, delivery, outbox
from turnbased.mail.inbound import handle_inbound
from turnbased.mail.models import EmailKind, InboundEmail, OutgoingEmail
from turnbased.mail.tokens import read_reply_address
from turnbased.notifications.models import Notification, NotificationKind
from turnbased.play import services as play_services
from turnbased.play.models import Game, GameStatus

pytestmark = pytest.mark.django_db

DAY = 86400
CLOCK = {"kind": "per_move", "days_per_move": 3}
# What alice proposes of each kind (extra time: for her own seat) and the subject of bob's email of it.
PROPOSED = {
    "pause": ({"days": 3}, "alice proposes to pause the clocks at {game} for 3 days"),
    "extra_time": ({"days": 2}, "alice asks for 2 more days at {game}"),
    "draw": (None, "alice offers a draw at {game}"),
    "cancel": (None, "alice proposes to cancel {game}"),
}
# The subject of alice's email once bob accepted, and of the one once he declined.
CARRIED = {"pause": "The clocks at {game} are paused for 3 days", "extra_time": "You have 2 more days at {game}",
           "draw": "{game} ended as a draw", "cancel": "{game} was cancelled"}
DECLINED = {"pause": "Pause declined at {game}", "extra_time": "Extra time declined at {game}",
            "draw": "Draw declined at {game}", "cancel": "Cancellation declined at {game}"}


def _table(alice, bob, slug: str = "halali", clock: dict | None = None, **create) -> Game:
    """A two-player table with a clock (per move, absences allowed: it may be paused), alice and bob at it."""
    game = play_services.create_game(creator=alice, engine_slug=slug, players=2, seed="vote-email",
                                     time_control=CLOCK if clock is None else clock, **create)
    play_services.join_game(game_id=game.pk, user=bob)
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE
    return game


def _seat(game: Game, user) -> int:
    return next(seat.index for seat in game.seats.all() if seat.user_id == user.pk)


def _move(game: Game, alice, bob) -> Game:
    game.refresh_from_db()
    seat = game.to_move[0]
    user = alice if _seat(game, alice) == seat else bob
    move = get_engine(game.engine).legal_moves(game.state, seat)[0]
    play_services.submit_move(game_id=game.pk, user=user, expected_seq=game.seq, move=move)
    game.refresh_from_db()
    return game


def _propose(game: Game, alice, kind: str) -> Proposal:
    terms = PROPOSED[kind][0]
    if kind == "extra_time":
        terms = {**terms, "seat": _seat(game, alice)}
    return services.proposal_make(game_id=game.pk, user=alice, kind=kind, terms=terms)


def _news(user):
    return OutgoingEmail.objects.filter(kind=EmailKind.AGREEMENT, user=user).order_by("pk")


def _turn_email(game: Game, user, mailoutbox):
    """The player's turn email for the game's current position, sent now."""
    game.refresh_from_db()
    row = Notification.objects.get(game=game, kind=NotificationKind.YOUR_TURN, user=user, seq=game.seq)
    delivery.deliver(row.pk)
    return latest_to(mailoutbox, user.email)


def _mover(game: Game, alice, bob):
    return alice if _seat(game, alice) == game.to_move[0] else bob


def _state(game: Game) -> tuple:
    """What a refused command must leave as it was."""
    game.refresh_from_db()
    clocks = list(SeatClock.objects.filter(game=game).order_by("seat").values_list("deadline", "extra_seconds"))
    pauses = TableClock.objects.filter(game=game).values_list("pauses", flat=True).first()
    return game.status, game.seq, canonical_json(game.state), clocks, pauses, Proposal.objects.count()


def _made_heading(kind: str, days: int) -> tuple:
    """The heading of the answer to a proposal made by reply, as (singular, plural, days) or (text,)."""
    return {
        "pause": ("You proposed to pause every clock at the table for %(days)s day.",
                  "You proposed to pause every clock at the table for %(days)s days.", days),
        "extra_time": ("You asked for %(days)s more day for your turn.",
                       "You asked for %(days)s more days for your turn.", days),
        "draw": ("You offered a draw.",),
        "cancel": ("You proposed to cancel the game: it would end with no result and count for nobody's rating.",),
    }[kind]


def _in(language: str, text: tuple) -> str:
    """``text`` (``_made_heading``'s) as the catalogs word it in ``language``."""
    with translation.override(language):
        if len(text) == 1:
            return translation.gettext(text[0])
        return translation.ngettext(*text) % {"days": text[2]}


@pytest.mark.parametrize("kind", list(PROPOSED))
def test_the_proposal_is_emailed_to_the_other_with_a_subject_saying_what_is_proposed(kind, alice, bob):
    game = _table(alice, bob)
    _propose(game, alice, kind)
    (row,) = _news(bob)
    assert row.subject == PROPOSED[kind][1].format(game=game.title)
    assert not _news(alice).exists()  # she proposed it: nothing to tell her
    assert 'reply to this email with "accept" or "decline" on the first line' in row.text
    assert f"/games/{game.pk}/" in row.text and "<strong>" in row.html
    # Its reply address is the game's at the position the proposal was made at: a reply reaches the game.
    token = read_reply_address(row.reply_to)
    assert (token.user_id, token.game_id, token.seq) == (bob.pk, game.pk, game.seq)


def test_the_email_says_what_each_proposal_would_do_and_until_when(alice, bob):
    game = _table(alice, bob)
    proposal = _propose(game, alice, "pause")
    assert "every deadline moves out by as much" in _news(bob).get().text
    services.proposal_withdraw(game_id=game.pk, proposal_id=proposal.pk, user=alice)
    _propose(game, alice, "draw")
    text = _news(bob).last().text
    assert "the game would end now, drawn for everyone" in text and "before anyone moves" in text


@pytest.mark.parametrize("kind", list(PROPOSED))
def test_accept_by_reply_carries_it_and_tells_the_proposer_only(kind, alice, bob, mailoutbox):
    game = _table(alice, bob)
    deadlines = dict(SeatClock.objects.filter(game=game).values_list("seat", "deadline"))
    _propose(game, alice, kind)
    (row,) = _news(bob)
    assert handle_inbound(reply_bytes(outbox.message_of(row), "Accept.")) == f"accepted: {kind} carried"
    game.refresh_from_db()
    assert Proposal.objects.get().status == ProposalStatus.ACCEPTED
    if kind == "pause":
        assert TableClock.objects.get(game=game).pauses
        running = {seat: deadline for seat, deadline in deadlines.items() if deadline is not None}
        moved = dict(SeatClock.objects.filter(game=game).values_list("seat", "deadline"))
        assert running and all(moved[seat] - deadline >= timedelta(days=3) for seat, deadline in running.items())
    elif kind == "extra_time":
        assert SeatClock.objects.get(game=game, seat=_seat(game, alice)).extra_seconds == 2 * DAY
    elif kind == "draw":
        assert game.status == GameStatus.FINISHED and game.result["decided"] == AGREED_DRAW
    else:
        assert game.status == GameStatus.ABORTED
    answer = latest_to(mailoutbox, "bob@example.com", "Re: ").body
    assert "Everyone has agreed" in answer
    # Alice is told; bob, who settled it, is not told what he did.
    (told,) = _news(alice)
    assert told.subject == CARRIED[kind].format(game=game.title) and not told.reply_to
    assert _news(bob).count() == 1


@pytest.mark.parametrize("kind", list(PROPOSED))
def test_decline_by_reply_settles_it_declined_and_changes_nothing(kind, alice, bob, mailoutbox):
    game = _table(alice, bob)
    _propose(game, alice, kind)
    before = _state(game)
    (row,) = _news(bob)
    assert handle_inbound(reply_bytes(outbox.message_of(row), "no")) == "declined"
    assert _state(game) == before
    assert Proposal.objects.get().status == ProposalStatus.DECLINED
    answer = latest_to(mailoutbox, "bob@example.com", "Re: ").body
    assert "You declined alice's" in answer and "Nothing changes, and the game goes on." in answer
    (told,) = _news(alice)
    assert told.subject == DECLINED[kind].format(game=game.title) and "bob declined the" in told.text
    assert _news(bob).count() == 1
    # Answering again is refused with the reason, and changes nothing.
    assert handle_inbound(reply_bytes(outbox.message_of(row), "accept")).startswith("accept refused: ")
    answer = latest_to(mailoutbox, "bob@example.com", "Re: ").body
    assert "Your answer to the proposal was not counted." in answer and "already settled" in answer
    assert _state(game) == before


def test_a_withdrawal_is_told_to_the_others_not_to_the_one_who_withdrew(alice, bob):
    game = _table(alice, bob)
    proposal = _propose(game, alice, "extra_time")
    services.proposal_withdraw(game_id=game.pk, proposal_id=proposal.pk, user=alice)
    told = _news(bob).last()
    assert told.subject == f"Extra time withdrawn at {game.title}"
    assert "alice withdrew the proposal to give alice more time" in told.text
    assert not _news(alice).exists()


@pytest.mark.parametrize(("language", "line", "kind", "days"), [
    ("hu", "szünet 5", "pause", 5), ("hu", "szunet", "pause", 3), ("hu", "Több idő 4 napra", "extra_time", 4),
    ("hu", "tobb ido", "extra_time", 2), ("hu", "Döntetlen", "draw", None), ("hu", "lefújás", "cancel", None),
    ("hu", "megszakitas", "cancel", None),
    ("de", "Pause 3 Tage", "pause", 3), ("de", "mehr Zeit 2", "extra_time", 2), ("de", "Remis!", "draw", None),
    ("de", "abbrechen", "cancel", None),
    ("de", "pause 7", "pause", 7), ("hu", "draw", "draw", None),  # English, whatever the player's language
])
def test_a_command_in_the_players_words_proposes_it(language, line, kind, days, alice, bob, mailoutbox):
    for user in (alice, bob):
        language_choose(user=user, language=language)
    game = _table(alice, bob)
    mover, other = (alice, bob) if _mover(game, alice, bob) == alice else (bob, alice)
    turn = _turn_email(game, mover, mailoutbox)
    assert handle_inbound(reply_bytes(turn, line)) == f"{kind} proposed"
    proposal = Proposal.objects.get()
    assert proposal.kind == kind and proposal.proposer == mover and proposal.status == ProposalStatus.OPEN
    expected = {"pause": {"days": days}, "extra_time": {"seat": _seat(game, mover), "days": days}}.get(kind, {})
    assert proposal.terms == expected
    heading = _made_heading(kind, days or 0)
    assert _in(language, heading) in latest_to(mailoutbox, mover.email, "Re: ").body
    assert _in(language, heading) != _in("en", heading)  # in the player's language, not in English
    (row,) = _news(other)
    assert worded(language, "Hello %(name)s,", name=other.username) in row.text


def test_a_command_only_bots_must_agree_to_is_carried_at_once(alice, mailoutbox):
    for seed in ("bots-1", "bots-2", "bots-3", "bots-4", "bots-5", "bots-6"):  # a deal at which alice moves first
        game = play_services.create_game(creator=alice, engine_slug="halali", players=2, seed=seed,
                                         bots={1: "random"}, time_control=CLOCK)
        game.refresh_from_db()
        if game.to_move == [0]:
            break
    assert game.to_move == [0]
    turn = _turn_email(game, alice, mailoutbox)
    assert handle_inbound(reply_bytes(turn, "pause")) == "pause carried"
    answer = latest_to(mailoutbox, "alice@example.com", "Re: ").body
    assert "Every clock at the table is paused for 3 days." in answer and "done at once" in answer
    assert TableClock.objects.get(game=game).pauses
    assert not OutgoingEmail.objects.filter(kind=EmailKind.AGREEMENT).exists()  # she did it: nobody else to tell


@pytest.mark.parametrize(("line", "slug", "clock", "reason"), [
    ("pause 2", "halali", {"kind": "none"}, "no clock"),
    ("more time", "halali", {"kind": "none"}, "no clock"),
    ("pause 30", "halali", None, "from 1 to 14"),
    ("draw", "love-letter", None, "no shared result"),
])
def test_a_refused_command_is_answered_with_its_reason_and_changes_nothing(line, slug, clock, reason, alice, bob,
                                                                          mailoutbox):
    game = _table(alice, bob, slug=slug, clock=clock)
    mover = _mover(game, alice, bob)
    turn = _turn_email(game, mover, mailoutbox)
    before = _state(game)
    outcome = handle_inbound(reply_bytes(turn, line))
    kind = commands.read(line, "en")
    proposal_kind = "extra_time" if kind == commands.MORE_TIME else kind
    assert outcome.startswith(f"{proposal_kind} refused: ") and reason in outcome
    answer = latest_to(mailoutbox, mover.email, "Re: ").body
    heading = {"pause": "No pause was proposed.", "more_time": "No extra time was asked for.",
               "draw": "No draw was offered."}[kind]
    assert heading in answer and reason in answer
    assert _state(game) == before and not Proposal.objects.exists()
    assert not OutgoingEmail.objects.filter(kind=EmailKind.AGREEMENT).exists()
    assert InboundEmail.objects.get(outcome=outcome).status == "rejected"


def test_a_pause_is_answered_from_a_later_email_but_not_from_an_earlier_one(alice, bob, mailoutbox):
    game = _table(alice, bob)
    first, second = _mover(game, alice, bob), (bob if _mover(game, alice, bob) == alice else alice)
    game = _move(game, alice, bob)
    earlier = _turn_email(game, second, mailoutbox)  # written before the pause was proposed
    game = _move(game, alice, bob)
    services.proposal_make(game_id=game.pk, user=first, kind="pause", terms={"days": 2})
    assert handle_inbound(reply_bytes(earlier, "accept")) == "accept to confirm"
    assert Proposal.objects.get().status == ProposalStatus.OPEN
    confirmation = latest_to(mailoutbox, second.email, "Re: ").body
    assert f"to answer {first.username}'s proposal to pause the clocks." in confirmation
    assert "written before this proposal was made" in confirmation
    # A move does not lapse a pause: an email of a later position still answers it.
    game = _move(game, alice, bob)
    later = _turn_email(game, second, mailoutbox)
    assert read_reply_address(later.reply_to[0]).seq > Proposal.objects.get().seq
    assert handle_inbound(reply_bytes(later, "accept")) == "accepted: pause carried"
    assert Proposal.objects.get().status == ProposalStatus.ACCEPTED


def test_a_draw_is_answered_only_from_the_position_it_was_offered_at(alice, bob, mailoutbox):
    game = _table(alice, bob)
    first, second = _mover(game, alice, bob), (bob if _mover(game, alice, bob) == alice else alice)
    game = _move(game, alice, bob)
    earlier = _turn_email(game, second, mailoutbox)
    game = _move(game, alice, bob)
    services.proposal_make(game_id=game.pk, user=first, kind="draw")
    assert handle_inbound(reply_bytes(earlier, "yes")) == "accept to confirm"
    assert Proposal.objects.get().status == ProposalStatus.OPEN
    confirmation = latest_to(mailoutbox, second.email, "Re: ")
    assert f"to answer {first.username}'s offer of a draw" in confirmation.body
    assert read_reply_address(confirmation.reply_to[0]).seq == game.seq
    assert handle_inbound(reply_bytes(confirmation, "accept")) == "accepted: draw carried"
    assert Game.objects.get(pk=game.pk).result["decided"] == AGREED_DRAW


def test_help_names_the_proposals_the_game_allows(alice, bob, started_game, turn_email, mailoutbox):  # noqa: F811
    game = _table(alice, bob)
    assert handle_inbound(reply_bytes(_turn_email(game, _mover(game, alice, bob), mailoutbox), "help")) == "help"
    helped = [m for m in mailoutbox if m.subject.startswith("Re: ")][-1].body
    assert '"pause N" proposes to the others at the table to pause every clock' in helped
    assert '"more time N" asks the others for N more days' in helped and "without a number, 2" in helped
    assert '"draw" offers the others a draw.' in helped and '"cancel" proposes to cancel the game' in helped
    # Love Letter shares no result, so no draw is offered; nor a takeback, so the answer words are named once.
    assert handle_inbound(reply_bytes(turn_email, "help")) == "help"
    helped = latest_to(mailoutbox, "alice@example.com", "Re: ").body
    assert '"draw"' not in helped and '"cancel" proposes to cancel the game' in helped
    assert 'When someone at the table proposes something, reply "accept" or "decline".' in helped


@pytest.mark.parametrize(("language", "line", "kind", "days"), [
    ("en", "pause", commands.PAUSE, 3), ("en", "Pause 10 days.", commands.PAUSE, 10),
    ("en", "more time", commands.MORE_TIME, 2), ("en", "extra time 1 day", commands.MORE_TIME, 1),
    ("hu", "szünet 2 nap", commands.PAUSE, 2), ("hu", "plusz ido 3 napot", commands.MORE_TIME, 3),
    ("de", "PAUSE 4 tagen", commands.PAUSE, 4), ("de", "Zusatzzeit", commands.MORE_TIME, 2),
    ("hu", "dontetlent ajanlok", commands.DRAW, None), ("de", "Remis anbieten", commands.DRAW, None),
    ("de", "Abbruch", commands.CANCEL, None), ("en", "cancel", commands.CANCEL, None),
])
def test_the_proposal_words_are_read_with_their_days(language, line, kind, days):
    assert commands.read(line, language) == kind
    if days is not None:
        assert commands.days_in(line, kind, language) == days


@pytest.mark.parametrize(("language", "line"), [
    ("en", "pause three"), ("en", "pause 3 weeks"), ("en", "more time please"), ("en", "draw a card"),
    ("en", "szünet 3"), ("hu", "Pause 3 Tage"), ("en", "Remis"),
])
def test_a_line_that_only_begins_like_a_proposal_is_no_command(language, line):
    assert commands.read(line, language) is None
