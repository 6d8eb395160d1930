"""Takebacks by email (issue 46): the others at the table are emailed a takeback asked of them, once, in their
language, with a reply address of the game; a reply saying "accept" or "decline" answers it, one saying "takeback"
asks for one's last move back; how it was settled is emailed to the others; every refusal is answered with its
reason and changes nothing."""

from __future__ import annotations

import pytest
from django.utils import translation

from games import get_engine
from games.record import canonical_json
from tests.platform.mail.conftest import latest_to, reply_bytes, title_in, turn_email, worded  # noqa: F401
from turnbased.accounts.services.languages import language_choose
from turnbased.agreements import services
from turnbased.agreements.models import Proposal, ProposalStatus
from turnbased.mail import commands, delivery, outbox
from turnbased.mail.inbound import handle_inbound
from turnbased.mail.models import EmailKind, InboundEmail, OutgoingEmail
from turnbased.mail.tokens import read_reply_address
from turnbased.notifications.models import Notification, NotificationKind
from turnbased.play import services as play_services
from turnbased.play.models import Game, GameStatus, Move, MoveSource

pytestmark = pytest.mark.django_db

SAVERNAKE = "savernake-forest"
ASKS = "%(player)s asks to take back move %(move)s at %(game)s"


def _forest(alice, bob) -> Game:
    """A two-player Savernake Forest game, alice first: her first turn may be taken back (it ends no round)."""
    game = play_services.create_game(creator=alice, engine_slug=SAVERNAKE, players=2, seed="takebacks",
                                     options={"first_player": 0})
    play_services.join_game(game_id=game.pk, user=bob)
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE and game.to_move == [0]
    return game


def _first_move(game: Game, seat: int) -> dict:
    game.refresh_from_db()
    return get_engine(SAVERNAKE).legal_moves(game.state, seat)[0]


def _move(game: Game, user, seat: int) -> Game:
    move = _first_move(game, seat)
    play_services.submit_move(game_id=game.pk, user=user, expected_seq=game.seq, move=move)
    game.refresh_from_db()
    return game


def _news(user):
    return OutgoingEmail.objects.filter(kind=EmailKind.AGREEMENT, user=user).order_by("pk")


def _as_sent(row: OutgoingEmail):
    """The outbox's row as the message the player receives (and replies to)."""
    return outbox.message_of(row)


def _turn_email(game: Game, user, mailoutbox):
    """The player's turn email for the game's current position, sent now."""
    row = Notification.objects.get(game=game, kind=NotificationKind.YOUR_TURN, user=user, seq=game.seq)
    delivery.deliver(row.pk)
    email = latest_to(mailoutbox, user.email)
    assert read_reply_address(email.reply_to[0]).seq == game.seq
    return email


def test_the_others_are_emailed_the_takeback_once_in_their_language(alice, bob):
    language_choose(user=bob, language="hu")
    game = _move(_forest(alice, bob), alice, 0)
    services.takeback_ask(game_id=game.pk, user=alice)
    (row,) = _news(bob)
    assert not _news(alice).exists()  # she asked: nothing to tell her
    expected = worded("hu", ASKS, player="alice", move=1, game=title_in("hu", game))
    assert row.subject == expected
    if worded("hu", ASKS) != ASKS:
        assert row.subject != ASKS % {"player": "alice", "move": 1, "game": game.title}
    # else: the Hungarian catalog does not hold the takeback's words yet (they are translated later), so they read
    # in English for now; the email is still written in Hungarian: its page and its footer say so.
    assert 'lang="hu"' in row.html and worded("hu", "Email settings") in row.text
    words = commands.shown_words("hu")
    assert words["accept"] in row.text and words["decline"] in row.text and f"/games/{game.pk}/" in row.text
    # Its reply address is the game's at the position the takeback was asked at: a reply reaches the game.
    token = read_reply_address(row.reply_to)
    assert (token.user_id, token.game_id, token.seq) == (bob.pk, game.pk, game.seq)


def test_the_email_says_what_a_takeback_means(alice, bob):
    game = _move(_forest(alice, bob), alice, 0)
    services.takeback_ask(game_id=game.pk, user=alice)
    (row,) = _news(bob)
    assert row.subject == ASKS % {"player": "alice", "move": 1, "game": game.title}
    assert "the game goes back to the position before that move" in row.text
    assert "only if everyone else at the table agrees by" in row.text and "before anyone moves" in row.text
    assert 'reply to this email with "accept" or "decline" on the first line' in row.text
    assert f"/games/{game.pk}/" in row.text and f'href="http' in row.html


