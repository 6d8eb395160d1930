from django.urls import path

from turnbased.seats import api

urlpatterns = [
    path("seat-offers/", api.SeatOffersApi.as_view(), name="api-seat-offers"),
    path("seat-offers/<int:offer_id>/", api.SeatOfferApi.as_view(), name="api-seat-offer"),
    path("seat-offers/<int:offer_id>/accept/", api.SeatOfferAcceptApi.as_view(), name="api-seat-offer-accept"),
    path("seat-offers/<int:offer_id>/decline/", api.SeatOfferDeclineApi.as_view(), name="api-seat-offer-decline"),
    path("games/<int:game_id>/seat-offers/", api.GameSeatOffersApi.as_view(), name="api-game-seat-offers"),
]
