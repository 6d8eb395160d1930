from django.urls import path

from turnbased.seats import views

urlpatterns = [
    path("games/<int:game_id>/seat-offers/new/", views.offer_new, name="game-seat-offer"),
    path("seat-offers/<int:offer_id>/", views.offer_page, name="seat-offer"),
    path("seat-offers/<int:offer_id>/accept/", views.offer_accept, name="seat-offer-accept"),
    path("seat-offers/<int:offer_id>/decline/", views.offer_decline, name="seat-offer-decline"),
    path("seat-offers/<int:offer_id>/withdraw/", views.offer_withdraw, name="seat-offer-withdraw"),
]
