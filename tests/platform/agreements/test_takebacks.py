"""Takebacks by consent (issue 46): a player asks for their last move back, everyone else at the table agrees, and
the log gets an entry that returns to the position before it; a decline, a withdrawal, a move or the window settles
it otherwise; every refusal changes nothing; a move racing an acceptance is settled by the game's lock; the record
with a takeback verifies."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games import get_engine
from games.record import canonical_json, verify_record
from tests.racing import Request, race
from turnbased.agreements import services
from turnbased.agreements.models import Proposal, ProposalStatus
from turnbased.events.models import Event, EventKind
from turnbased.events.wording import worded_payload
from turnbased.kit.errors import Conflict, GameNotFound, NotAllowed, NotFound
from turnbased.play import services as play_services
from turnbased.play import store
from turnbased.play.models import Game, GameStatus, Move, MoveSource
from turnbased.play.records import complete_record

pytestmark = pytest.mark.django_db

SAVERNAKE = "savernake-forest"
FIRST_SEAT_STARTS = "t1"  # a seed whose rooster goes to seat 0


def _forest(alice, second, **create) -> Game:
    """A two-player Savernake Forest game, alice first: her first turn may be taken back (it ends no round)."""
    game = play_services.create_game(creator=alice, engine_slug=SAVERNAKE, players=2, seed=FIRST_SEAT_STARTS, **create)
    if second is not None:
        invite = game.invite_code if game.visibility == "private" else None
        play_services.join_game(game_id=game.pk, user=second, invite_code=invite)
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE and game.to_move == [0]
    return game


def _move(game: Game, user, seat: int) -> Game:
    game.refresh_from_db()
    move = get_engine(game.engine).legal_moves(game.state, seat)[0]
    play_services.submit_move(game_id=game.pk, user=user, expected_seq=game.seq, move=move)
    game.refresh_from_db()
    return game


def _unchanged(game: Game) -> tuple:
    game.refresh_from_db()
    return game.seq, canonical_json(game.state), Proposal.objects.count(), Move.objects.filter(game=game).count()


def test_everyone_agreeing_returns_the_game_to_the_position_before_the_move(alice, bob, api_client_for):
    game = _forest(alice, bob)
    start = canonical_json(game.state)
    game = _move(game, alice, 0)
    asked = api_client_for(alice).post(f"/api/games/{game.pk}/takebacks/")
    assert asked.status_code == 201, asked.content
    proposal = asked.json()
    assert proposal["status"] == "open" and proposal["move"] == 1 and proposal["waiting_for"] == [1]
    assert asked["Location"] == f"/api/games/{game.pk}/proposals/"
    told = Event.objects.get(user=bob, kind=EventKind.PROPOSAL_MADE)
    assert "asks to take back move 1" in worded_payload(told)["text"]
    listed = api_client_for(bob).get(f"/api/games/{game.pk}/proposals/").json()
    assert listed["waiting"]["id"] == proposal["id"] and listed["takeback_offered"] is False

    answered = api_client_for(bob).post(f"/api/games/{game.pk}/proposals/{proposal['id']}/answer/", {"accept": True},
                                        format="json")
    assert answered.status_code == 200 and answered.json()["status"] == "accepted"
    game.refresh_from_db()
    assert game.seq == 2 and game.to_move == [0] and canonical_json(game.state) == start
    entry = Move.objects.get(game=game, seq=2)
    assert entry.move == {"take_back": 1} and entry.seat == 0 and entry.source == MoveSource.AGREED
    assert canonical_json(store.replay(game)) == start, "the snapshot is what the log rebuilds"
    # The history shows the move and its takeback, to a spectator too; everyone's stream is told.
    history = Client().get(f"/api/games/{game.pk}/history/").json()
    lines = [line["text"] for move in history["moves"] for line in move["entries"]] if "moves" in history else str(history)
    assert "took back move 1" in str(lines)
    assert Event.objects.filter(user=bob, kind=EventKind.MOVE_PLAYED, seq=2).exists()
    assert Event.objects.filter(user=alice, kind=EventKind.PROPOSAL_DECIDED).exists()
    # The game goes on from there, and its record, once over, verifies with the takeback in it.
    players = {0: alice, 1: bob}
    while game.status == GameStatus.ACTIVE:
        game = _move(game, players[game.to_move[0]], game.to_move[0])
    report = verify_record(complete_record(game))
    assert report.ok, report.lines()


def test_a_decline_or_a_withdrawal_settles_it_and_changes_nothing_else(alice, bob, api_client_for):
    game = _move(_forest(alice, bob), alice, 0)
    before = _unchanged(game)[:2]
    proposal = services.takeback_ask(game_id=game.pk, user=alice)
    services.proposal_answer(game_id=game.pk, proposal_id=proposal.pk, user=bob, accept=False)
    proposal.refresh_from_db()
    assert proposal.status == ProposalStatus.DECLINED and _unchanged(game)[:2] == before
    # The same move is asked about once.
    refused = api_client_for(alice).post(f"/api/games/{game.pk}/takebacks/")
    assert refused.status_code == 409 and "already asked" in refused.json()["detail"]


def test_a_move_or_the_window_lapses_it(alice, bob, api_client_for):
    game = _move(_forest(alice, bob), alice, 0)
    proposal = services.takeback_ask(game_id=game.pk, user=alice)
    game = _move(game, bob, 1)  # bob plays on instead of answering
    answer = api_client_for(bob).post(f"/api/games/{game.pk}/proposals/{proposal.pk}/answer/", {"accept": True},
                                      format="json")
    assert answer.status_code == 409 and "lapsed" in answer.json()["detail"]
    assert api_client_for(alice).get(f"/api/games/{game.pk}/proposals/").json()["proposals"][0]["status"] == "lapsed"
    assert Move.objects.filter(game=game, source=MoveSource.AGREED).count() == 0

    other = _move(_forest(bob, alice), bob, 0)
    proposal = services.takeback_ask(game_id=other.pk, user=bob)
    Proposal.objects.filter(pk=proposal.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    with pytest.raises(Conflict, match="lapsed"):
        services.proposal_answer(game_id=other.pk, proposal_id=proposal.pk, user=alice, accept=True)
    # A lapsed proposal blocks no new one: bob's next move may be asked about; the lapsed one is marked so.
    people = {0: bob, 1: alice}
    while True:
        mover = other.to_move[0]
        other = _move(other, people[mover], mover)
        if mover == 0 and other.to_move != [0]:
            break
    again = services.takeback_ask(game_id=other.pk, user=bob)
    assert again.status == ProposalStatus.OPEN
    assert Proposal.objects.get(pk=proposal.pk).status == ProposalStatus.LAPSED


def test_every_refusal_is_a_clear_4xx_and_changes_nothing(alice, bob, carol, started_game, api_client_for):
    # Love Letter: every move is followed by a card drawn; the game says so.
    game = started_game
    play_services.submit_move(game_id=game.pk, user=alice, expected_seq=0, move={"card": "handmaid"})
    before = _unchanged(game)
    refused = api_client_for(alice).post(f"/api/games/{game.pk}/takebacks/")
    assert refused.status_code == 409 and "Love Letter" in refused.json()["detail"]
    assert _unchanged(game) == before
    # Not my last move; a spectator; a stranger at a private table; no proposal there; an answer not true or false.
    assert api_client_for(bob).post(f"/api/games/{game.pk}/takebacks/").status_code == 409
    assert api_client_for(carol).post(f"/api/games/{game.pk}/takebacks/").status_code == 403
    assert Client().post(f"/api/games/{game.pk}/takebacks/", {}, content_type="application/json").status_code in (401, 403)
    forest = _move(_forest(alice, bob, visibility="private"), alice, 0)
    assert api_client_for(carol).post(f"/api/games/{forest.pk}/takebacks/").status_code == 404
    assert api_client_for(bob).post(f"/api/games/{forest.pk}/proposals/999999/answer/", {"accept": True},
                                    format="json").status_code == 404
    proposal = services.takeback_ask(game_id=forest.pk, user=alice)
    before = _unchanged(forest)
    for body in ({"accept": "maybe"}, {}, {"accept": None}):
        assert api_client_for(bob).post(f"/api/games/{forest.pk}/proposals/{proposal.pk}/answer/", body,
                                        format="json").status_code == 400, body
    assert api_client_for(alice).post(f"/api/games/{forest.pk}/proposals/{proposal.pk}/answer/", {"accept": True},
                                      format="json").status_code == 403  # my own
    assert api_client_for(bob).delete(f"/api/games/{forest.pk}/proposals/{proposal.pk}/").status_code == 403
    assert api_client_for(alice).post(f"/api/games/{forest.pk}/takebacks/").status_code == 409  # one waits
    assert _unchanged(forest) == before
    with pytest.raises(GameNotFound):
        services.takeback_ask(game_id=forest.pk, user=carol)
    with pytest.raises(NotFound):
        services.proposal_withdraw(game_id=forest.pk, proposal_id="1", user=alice)
    withdrawn = api_client_for(alice).delete(f"/api/games/{forest.pk}/proposals/{proposal.pk}/")
    assert withdrawn.status_code == 200 and withdrawn.json()["status"] == "withdrawn"


def test_bots_agree_at_an_unrated_table_and_as_the_table_says_elsewhere(alice):
    # A table with a bot seat is unrated: the bot agrees, and with nobody else to ask it is carried at once.
    game = play_services.create_game(creator=alice, engine_slug=SAVERNAKE, players=2, seed=FIRST_SEAT_STARTS, bots={1: "random"})
    game.refresh_from_db()
    start = canonical_json(game.state)
    game = _move(game, alice, 0)
    proposal = services.takeback_ask(game_id=game.pk, user=alice)
    assert proposal.status == ProposalStatus.ACCEPTED and [a.accepted for a in proposal.answers.all()] == [True]
    game.refresh_from_db()
    assert canonical_json(game.state) == start and game.to_move == [0]
    # An event's table whose organiser did not let bots agree (the term a competition writes): refused.
    strict = play_services.create_game(creator=alice, engine_slug=SAVERNAKE, players=2, seed=FIRST_SEAT_STARTS, bots={1: "random"},
                                       terms={"agreements": {"bots_agree": False}})
    strict = _move(strict, alice, 0)
    before = _unchanged(strict)
    with pytest.raises(Conflict, match="bot"):
        services.takeback_ask(game_id=strict.pk, user=alice)
    assert _unchanged(strict) == before
    # One that forbids takebacks altogether: 403.
    closed = play_services.create_game(creator=alice, engine_slug=SAVERNAKE, players=2, seed=FIRST_SEAT_STARTS, bots={1: "random"},
                                       terms={"agreements": {"forbidden": ["take_back"]}})
    closed = _move(closed, alice, 0)
    with pytest.raises(NotAllowed, match="organiser"):
        services.takeback_ask(game_id=closed.pk, user=alice)


def test_a_term_the_agreements_do_not_take_is_refused(alice):
    for value in ({"forbidden": ["resign"]}, {"bots_agree": "yes"}, {"other": 1}, ["take_back"]):
        with pytest.raises(Exception) as refused:
            play_services.create_game(creator=alice, engine_slug=SAVERNAKE, players=2, terms={"agreements": value})
        assert getattr(refused.value, "status", None) == 400, value


def test_asking_too_often_at_one_game_is_refused_for_a_day(alice, bob):
    game = _forest(alice, bob)
    for _ in range(3):  # three asks, each withdrawn, each about a new position of alice's
        game = _move(game, alice, 0)
        proposal = services.takeback_ask(game_id=game.pk, user=alice)
        services.proposal_answer(game_id=game.pk, proposal_id=proposal.pk, user=bob, accept=True)
        game.refresh_from_db()
    game = _move(game, alice, 0)
    before = _unchanged(game)
    with pytest.raises(Conflict, match="within a day"):
        services.takeback_ask(game_id=game.pk, user=alice)
    assert _unchanged(game) == before


def test_the_game_page_offers_it_with_a_confirm_step_and_the_answers(alice, bob, carol):
    game = _move(_forest(alice, bob), alice, 0)
    pages = {}
    for user in (alice, bob, carol):
        client = Client()
        client.force_login(user)
        pages[user.username] = client
    assert "Take back my last move" in pages["alice"].get(f"/games/{game.pk}/").content.decode()
    assert "Take back my last move" not in pages["bob"].get(f"/games/{game.pk}/").content.decode()
    confirm = pages["alice"].get(f"/games/{game.pk}/takeback/")
    assert confirm.status_code == 200 and "Ask to take it back" in confirm.content.decode()
    assert pages["bob"].get(f"/games/{game.pk}/takeback/").status_code == 409
    assert pages["carol"].get(f"/games/{game.pk}/takeback/").status_code == 403
    assert pages["alice"].post(f"/games/{game.pk}/takeback/").status_code == 302
    proposal = Proposal.objects.get(game=game)
    shown = pages["bob"].get(f"/games/{game.pk}/agreements/").content.decode()
    assert "asks to take back move 1" in shown and "data-confirm" in shown
    assert "take back" not in pages["carol"].get(f"/games/{game.pk}/agreements/").content.decode()
    assert pages["bob"].post(f"/games/{game.pk}/proposals/{proposal.pk}/answer/", {"accept": "yes"}).status_code == 302
    proposal.refresh_from_db()
    assert proposal.status == ProposalStatus.ACCEPTED


@pytest.mark.django_db(transaction=True)
def test_an_acceptance_racing_a_move_is_settled_by_the_game_lock(make_user, api_client_for):
    """Bob accepts alice's takeback and, at the same moment, plays his own turn: one of the two requests wins the
    game's lock; the other is refused (409) and the log stays one consistent story."""
    alice, bob = make_user("alice"), make_user("bob")
    for attempt in range(3):
        game = _move(_forest(alice, bob), alice, 0)
        proposal = services.takeback_ask(game_id=game.pk, user=alice)
        move = get_engine(SAVERNAKE).legal_moves(game.state, 1)[0]
        answers = race(api_client_for,
                       Request("accept", bob, f"/api/games/{game.pk}/proposals/{proposal.pk}/answer/", {"accept": True}),
                       Request("move", bob, f"/api/games/{game.pk}/moves/", {"expected_seq": 1, "move": move}))
        assert sorted(answers.values()) in ([200, 409], [201, 409]), (attempt, answers)
        game.refresh_from_db()
        assert game.seq == 2 and canonical_json(store.replay(game)) == canonical_json(game.state)
        proposal.refresh_from_db()
        taken_back = Move.objects.filter(game=game, source=MoveSource.AGREED).exists()
        assert taken_back == (answers["accept"] == 200) == (proposal.status == ProposalStatus.ACCEPTED)


