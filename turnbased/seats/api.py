"""REST API of seat offers: ``GET /api/seat-offers/`` (the ones I may take up), ``POST
/api/games/{id}/seat-offers/`` (offer a seat of a game I play), ``GET /api/seat-offers/{id}/``, ``POST
/api/seat-offers/{id}/accept/`` (take the seat), ``POST /api/seat-offers/{id}/decline/`` and ``DELETE
/api/seat-offers/{id}/`` (withdraw mine): thin adapters over the seats services."""

from __future__ import annotations

from django.urls import reverse
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from turnbased.idempotency.once import idempotent
from turnbased.kit.api.conditional import conditional_read
from turnbased.kit.api.input import MOST_SEATS, BodySerializer
from turnbased.kit.api.schema import created_location, error
from turnbased.seats import selectors, services
from turnbased.seats.models import OfferKind, OfferStatus

GAME_ID = OpenApiParameter("game_id", int, OpenApiParameter.PATH, description="The game's id.")
OFFER_ID = OpenApiParameter("offer_id", int, OpenApiParameter.PATH, description="The offer's id.")
NO_OFFER = error("No offer has that id, or it is named to someone else.")
NOT_OPEN = error("The offer is no longer open (taken, declined, withdrawn, or lapsed: the seat changed, the game "
                 "ended, its week ran out), or I may not take the seat (`detail` says why).")


class SeatOfferSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    game = serializers.IntegerField(help_text="The game's id.")
    engine = serializers.CharField(help_text="The game's slug.")
    seat = serializers.IntegerField()
    seat_name = serializers.CharField(help_text="The seat's name at the table (its first player's).")
    kind = serializers.ChoiceField(choices=OfferKind.choices, help_text="`bot_seat`: a seat a bot took over when its "
                                   "player left or ran out of time; `my_seat`: the offering player's own seat.")
    status = serializers.ChoiceField(choices=OfferStatus.choices, help_text="As it stands now.")
    offered_by = serializers.CharField(help_text="The player who offered it.")
    offered_to = serializers.CharField(allow_null=True, help_text="The person it is offered to; null: listed in "
                                                                  "the lobby for anyone.")
    made_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField(help_text="When it lapses unless taken up (a week).")
    decided_at = serializers.DateTimeField(allow_null=True)

    class Meta:
        ref_name = "SeatOffer"


class SeatOfferListSerializer(serializers.Serializer):
    offers = SeatOfferSerializer(many=True, help_text="The open offers named to me, then the ones listed in the "
                                                      "lobby (public tables I do not play at), the newest first.")

    class Meta:
        ref_name = "SeatOfferList"


class SeatOfferInputSerializer(BodySerializer):
    seat = serializers.IntegerField(min_value=0, max_value=MOST_SEATS - 1,
                                    help_text="The seat: one a bot took over, or my own.")
    username = serializers.CharField(required=False, allow_blank=True, max_length=150,
                                     help_text="Whom to offer it to; left out, a bot's seat at a public table is "
                                               "listed in the lobby for anyone. My own seat goes to a named person.")

    class Meta:
        ref_name = "SeatOfferRequest"


class SeatOffersApi(APIView):
    """The seat offers I may take up."""

    @extend_schema(operation_id="seat_offers_list", tags=["seats"], summary="Seats I may take",
                   description="Seats of games in play offered to me by name, and the ones listed in the lobby. Only "
                               "what anyone may see of a table: taking the seat shows its hand.",
                   responses={200: SeatOfferListSerializer})
    @conditional_read
    def get(self, request):
        return Response({"offers": [selectors.offer_shown(offer, status=OfferStatus.OPEN)
                                    for offer in selectors.offers_for(request.user)]})


class GameSeatOffersApi(APIView):
    """Offer a seat of a game I play."""

    @extend_schema(
        operation_id="seat_offer_make", tags=["seats"], summary="Offer a seat of my game",
        request=SeatOfferInputSerializer, parameters=[GAME_ID, created_location("the offer")],
        description="A seat a bot took over (its player left or ran out of time), offered to a named person or, at a "
                    "public table, listed in the lobby; or my own seat, handed to a named person. The named person "
                    "is told (stream, webhooks: `seat_offered`, email). Whoever takes it plays the seat from then on "
                    "and sees what that seat may see, back to the first move; the one who left it sees what any "
                    "spectator sees (docs/players.md, \"A person takes a seat\").",
        responses={201: SeatOfferSerializer, 400: error("`seat` is not a whole number."),
                   422: error("My own seat, offered to nobody: it goes to a named person."),
                   403: error("Not a player of this game (or I left it), or the table keeps its seats for a "
                              "competition's entrants."),
                   404: error("No such game or seat, or no person is called `username`."),
                   409: error("The game is not in play, the seat is a person's, the person may not take it (already "
                              "at the table, a bot account, a block), a listing at a private table, or the seat is "
                              "offered already.")},
    )
    @idempotent
    def post(self, request, game_id: int):
        data = SeatOfferInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        offer = services.offer_make(game_id=game_id, user=request.user, seat=data.validated_data["seat"],
                                    username=data.validated_data.get("username") or None)
        return Response(selectors.offer_shown(offer), status=status.HTTP_201_CREATED,
                        headers={"Location": reverse("api-seat-offer", args=[offer.pk])})


class SeatOfferApi(APIView):
    """One seat offer: read it, withdraw mine."""

    @extend_schema(operation_id="seat_offer_retrieve", tags=["seats"], summary="A seat offer",
                   parameters=[OFFER_ID], responses={200: SeatOfferSerializer, 404: NO_OFFER})
    @conditional_read
    def get(self, request, offer_id: int):
        return Response(selectors.offer_shown(selectors.offer_for(offer_id, request.user)))

    @extend_schema(operation_id="seat_offer_withdraw", tags=["seats"], summary="Withdraw my seat offer",
                   parameters=[OFFER_ID], responses={200: SeatOfferSerializer, 403: error("Not my offer."),
                                                     404: NO_OFFER, 409: NOT_OPEN})
    def delete(self, request, offer_id: int):
        return Response(selectors.offer_shown(services.offer_withdraw(offer_id=offer_id, user=request.user)))


class SeatOfferAcceptApi(APIView):
    """Take up a seat offered to me."""

    @extend_schema(operation_id="seat_offer_accept", tags=["seats"], summary="Take the seat", request=None,
                   parameters=[OFFER_ID],
                   description="I play the seat from now on (if it is its turn, mine), and see what it may see.",
                   responses={200: SeatOfferSerializer, 403: error("Not signed in."), 404: NO_OFFER, 409: NOT_OPEN})
    @idempotent
    def post(self, request, offer_id: int):
        return Response(selectors.offer_shown(services.offer_accept(offer_id=offer_id, user=request.user)))


class SeatOfferDeclineApi(APIView):
    """Turn down a seat offered to me by name."""

    @extend_schema(operation_id="seat_offer_decline", tags=["seats"], summary="Decline the seat", request=None,
                   parameters=[OFFER_ID], responses={200: SeatOfferSerializer,
                                                     403: error("The offer is not named to me."), 404: NO_OFFER,
                                                     409: NOT_OPEN})
    def post(self, request, offer_id: int):
        return Response(selectors.offer_shown(services.offer_decline(offer_id=offer_id, user=request.user)))
