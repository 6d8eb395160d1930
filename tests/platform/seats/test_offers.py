"""A person takes a seat (issue 46): a seat a bot took over is offered by a player at the table to a named person or
listed in the lobby, a player hands their own seat to a named person; whoever takes it sees what that seat may see,
back through the game, and the one who left sees the public view; every refusal changes nothing."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
import time_machine

from tests.platform.play.test_positions import play
from tests.platform.seats.conftest import taken_over
from tests.racing import Request, race
from turnbased.clocks.models import SeatClock
from turnbased.play import services as play_services
from turnbased.ratings.models import RatingChange
from turnbased.ratings.selectors import abandonment
from turnbased.events.models import Event, EventKind
from turnbased.events.wording import worded_payload
from turnbased.kit.errors import Conflict, InvalidRequest, NotAllowed, NotFound, Unprocessable
from turnbased.play import selectors as play_selectors
from turnbased.play.models import Move, Seat, SeatChange
from turnbased.seats import services
from turnbased.seats.models import OfferStatus, SeatOffer

pytestmark = pytest.mark.django_db


def _state(game) -> tuple:
    return (list(Seat.objects.filter(game=game).order_by("index").values_list("user_id", "bot", "left_at")),
            SeatOffer.objects.count(), SeatChange.objects.count())


def test_a_seat_a_bot_took_over_is_offered_to_a_named_person_who_takes_it(late_game, alice, bob, carol,
                                                                          api_client_for):
    game, late = late_game
    stayer = bob if Seat.objects.get(game=game, index=late).user == alice else alice
    leaver = alice if stayer == bob else bob
    made = api_client_for(stayer).post(f"/api/games/{game.pk}/seat-offers/", {"seat": late, "username": "carol"},
                                       format="json")
    assert made.status_code == 201, made.content
    offer = made.json()
    assert offer["kind"] == "bot_seat" and offer["offered_to"] == "carol" and offer["status"] == "open"
    told = Event.objects.get(user=carol, kind=EventKind.SEAT_OFFERED)
    assert "offers you a seat" in worded_payload(told)["text"]
    listed = api_client_for(carol).get("/api/seat-offers/").json()
    assert [row["id"] for row in listed["offers"]] == [offer["id"]]
    taken = api_client_for(carol).post(f"/api/seat-offers/{offer['id']}/accept/")
    assert taken.status_code == 200 and taken.json()["status"] == "taken"
    seat = Seat.objects.get(game=game, index=late)
    assert seat.user == carol and seat.bot == "" and seat.left_at is None
    change = SeatChange.objects.get(game=game)
    assert change.left_by == leaver and change.taken_by == carol and change.reason == "taken"
    # The newcomer sees the seat's view; the leaver, a spectator's.
    game.refresh_from_db()
    assert play_selectors.viewer_of(game.pk, carol).seat == late
    assert play_selectors.viewer_of(game.pk, leaver).seat is None
    for user in (stayer, carol, leaver):
        news = Event.objects.get(user=user, kind=EventKind.SEAT_TAKEN)
        assert "carol took over" in worded_payload(news)["text"]


def test_a_player_hands_their_own_seat_to_a_named_person(alice, bob, carol):
    game, late = taken_over(alice, bob)
    holder = next(seat for seat in Seat.objects.filter(game=game) if not seat.bot)
    person = holder.user
    offer = services.offer_make(game_id=game.pk, user=person, seat=holder.index, username="carol")
    assert offer.kind == "my_seat"
    services.offer_accept(offer_id=offer.pk, user=carol)
    holder.refresh_from_db()
    assert holder.user == carol and SeatChange.objects.get(game=game, seat=holder.index).reason == "handed"


def test_refusals_change_nothing(late_game, alice, bob, carol):
    game, late = late_game
    stayer = bob if Seat.objects.get(game=game, index=late).user == alice else alice
    leaver = alice if stayer == bob else bob
    mine = next(seat.index for seat in Seat.objects.filter(game=game) if seat.user == stayer)
    before = _state(game)
    cases = [
        (carol, dict(seat=late, username="bob"), NotAllowed),  # a watcher offers nothing
        (leaver, dict(seat=late, username="carol"), NotAllowed),  # the one a bot replaced decides nothing
        (stayer, dict(seat=mine), Unprocessable),  # one's own seat goes to a named person
        (stayer, dict(seat=late, username=stayer.username), Conflict),  # already at the table
        (stayer, dict(seat=late, username="nobody-called-this"), NotFound),
        (stayer, dict(seat=7, username="carol"), NotFound),
        (stayer, dict(seat="1", username="carol"), InvalidRequest),
    ]
    for user, arguments, error in cases:
        with pytest.raises(error):
            services.offer_make(game_id=game.pk, user=user, **arguments)
        assert _state(game) == before, (user, arguments)
    offer = services.offer_make(game_id=game.pk, user=stayer, seat=late)  # listed in the lobby: a public table
    with pytest.raises(Conflict, match="offered already"):
        services.offer_make(game_id=game.pk, user=stayer, seat=late, username="carol")
    with pytest.raises(NotAllowed):
        services.offer_withdraw(offer_id=offer.pk, user=carol)
    with pytest.raises(Conflict, match="already play"):
        services.offer_accept(offer_id=offer.pk, user=stayer)
    services.offer_withdraw(offer_id=offer.pk, user=stayer)
    with pytest.raises(Conflict, match="no longer open"):
        services.offer_accept(offer_id=offer.pk, user=carol)
    assert SeatOffer.objects.get(pk=offer.pk).status == OfferStatus.WITHDRAWN


def test_a_private_tables_seat_is_never_listed_and_a_named_offer_is_nobody_elses(alice, bob, carol, make_user):
    game, late = taken_over(alice, bob, visibility="private")
    stayer = bob if Seat.objects.get(game=game, index=late).user == alice else alice
    with pytest.raises(Conflict, match="public table"):
        services.offer_make(game_id=game.pk, user=stayer, seat=late)
    offer = services.offer_make(game_id=game.pk, user=stayer, seat=late, username="carol")
    eve = make_user("eve")
    with pytest.raises(NotFound):
        services.offer_accept(offer_id=offer.pk, user=eve)
    assert SeatOffer.objects.get(pk=offer.pk).status == OfferStatus.OPEN


def test_a_seat_taken_over_counts_against_its_first_player_alone(alice, bob, carol, make_user):
    """The rule (docs/players.md, "A person takes a seat"): the seat is rated as its first player's, who left it
    (placed below whoever stayed), once they made the moves a game ended early needs; the newcomer is not rated for
    it; and the first player's record of games left to a bot keeps it."""
    game = play_services.create_game(creator=alice, engine_slug="halali", players=2, seed="rated",
                                     time_control={"kind": "per_move", "days_per_move": 1, "expiry": "remove"})
    play_services.join_game(game_id=game.pk, user=bob)
    game = play(game, [alice, bob], 10, random.Random(3))  # five moves each: enough to be rated
    late = game.to_move[0]
    leaver = game.seats.get(index=late).user
    stayer = game.seats.exclude(index=late).get().user
    deadline = SeatClock.objects.get(game=game, seat=late).deadline
    with time_machine.travel(deadline + timedelta(minutes=1), tick=False):
        assert play_services.play_timeout(game_id=game.pk, seat=late) == "seat handed to the bot"
    offer = services.offer_make(game_id=game.pk, user=stayer, seat=late, username="carol")
    services.offer_accept(offer_id=offer.pk, user=carol)
    play_services.resign_game(game_id=game.pk, user=stayer)  # the newcomer's seat stays to the end
    rated = {change.user_id: change.place for change in RatingChange.objects.filter(game=game)}
    assert rated == {leaver.pk: 2, stayer.pk: 1}, "the first player below the one who stayed longer"
    assert carol.pk not in rated
    assert abandonment(leaver).abandoned == 1 and abandonment(carol).abandoned == 0


