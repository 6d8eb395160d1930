from django.apps import AppConfig


class MailConfig(AppConfig):
    name = "turnbased.mail"
    label = "mail"

    def ready(self):
        from turnbased.mail import group_news, receivers  # noqa: F401 (connect the inbound webhook, the group emails)