def test_accept_by_reply_takes_the_move_back(alice, bob, mailoutbox):
    game = _forest(alice, bob)
    start = canonical_json(game.state)
    game = _move(game, alice, 0)
    services.takeback_ask(game_id=game.pk, user=alice)
    (row,) = _news(bob)
    assert handle_inbound(reply_bytes(_as_sent(row), "Accept.")) == "accepted: taken back"
    game.refresh_from_db()
    assert game.seq == 2 and game.to_move == [0] and canonical_json(game.state) == start
    assert Move.objects.get(game=game, seq=2).source == MoveSource.AGREED
    assert Proposal.objects.get().status == ProposalStatus.ACCEPTED
    answer = latest_to(mailoutbox, "bob@example.com", "Re: ")
    assert "You agreed to take back alice's move 1." in answer.body
    assert "the move was taken back, and it is alice's turn again" in answer.body
    # Alice is told (and the core sends her turn email); bob, who settled it, is not told what he did.
    (told,) = _news(alice)
    assert told.subject == f"Your move 1 at {game.title} was taken back" and "your turn again" in told.text
    assert not told.reply_to and _news(bob).count() == 1
    assert Notification.objects.filter(game=game, user=alice, kind=NotificationKind.YOUR_TURN, seq=2).exists()
    # The same reply delivered again is handled once.
    assert handle_inbound(reply_bytes(_as_sent(row), "accept", message_id=answer.extra_headers["In-Reply-To"])) \
        == "duplicate"


def test_decline_by_reply_settles_it_declined(alice, bob, mailoutbox):
    game = _move(_forest(alice, bob), alice, 0)
    before = (game.seq, canonical_json(game.state))
    services.takeback_ask(game_id=game.pk, user=alice)
    (row,) = _news(bob)
    assert handle_inbound(reply_bytes(_as_sent(row), "no")) == "declined"
    game.refresh_from_db()
    assert (game.seq, canonical_json(game.state)) == before
    assert Proposal.objects.get().status == ProposalStatus.DECLINED
    assert "You declined alice's request to take back move 1." in latest_to(mailoutbox, "bob@example.com").body
    (told,) = _news(alice)
    assert told.subject == f"Takeback declined at {game.title}"
    assert "bob declined your request to take back move 1" in told.text
    # Answering again is refused with the reason, and changes nothing.
    assert handle_inbound(reply_bytes(_as_sent(row), "accept")).startswith("accept refused: ")
    answer = latest_to(mailoutbox, "bob@example.com")
    assert "Your answer to the takeback was not counted." in answer.body and "already settled" in answer.body
    assert Proposal.objects.get().status == ProposalStatus.DECLINED and Game.objects.get(pk=game.pk).seq == before[0]


def test_a_withdrawal_is_told_plainly(alice, bob):
    game = _move(_forest(alice, bob), alice, 0)
    proposal = services.takeback_ask(game_id=game.pk, user=alice)
    services.proposal_withdraw(game_id=game.pk, proposal_id=proposal.pk, user=alice)
    told = _news(bob).last()
    assert told.subject == f"Takeback withdrawn at {game.title}"
    assert "alice withdrew the request to take back move 1" in told.text and "the move stands" in told.text
    assert not _news(alice).exists()


def test_a_takeback_asked_by_reply_to_the_players_turn_email(alice, bob, mailoutbox):
    game = _forest(alice, bob)
    # Her turn email for the position she moved from is the last email of the game she holds: it takes the ask.
    turn = _turn_email(game, alice, mailoutbox)
    with translation.override("en"):
        written = get_engine(SAVERNAKE).describe_move(game.state, _first_move(game, 0))
    assert handle_inbound(reply_bytes(turn, written)).startswith("played")
    assert handle_inbound(reply_bytes(turn, "take back")) == "takeback asked"
    answer = latest_to(mailoutbox, "alice@example.com", "Re: ")
    assert "You asked to take back your move 1." in answer.body and "before anyone moves" in answer.body
    proposal = Proposal.objects.get()
    assert proposal.status == ProposalStatus.OPEN and proposal.proposer == alice and proposal.terms == {"seq": 1}
    (row,) = _news(bob)
    assert row.subject == ASKS % {"player": "alice", "move": 1, "game": game.title}
    # Asking again is refused with the reason.
    assert handle_inbound(reply_bytes(turn, "undo")).startswith("takeback refused: ")
    assert "No takeback was asked." in latest_to(mailoutbox, "alice@example.com").body
    assert Proposal.objects.count() == 1