def test_the_pages_offer_list_and_take_a_seat(late_game, alice, bob, carol, client):
    game, late = late_game
    stayer = bob if Seat.objects.get(game=game, index=late).user == alice else alice
    leaver = alice if stayer == bob else bob
    client.force_login(stayer)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert f"/games/{game.pk}/seat-offers/new/" in page
    form = client.get(f"/games/{game.pk}/seat-offers/new/")
    assert form.status_code == 200 and 'name="username"' in form.content.decode()
    posted = client.post(f"/games/{game.pk}/seat-offers/new/", {"seat": str(late), "username": ""})
    assert posted.status_code == 302 and posted["Location"].endswith("#seats")
    offer = SeatOffer.objects.get(game=game)
    assert offer.offered_to is None
    client.force_login(leaver)  # the one a bot replaced decides nothing at the table any more
    assert client.get(f"/games/{game.pk}/seat-offers/new/").status_code == 403
    client.force_login(carol)
    assert f"/seat-offers/{offer.pk}/" in client.get("/").content.decode()
    shown = client.get(f"/seat-offers/{offer.pk}/").content.decode()
    assert "Take the seat" in shown
    taken = client.post(f"/seat-offers/{offer.pk}/accept/")
    assert taken.status_code == 302 and taken["Location"] == f"/games/{game.pk}/"
    assert Seat.objects.get(game=game, index=late).user == carol
    assert "This offer is taken." in client.get(f"/seat-offers/{offer.pk}/").content.decode()
    assert client.get("/seat-offers/999999/").status_code == 404


