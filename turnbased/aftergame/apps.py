from django.apps import AppConfig


class AftergameConfig(AppConfig):
    name = "turnbased.aftergame"
    label = "aftergame"
    verbose_name = "After the game"
