from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "turnbased.accounts"
    label = "accounts"