def test_a_takeback_only_bots_must_agree_to_is_carried_at_once(alice, mailoutbox):
    game = play_services.create_game(creator=alice, engine_slug=SAVERNAKE, players=2, seed="takebacks",
                                     options={"first_player": 0}, bots={1: "random"})
    game.refresh_from_db()
    start = canonical_json(game.state)
    turn = _turn_email(game, alice, mailoutbox)
    game = _move(game, alice, 0)
    assert handle_inbound(reply_bytes(turn, "takeback")) == "taken back"
    answer = latest_to(mailoutbox, "alice@example.com", "Re: ")
    assert "Your move 1 was taken back." in answer.body and "it is your turn again" in answer.body
    game.refresh_from_db()
    assert canonical_json(game.state) == start and game.to_move == [0]
    assert not OutgoingEmail.objects.filter(kind=EmailKind.AGREEMENT).exists()  # she did it: nobody else to tell


def test_an_answer_to_an_email_older_than_the_takeback_asks_to_confirm(alice, bob, mailoutbox):
    game = _move(_forest(alice, bob), alice, 0)
    bobs_turn = _turn_email(game, bob, mailoutbox)  # written at move 1
    game = _move(game, bob, 1)
    game = _move(game, alice, 0)
    try:
        services.takeback_ask(game_id=game.pk, user=alice)
    except Exception as refused:  # a turn that ended its round may not be taken back: nothing to check here then
        pytest.skip(f"alice's third move may not be taken back: {refused}")
    assert handle_inbound(reply_bytes(bobs_turn, "accept")) == "accept to confirm"
    confirmation = latest_to(mailoutbox, "bob@example.com", "Re: ")
    assert 'Reply "accept" or "decline" to this email' in confirmation.body
    assert Proposal.objects.get().status == ProposalStatus.OPEN
    assert read_reply_address(confirmation.reply_to[0]).seq == game.seq
    assert handle_inbound(reply_bytes(confirmation, "accept")) == "accepted: taken back"
    assert Game.objects.get(pk=game.pk).seq == game.seq + 1


def test_accept_with_no_takeback_asked_is_read_as_a_move(alice, bob, mailoutbox):
    game = _forest(alice, bob)
    turn = _turn_email(game, alice, mailoutbox)
    assert handle_inbound(reply_bytes(turn, "accept")).startswith("illegal")
    assert Game.objects.get(pk=game.pk).seq == 0


def test_a_refused_takeback_is_answered_with_its_reason_and_changes_nothing(started_game, alice, turn_email,
                                                                         mailoutbox):  # noqa: F811
    # Love Letter: every card played is followed by a card drawn, so no move may be taken back.
    play_services.submit_move(game_id=started_game.pk, user=alice, expected_seq=0, move={"card": "handmaid"})
    state = canonical_json(Game.objects.get(pk=started_game.pk).state)
    outcome = handle_inbound(reply_bytes(turn_email, "takeback"))
    assert outcome.startswith("takeback refused: ") and "no move can be taken back" in outcome
    answer = latest_to(mailoutbox, "alice@example.com", "Re: ")
    assert "No takeback was asked." in answer.body and "no move can be taken back" in answer.body
    game = Game.objects.get(pk=started_game.pk)
    assert game.seq == 1 and canonical_json(game.state) == state
    assert not Proposal.objects.exists() and not OutgoingEmail.objects.filter(kind=EmailKind.AGREEMENT).exists()
    assert InboundEmail.objects.get(outcome=outcome).status == "rejected"


def test_help_names_the_takeback_words_where_moves_may_be_taken_back(alice, bob, mailoutbox):
    game = _forest(alice, bob)
    turn = _turn_email(game, alice, mailoutbox)
    assert handle_inbound(reply_bytes(turn, "help")) == "help"
    assert '"takeback" asks the others at the table' in latest_to(mailoutbox, "alice@example.com", "Re: ").body


def test_the_takeback_words_are_read_in_english_whatever_the_language():
    for language in ("en", "hu", "de"):
        for line in ("takeback", "Take back", "UNDO", "takeback."):
            assert commands.read(line, language) == commands.TAKEBACK, (language, line)
    assert commands.read("take back my move", "en") is None  # the whole line, as resign
