from django.apps import AppConfig


class ChatConfig(AppConfig):
    name = "turnbased.chat"
    verbose_name = "Table talk"
