from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "turnbased.ratings"
    verbose_name = "Ratings and players"