@pytest.mark.parametrize(("policy", "term"), [
    ("people", {"forbidden": ["cancel"], "bots_agree": False}),
    ("everyone", {"forbidden": ["cancel"], "bots_agree": True}),
    ("forbidden", {"forbidden": ["take_back", "cancel"], "bots_agree": False}),
])
def test_a_competitions_tables_take_moves_back_as_its_organiser_chose(policy, term, alice, bob, carol, make_user):
    from tests.platform.competitions.conftest import started
    from turnbased.competitions.models import EventTable

    competition = started(carol, [alice, bob], game=SAVERNAKE, takebacks=policy)
    assert competition.takebacks == policy
    table = EventTable.objects.get(round__stage__competition=competition, game__isnull=False)
    game = table.game
    assert game.terms["agreements"] == term
    # Its page says so, and so does its API.
    page = Client().get(f"/competitions/{competition.pk}/").content.decode()
    assert {"people": "bots never agree", "everyone": "bots agree too", "forbidden": "no move may be taken back"}[
        policy] in page
    first = game.seats.get(index=game.to_move[0]).user
    game = _move(game, first, game.to_move[0])
    if policy == "forbidden":
        with pytest.raises(NotAllowed, match="organiser"):
            services.takeback_ask(game_id=game.pk, user=first)
    else:
        assert services.takeback_ask(game_id=game.pk, user=first).status == ProposalStatus.OPEN


