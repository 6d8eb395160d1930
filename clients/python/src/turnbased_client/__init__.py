"""A typed client of the turnbased REST API, and ``turnbased-cli``, a terminal player built on it."""

__version__ = "1.0.0"

from turnbased_client.client import Client  # noqa: E402 (the version first: core reads it)
from turnbased_client.core import UNSET, Unset  # noqa: E402
from turnbased_client.errors import ApiError, ConnectionFailed, TurnbasedError  # noqa: E402
from turnbased_client.stream import StreamEvent  # noqa: E402

__all__ = ["UNSET", "ApiError", "Client", "ConnectionFailed", "StreamEvent", "TurnbasedError", "Unset", "__version__"]
