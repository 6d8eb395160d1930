from django.apps import AppConfig


class ClocksConfig(AppConfig):
    name = "turnbased.clocks"
    label = "clocks"