def test_a_player_who_resigned_is_asked_nothing_and_may_not_answer(alice, bob, carol, make_user):
    game = play_services.create_game(creator=alice, engine_slug=SAVERNAKE, players=3, seed=FIRST_SEAT_STARTS)
    for user in (bob, carol):
        play_services.join_game(game_id=game.pk, user=user)
    game.refresh_from_db()
    people = {seat.index: seat.user for seat in game.seats.all()}
    play_services.resign_game(game_id=game.pk, user=carol)
    game.refresh_from_db()
    while people[game.to_move[0]] != alice:
        game = _move(game, people[game.to_move[0]], game.to_move[0])
    game = _move(game, alice, game.to_move[0])
    carol_seat = next(index for index, user in people.items() if user == carol)
    bob_seat = next(index for index, user in people.items() if user == bob)
    proposal = services.takeback_ask(game_id=game.pk, user=alice)
    shown = api_for_waiting(game, bob)
    assert shown["waiting_for"] == [bob_seat] and carol_seat not in shown["waiting_for"]
    with pytest.raises(Conflict, match="left this game"):
        services.proposal_answer(game_id=game.pk, proposal_id=proposal.pk, user=carol, accept=False)
    services.proposal_answer(game_id=game.pk, proposal_id=proposal.pk, user=bob, accept=True)
    proposal.refresh_from_db()
    assert proposal.status == ProposalStatus.ACCEPTED  # carried without carol


