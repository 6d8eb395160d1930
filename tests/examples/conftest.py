"""The platform tests' fixtures for accounts: the examples play against the real service."""

from tests.platform.conftest import make_bot_account, make_user  # noqa: F401 (fixtures)
