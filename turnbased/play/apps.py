from django.apps import AppConfig


class PlayConfig(AppConfig):
    name = "turnbased.play"
    label = "play"
