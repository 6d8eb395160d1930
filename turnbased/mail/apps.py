from django.apps import AppConfig


class MailConfig(AppConfig):
    name = "turnbased.mail"
    label = "mail"

    def ready(self):
        # Connect the inbound webhook, and the emails of groups and of fair entry.
        from turnbased.mail import competition_news, entry_news, group_news, receivers  # noqa: F401
