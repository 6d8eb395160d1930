"""The examples play against the real service, through the client library (tested from its source tree)."""

from tests.clients.conftest import CLIENT_SOURCE  # noqa: F401 (puts the client library on the path)
from tests.platform.conftest import make_bot_account, make_user  # noqa: F401 (fixtures)
