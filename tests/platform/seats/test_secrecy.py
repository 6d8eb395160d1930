"""What a seat that changed hands shows (issue 46): whoever took it sees exactly what that seat may see, back to the
first move (its private history included), and nothing more; whoever left it sees what any spectator sees, from then
on; the lobby's listing shows what anyone may see of the table."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.platform.seats.conftest import taken_over
from turnbased.events.models import Event, EventKind
from turnbased.play import selectors
from turnbased.play.models import Seat
from turnbased.play.services import submit_move
from turnbased.seats import services

pytestmark = pytest.mark.django_db


def _read(client, game) -> tuple:
    shown = client.get(f"/api/games/{game.pk}/").json()
    history = client.get(f"/api/games/{game.pk}/history/").json()
    return shown["view"], history


def test_the_taker_reads_the_seats_view_and_history_and_the_leaver_a_spectators(alice, bob, carol, api_client_for):
    game, late = taken_over(alice, bob)
    leaver = Seat.objects.get(game=game, index=late).user
    stayer = alice if leaver == bob else bob
    seat_before = _read(api_client_for(leaver), game)  # the seat, as its first player read it while a bot played it
    offer = services.offer_make(game_id=game.pk, user=stayer, seat=late)
    listed = Client().get("/").content.decode()
    assert f"/seat-offers/{offer.pk}/" not in listed  # the lobby's list of seats to take is for people signed in
    listed = api_client_for(carol).get("/api/seat-offers/").json()["offers"]
    assert [row["id"] for row in listed] == [offer.pk] and set(listed[0]) >= {"seat_name", "offered_by"}
    services.offer_accept(offer_id=offer.pk, user=carol)
    game.refresh_from_db()

    taker, left, spectator = _read(api_client_for(carol), game), _read(api_client_for(leaver), game), _read(Client(), game)
    seat_view = selectors.private_view(selectors.Viewer(game=game, seat=late))
    assert taker[0] == seat_view and taker == seat_before, "the seat's own view and history, back to the first move"
    assert left == spectator and left[0] != seat_view, "the one who left reads what a spectator reads"

    # From then on the seat's news is the taker's: a move is told to them as the seat sees it, to the leaver never.
    game.refresh_from_db()
    if game.status == "active" and game.to_move[0] != late:
        mover = stayer
        move = selectors.legal_moves_for(selectors.Viewer(game=game, seat=game.to_move[0]))[0]["move"]
        before = Event.objects.filter(user=leaver, kind=EventKind.MOVE_PLAYED).count()
        submit_move(game_id=game.pk, user=mover, expected_seq=game.seq, move=move)
        assert Event.objects.filter(user=carol, kind=EventKind.MOVE_PLAYED).exists()
        assert Event.objects.filter(user=leaver, kind=EventKind.MOVE_PLAYED).count() == before