def api_for_waiting(game, user) -> dict:
    from turnbased.agreements.selectors import proposal_shown, waiting_proposal

    game.refresh_from_db()
    return proposal_shown(waiting_proposal(game), game)


def test_a_seat_handed_to_a_bot_asks_nothing_and_its_bot_keeps_a_rated_table_from_agreeing(alice, bob):
    import time_machine

    game = play_services.create_game(creator=alice, engine_slug=SAVERNAKE, players=2, seed=FIRST_SEAT_STARTS,
                                     time_control={"kind": "per_move", "days_per_move": 1, "expiry": "remove"})
    play_services.join_game(game_id=game.pk, user=bob)
    game = _move(game, alice, 0)
    with time_machine.travel(timezone.now() + timedelta(days=3), tick=False):
        assert play_services.play_timeout(game_id=game.pk, seat=1) == "seat handed to the bot"
    game.refresh_from_db()
    assert game.seats.get(index=1).bot and game.seats.get(index=1).user == bob
    with pytest.raises(Conflict, match="A bot plays this seat now"):  # bob, whose seat his bot plays now
        services.takeback_ask(game_id=game.pk, user=bob)
    while game.to_move != [0]:  # the bot's turns, as the worker would play them
        play_services.play_bot_turn(game_id=game.pk, seq=game.seq)
        game.refresh_from_db()
    # alice's move: the table is public and every seat was a person's (rated), so the bot never agrees.
    game = _move(game, alice, 0)
    before = _unchanged(game)
    with pytest.raises(Conflict, match="A bot plays at this table"):
        services.takeback_ask(game_id=game.pk, user=alice)
    assert _unchanged(game) == before and Proposal.objects.count() == 0


def test_the_days_asks_are_counted_over_a_day_and_the_refusal_says_when_to_ask_again(alice, bob):
    import time_machine

    start = timezone.now().replace(microsecond=0)
    game = _forest(alice, bob)
    with time_machine.travel(start, tick=False):
        for _ in range(3):
            game = _move(game, alice, 0)
            proposal = services.takeback_ask(game_id=game.pk, user=alice)
            services.proposal_answer(game_id=game.pk, proposal_id=proposal.pk, user=bob, accept=True)
            game.refresh_from_db()
        game = _move(game, alice, 0)
        again = (start + timedelta(days=1)).strftime("%Y-%m-%d %H:%M")
        with pytest.raises(Conflict, match=f"ask again after {again}"):
            services.takeback_ask(game_id=game.pk, user=alice)
    with time_machine.travel(start + timedelta(days=1, minutes=1), tick=False):
        assert services.takeback_ask(game_id=game.pk, user=alice).status == ProposalStatus.OPEN
