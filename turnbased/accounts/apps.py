from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "turnbased.accounts"
    label = "accounts"

    def ready(self) -> None:
        from turnbased.accounts import receivers  # noqa: F401  (connects the signal receivers)
