"""Agreements by vote (issue 46): a pause of the table's clocks, extra time for a seat, a draw, a cancel. Each is
carried when every other person at the table agrees, refused with a clear 4xx and nothing changed where the table,
the game or its clock does not allow it, answered by bots as the players' guide says, and settled by the game's
lock when it races a move."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.utils import timezone

from games import get_engine
from games.base import AGREED_DRAW
from games.record import canonical_json, verify_record
from tests.racing import Request, race
from turnbased.agreements import services
from turnbased.agreements.models import Proposal, ProposalStatus
from turnbased.agreements.signals import proposal_decided
from turnbased.clocks.models import SeatClock, TableClock
from turnbased.events.models import Event, EventKind
from turnbased.events.wording import worded_payload
from turnbased.kit.errors import Conflict, InvalidRequest, NotAllowed, Unprocessable
from turnbased.play import services as play_services
from turnbased.play.models import Game, GameStatus, Move
from turnbased.play.records import complete_record
from turnbased.ratings.models import RatingChange

pytestmark = pytest.mark.django_db

DAY = 86400


def _table(alice, bob, slug="halali", clock=None, **create) -> Game:
    clock = {"kind": "per_move", "days_per_move": 3} if clock is None else clock
    game = play_services.create_game(creator=alice, engine_slug=slug, players=2, seed="votes", time_control=clock,
                                     **create)
    invite = game.invite_code if game.visibility == "private" else None
    play_services.join_game(game_id=game.pk, user=bob, invite_code=invite)
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE
    return game


def _users(game: Game, alice, bob) -> dict:
    return {seat.index: (alice if seat.user_id == alice.pk else bob) for seat in game.seats.all()}


def _move(game: Game, users: dict) -> Game:
    game.refresh_from_db()
    seat = game.to_move[0]
    move = get_engine(game.engine).legal_moves(game.state, seat)[0]
    play_services.submit_move(game_id=game.pk, user=users[seat], expected_seq=game.seq, move=move)
    game.refresh_from_db()
    return game


def _unchanged(game: Game) -> tuple:
    game.refresh_from_db()
    clocks = list(SeatClock.objects.filter(game=game).order_by("seat").values_list("deadline", "extra_seconds"))
    table = TableClock.objects.filter(game=game).values_list("pauses", flat=True).first()
    return (game.status, game.seq, canonical_json(game.state), Proposal.objects.count(), clocks, table,
            Move.objects.filter(game=game).count())


def test_a_pause_everyone_agrees_moves_every_running_deadline_out_by_its_days(alice, bob, api_client_for):
    game = _table(alice, bob)
    before = {row.seat: row.deadline for row in SeatClock.objects.filter(game=game)}
    made = api_client_for(alice).post(f"/api/games/{game.pk}/proposals/", {"kind": "pause", "days": 3}, format="json")
    assert made.status_code == 201, made.content
    proposal = made.json()
    assert proposal["kind"] == "pause" and proposal["days"] == 3 and proposal["waiting_for"] == [1]
    told = Event.objects.get(user=bob, kind=EventKind.PROPOSAL_MADE)
    assert "proposes to pause the clocks" in worded_payload(told)["text"] and "3 days" in worded_payload(told)["text"]
    answered = api_client_for(bob).post(f"/api/games/{game.pk}/proposals/{proposal['id']}/answer/",
                                        {"accept": True}, format="json")
    assert answered.status_code == 200 and answered.json()["status"] == "accepted"
    after = {row.seat: row.deadline for row in SeatClock.objects.filter(game=game)}
    running = [seat for seat, deadline in before.items() if deadline is not None]
    assert running and all(timedelta(days=3) <= after[seat] - before[seat] < timedelta(days=3, minutes=1)
                           for seat in running)
    shown = api_client_for(bob).get(f"/api/games/{game.pk}/").json()
    assert shown["time_control"]["paused_until"] is not None
    again = api_client_for(bob).post(f"/api/games/{game.pk}/proposals/", {"kind": "pause", "days": 1}, format="json")
    assert again.status_code == 409 and "paused already" in again.json()["detail"]


def test_extra_time_goes_to_the_chosen_seat_for_one_turn(alice, bob, api_client_for):
    game = _table(alice, bob)
    users = _users(game, alice, bob)
    mover = game.to_move[0]
    waiting = 1 - mover
    before = SeatClock.objects.get(game=game, seat=mover).deadline
    proposal = services.proposal_make(game_id=game.pk, user=users[waiting], kind="extra_time",
                                      terms={"seat": mover, "days": 2})
    services.proposal_answer(game_id=game.pk, proposal_id=proposal.pk, user=users[mover], accept=True)
    clock = SeatClock.objects.get(game=game, seat=mover)
    assert clock.extra_seconds == 2 * DAY and clock.deadline - before >= timedelta(days=2)
    _move(game, users)
    clock.refresh_from_db()
    assert clock.extra_seconds == 0, "given for one turn: what it did not use is not kept"


def test_a_draw_everyone_agrees_ends_the_game_drawn_and_its_record_verifies(alice, bob):
    game = _table(alice, bob)
    users = _users(game, alice, bob)
    game = _move(game, users)
    proposal = services.proposal_make(game_id=game.pk, user=alice, kind="draw")
    services.proposal_answer(game_id=game.pk, proposal_id=proposal.pk, user=bob, accept=True)
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED and game.result["decided"] == AGREED_DRAW
    assert game.result["winners"] == [] and game.result["draw"] is True
    assert not SeatClock.objects.filter(game=game, deadline__isnull=False).exists()
    assert verify_record(complete_record(game)).ok
    finished = Event.objects.filter(kind=EventKind.GAME_FINISHED, game=game).count()
    assert finished == 2


def test_a_move_lapses_a_draw_but_not_a_pause(alice, bob):
    game = _table(alice, bob)
    users = _users(game, alice, bob)
    draw = services.proposal_make(game_id=game.pk, user=users[1 - game.to_move[0]], kind="draw")
    game = _move(game, users)
    with pytest.raises(Conflict, match="lapsed"):
        services.proposal_answer(game_id=game.pk, proposal_id=draw.pk, user=users[1 - draw.seat], accept=True)
    pause = services.proposal_make(game_id=game.pk, user=alice, kind="pause", terms={"days": 1})
    game = _move(game, users)
    services.proposal_answer(game_id=game.pk, proposal_id=pause.pk, user=bob, accept=True)
    pause.refresh_from_db()
    assert pause.status == ProposalStatus.ACCEPTED


def test_a_cancel_everyone_agrees_aborts_the_game_unrated_with_no_result(alice, bob):
    game = _table(alice, bob)
    users = _users(game, alice, bob)
    game = _move(game, users)
    proposal = services.proposal_make(game_id=game.pk, user=bob, kind="cancel")
    services.proposal_answer(game_id=game.pk, proposal_id=proposal.pk, user=alice, accept=True)
    game.refresh_from_db()
    assert game.status == GameStatus.ABORTED and game.result is None and game.to_move == []
    assert game.started_at is not None and game.finished_at is not None
    assert not RatingChange.objects.exists()
    assert not SeatClock.objects.filter(game=game, deadline__isnull=False).exists()
    assert verify_record(complete_record(game)).ok


@pytest.mark.parametrize(("kind", "terms", "status", "reason"), [
    ("pause", {"days": 0}, 400, "greater than or equal to 1"),  # out of the schema's range
    ("pause", {"days": 15}, 400, "less than or equal to 14"),
    ("pause", {}, 422, "days must be"),
    ("pause", {"days": 2, "seat": 0}, 422, "takes no seat"),
    ("extra_time", {"days": 2}, 422, "seat must be the number of a seat"),
    ("extra_time", {"seat": 5, "days": 2}, 422, "seat must be the number of a seat"),
    ("extra_time", {"seat": 1, "days": 8}, 422, "from 1 to 7"),
    ("draw", {"days": 1}, 422, "takes no days"),
    ("resign", {}, 400, "kind must be one of"),
])
def test_terms_a_kind_does_not_take_are_refused_with_a_4xx_and_change_nothing(kind, terms, status, reason, alice,
                                                                              bob, api_client_for):
    game = _table(alice, bob)
    before = _unchanged(game)
    answer = api_client_for(alice).post(f"/api/games/{game.pk}/proposals/", {"kind": kind, **terms}, format="json")
    assert answer.status_code == status, answer.content
    if kind != "resign":  # an unknown kind is refused by the request's shape, before the service
        assert reason in answer.json()["detail"]
    with pytest.raises(InvalidRequest if kind == "resign" else Unprocessable):  # the service: the schema aside
        services.proposal_make(game_id=game.pk, user=alice, kind=kind, terms=terms)
    assert _unchanged(game) == before


def test_what_the_clock_or_the_game_does_not_allow_is_refused_with_a_409(alice, bob, api_client_for):
    friendly = _table(alice, bob, clock={"kind": "none"})
    strict = _table(alice, bob, clock={"kind": "per_move", "days_per_move": 3, "allow_absence": False})
    letter = _table(alice, bob, slug="love-letter")
    cases = [(friendly, {"kind": "pause", "days": 2}, "no clock"), (friendly, {"kind": "extra_time", "seat": 1,
                                                                                 "days": 2}, "no clock"),
             (strict, {"kind": "pause", "days": 2}, "never stops"), (letter, {"kind": "draw"}, "no shared result")]
    for game, body, reason in cases:
        before = _unchanged(game)
        answer = api_client_for(alice).post(f"/api/games/{game.pk}/proposals/", body, format="json")
        assert answer.status_code == 409 and reason in answer.json()["detail"], (body, answer.content)
        assert _unchanged(game) == before
    listed = api_client_for(alice).get(f"/api/games/{friendly.pk}/proposals/").json()
    assert listed["offered"] == ["draw", "cancel"]
    assert api_client_for(alice).get(f"/api/games/{letter.pk}/proposals/").json()["offered"] == [
        "pause", "extra_time", "cancel"]


def test_a_waiting_proposal_a_spectator_a_left_player_and_a_busy_proposer_are_refused(alice, bob, carol,
                                                                                       api_client_for):
    game = _table(alice, bob)
    waiting = services.proposal_make(game_id=game.pk, user=alice, kind="pause", terms={"days": 2})
    before = _unchanged(game)
    with pytest.raises(Conflict, match="waiting for answers"):
        services.proposal_make(game_id=game.pk, user=bob, kind="cancel")
    assert api_client_for(carol).post(f"/api/games/{game.pk}/proposals/", {"kind": "draw"},
                                      format="json").status_code == 403
    with pytest.raises(NotAllowed):
        services.proposal_answer(game_id=game.pk, proposal_id=waiting.pk, user=alice, accept=True)
    assert _unchanged(game) == before
    services.proposal_withdraw(game_id=game.pk, proposal_id=waiting.pk, user=alice)
    # Three proposals a day at one game; the fourth is refused until the first is a day old.
    for _ in range(2):
        made = services.proposal_make(game_id=game.pk, user=alice, kind="cancel")
        services.proposal_withdraw(game_id=game.pk, proposal_id=made.pk, user=alice)
    before = _unchanged(game)
    with pytest.raises(Conflict, match="3 proposals at this game within a day"):
        services.proposal_make(game_id=game.pk, user=alice, kind="draw")
    assert _unchanged(game) == before
    Proposal.objects.filter(game=game).update(created_at=timezone.now() - timedelta(days=1, minutes=1))
    services.proposal_make(game_id=game.pk, user=alice, kind="draw")


def test_bots_accept_time_always_and_a_draw_or_a_cancel_only_where_the_rule_lets_them(alice):
    # A table with a bot seat is unrated: the bot agrees to all, and with nobody else to ask it is carried at once.
    game = play_services.create_game(creator=alice, engine_slug="halali", players=2, seed="votes", bots={1: "random"},
                                     time_control={"kind": "per_move", "days_per_move": 3})
    paused = services.proposal_make(game_id=game.pk, user=alice, kind="pause", terms={"days": 1})
    assert paused.status == ProposalStatus.ACCEPTED and [a.accepted for a in paused.answers.all()] == [True]
    drawn = services.proposal_make(game_id=game.pk, user=alice, kind="draw")
    assert drawn.status == ProposalStatus.ACCEPTED
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED and game.result["decided"] == AGREED_DRAW
    # Where bots do not agree (a competition's organiser said so), time is still given, a draw is refused.
    strict = play_services.create_game(creator=alice, engine_slug="halali", players=2, seed="votes",
                                       bots={1: "random"}, time_control={"kind": "per_move", "days_per_move": 3},
                                       terms={"agreements": {"bots_agree": False, "forbidden": ["cancel"]}})
    given = services.proposal_make(game_id=strict.pk, user=alice, kind="extra_time", terms={"seat": 0, "days": 1})
    assert given.status == ProposalStatus.ACCEPTED
    before = _unchanged(strict)
    with pytest.raises(Conflict, match="bot"):
        services.proposal_make(game_id=strict.pk, user=alice, kind="draw")
    with pytest.raises(NotAllowed, match="cannot be cancelled"):
        services.proposal_make(game_id=strict.pk, user=alice, kind="cancel")
    with pytest.raises(Conflict, match="bot plays that seat"):
        services.proposal_make(game_id=strict.pk, user=alice, kind="extra_time", terms={"seat": 1, "days": 1})
    assert _unchanged(strict) == before


def test_the_confirm_page_says_what_would_happen_or_why_not_and_its_post_proposes(alice, bob, carol, client):
    game = _table(alice, bob)
    client.force_login(alice)
    page = client.get(f"/games/{game.pk}/propose/pause/")
    assert page.status_code == 200 and 'name="days"' in page.content.decode()
    assert client.get(f"/games/{game.pk}/propose/resign/").status_code == 404
    panel = client.get(f"/games/{game.pk}/").content.decode()
    assert f"/games/{game.pk}/propose/extra_time/" in panel and f"/games/{game.pk}/propose/cancel/" in panel
    posted = client.post(f"/games/{game.pk}/propose/extra_time/", {"seat": "1", "days": "3"})
    assert posted.status_code == 302 and posted["Location"].endswith("#agreements")
    proposal = Proposal.objects.get(game=game)
    assert proposal.kind == "extra_time" and proposal.terms == {"seat": 1, "days": 3}
    refused = client.get(f"/games/{game.pk}/propose/draw/")
    assert refused.status_code == 409 and "waiting for answers" in refused.content.decode()
    client.force_login(bob)
    panel = client.get(f"/games/{game.pk}/").content.decode()
    assert "proposes to give" in panel and "Agree" in panel
    client.force_login(carol)
    assert client.get(f"/games/{game.pk}/propose/draw/").status_code == 403
    assert Proposal.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_draw_accepted_racing_a_move_is_settled_by_the_game_lock(make_user, api_client_for):
    """Bob accepts alice's draw and, at the same moment, plays his turn: one request wins the game's lock; the other
    is refused (409), and the game is either drawn with no move made or goes on with the draw lapsed."""
    alice, bob = make_user("alice"), make_user("bob")
    for attempt in range(3):
        game = _table(alice, bob)
        users = _users(game, alice, bob)
        if users[game.to_move[0]] != bob:
            game = _move(game, users)
        proposal = services.proposal_make(game_id=game.pk, user=alice, kind="draw")
        move = get_engine(game.engine).legal_moves(game.state, game.to_move[0])[0]
        answers = race(api_client_for,
                       Request("accept", bob, f"/api/games/{game.pk}/proposals/{proposal.pk}/answer/", {"accept": True}),
                       Request("move", bob, f"/api/games/{game.pk}/moves/", {"expected_seq": game.seq, "move": move}))
        assert sorted(answers.values()) in ([200, 409], [201, 409]), (attempt, answers)
        seq = game.seq
        game.refresh_from_db()
        proposal.refresh_from_db()
        drawn = answers["accept"] == 200
        assert drawn == (game.status == GameStatus.FINISHED) == (proposal.status == ProposalStatus.ACCEPTED)
        assert game.seq == (seq if drawn else seq + 1)


def test_a_drawn_and_a_cancelled_game_read_as_such_on_every_page_and_in_the_api(alice, bob, carol, client,
                                                                               api_client_for):
    drawn, cancelled = _table(alice, bob), _table(alice, bob, slug="carcassonne-hg")
    for game, kind in ((drawn, "draw"), (cancelled, "cancel")):
        made = services.proposal_make(game_id=game.pk, user=alice, kind=kind)
        services.proposal_answer(game_id=game.pk, proposal_id=made.pk, user=bob, accept=True)
    client.force_login(carol)  # a spectator: the game is over, everything is out
    page = client.get(f"/games/{drawn.pk}/").content.decode()
    assert "Drawn by agreement" in page and "Every player agreed to end the game here as a draw." in page
    shown = api_client_for(carol).get(f"/api/games/{drawn.pk}/").json()
    assert shown["status"] == "finished" and "Drawn by the players' agreement" in shown["result"]["summary"]
    assert client.get(f"/games/{cancelled.pk}/").status_code == 200
    assert api_client_for(carol).get(f"/api/games/{cancelled.pk}/").json()["status"] == "aborted"
    for game in (drawn, cancelled):
        assert client.get(f"/games/{game.pk}/replay/").status_code == 200
        assert client.get(f"/games/{game.pk}/verify/").status_code == 200
        assert api_client_for(carol).get(f"/api/games/{game.pk}/record/").status_code == 200
    # The players' proposals list keeps what was agreed, for the players alone.
    listed = api_client_for(bob).get(f"/api/games/{cancelled.pk}/proposals/").json()
    assert listed["proposals"][0]["kind"] == "cancel" and listed["proposals"][0]["status"] == "accepted"
    assert listed["offered"] == [] and listed["waiting"] is None


@pytest.mark.django_db(transaction=True)
def test_extra_time_agreed_while_a_move_waits_is_not_lost(make_user, api_client_for):
    """Bob agrees to give alice extra time at the moment alice moves: whichever holds the game's lock first, the
    move that waited reads the seat clocks as they are then, so the time given is kept or used, never written
    over with what the move read before."""
    def linger(**kwargs):  # the agreement holds the game's lock a moment longer: the move starts waiting for it
        time.sleep(0.3)

    proposal_decided.connect(linger, dispatch_uid="test-linger")
    try:
        _extra_time_raced(make_user("alice"), make_user("bob"), api_client_for)
    finally:
        proposal_decided.disconnect(dispatch_uid="test-linger")


def _extra_time_raced(alice, bob, api_client_for) -> None:
    for attempt in range(4):
        game = _table(alice, bob, clock={"kind": "bank", "bank_days": 5, "increment_days": 0})
        users = _users(game, alice, bob)
        mover = game.to_move[0]
        other = 1 - mover
        proposal = services.proposal_make(game_id=game.pk, user=users[mover], kind="extra_time",
                                          terms={"seat": other, "days": 3})
        move = get_engine(game.engine).legal_moves(game.state, mover)[0]
        answers = race(api_client_for,
                       Request("agree", users[other], f"/api/games/{game.pk}/proposals/{proposal.pk}/answer/",
                               {"accept": True}),
                       # Once the agreement holds the lock, most often.
                       Request("move", users[mover], f"/api/games/{game.pk}/moves/",
                               {"expected_seq": game.seq, "move": move}, delay=0.1))
        assert answers["agree"] == 200 and answers["move"] in (200, 201), answers
        game.refresh_from_db()
        clock = SeatClock.objects.get(game=game, seat=other)
        if game.status == GameStatus.ACTIVE and other in game.to_move:
            assert clock.extra_seconds == 3 * DAY, (attempt, "the extra time given is kept for the seat's turn")
            assert clock.deadline >= timezone.now() + timedelta(days=7, hours=23)
