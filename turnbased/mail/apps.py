from django.apps import AppConfig


class MailConfig(AppConfig):
    name = "turnbased.mail"
    label = "mail"

    def ready(self):
        from turnbased.mail import receivers  # noqa: F401 (connects the provider inbound webhook)