def test_the_record_names_who_took_the_seat_and_verifies(late_game, alice, bob, carol):
    from games.record import verify_record
    from turnbased.play.records import complete_record

    game, late = late_game
    leaver = Seat.objects.get(game=game, index=late).user
    stayer = bob if leaver == alice else alice
    offer = services.offer_make(game_id=game.pk, user=stayer, seat=late, username="carol")
    services.offer_accept(offer_id=offer.pk, user=carol)
    game.refresh_from_db()
    play(game, [stayer, carol], 6, random.Random(1))  # the taker moves through a person's door
    play_services.resign_game(game_id=game.pk, user=stayer)
    game.refresh_from_db()
    record = complete_record(game)
    assert record["seat_changes"] == [{"seat": late, "seq": SeatChange.objects.get(game=game).seq, "player": "carol",
                                       "left_player": leaver.username, "reason": "taken"}]
    report = verify_record(record)
    assert report.ok, report.lines()


@pytest.mark.django_db(transaction=True)
def test_a_seat_taken_while_the_table_moves_is_settled_by_the_game_lock(make_user, api_client_for):
    """Carol takes a bot's seat at the moment the other player moves (after which the bot plays the seat's turn at
    once): whichever comes first holds the game's lock. Both succeed; no bot move of the seat comes after it changed
    hands, and the log stays one verifiable story."""
    from games import get_engine
    from games.record import verify_record
    from turnbased.play.records import complete_record

    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    for attempt in range(4):
        game, late = taken_over(alice, bob, seed=f"race-{attempt}")
        stayer = bob if Seat.objects.get(game=game, index=late).user == alice else alice
        game.refresh_from_db()
        if game.status != "active" or game.to_move != [1 - late]:
            continue  # the round ended on the bot's move: nothing to race here
        offer = services.offer_make(game_id=game.pk, user=stayer, seat=late, username="carol")
        move = get_engine(game.engine).legal_moves(game.state, 1 - late)[0]
        answers = race(api_client_for, Request("take", carol, f"/api/seat-offers/{offer.pk}/accept/"),
                       Request("move", stayer, f"/api/games/{game.pk}/moves/",
                               {"expected_seq": game.seq, "move": move}))
        assert answers == {"take": 200, "move": 201} or answers == {"take": 200, "move": 200}, answers
        change = SeatChange.objects.get(game=game)
        bot_moves = list(Move.objects.filter(game=game, seat=late, source="bot").values_list("seq", flat=True))
        assert all(seq <= change.seq for seq in bot_moves), ("no bot move after the seat changed hands", change.seq,
                                                              bot_moves)
        assert Seat.objects.get(game=game, index=late).user == carol
        play(game, [stayer, carol], 4, random.Random(attempt))
        play_services.resign_game(game_id=game.pk, user=stayer)
        game.refresh_from_db()
        report = verify_record(complete_record(game))
        assert report.ok, report.lines()


def test_a_lapsed_offer_frees_its_seat_for_another_and_only_the_named_person_declines(late_game, alice, bob, carol):
    from django.utils import timezone

    game, late = late_game
    stayer = bob if Seat.objects.get(game=game, index=late).user == alice else alice
    listed = services.offer_make(game_id=game.pk, user=stayer, seat=late, username="")  # no name: listed
    assert listed.offered_to is None
    SeatOffer.objects.filter(pk=listed.pk).update(expires_at=timezone.now() - timedelta(minutes=1))
    named = services.offer_make(game_id=game.pk, user=stayer, seat=late, username="carol")  # the week ran out
    assert SeatOffer.objects.get(pk=listed.pk).status == OfferStatus.LAPSED
    with pytest.raises(NotAllowed, match="Only the person an offer is made to"):
        services.offer_decline(offer_id=named.pk, user=stayer)
    assert SeatOffer.objects.get(pk=named.pk).status == OfferStatus.OPEN
    services.offer_decline(offer_id=named.pk, user=carol)
    assert SeatOffer.objects.get(pk=named.pk).status == OfferStatus.DECLINED
