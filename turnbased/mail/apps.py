from django.apps import AppConfig


class MailConfig(AppConfig):
    name = "turnbased.mail"
    label = "mail"

    def ready(self):
        # Connect the inbound webhook, and the emails of groups, of fair entry, of competitions, of agreements and of
        # seats offered.
        from turnbased.mail import agreement_news, competition_news, entry_news, group_news, receivers  # noqa: F401
        from turnbased.mail import seat_news  # noqa: F401
