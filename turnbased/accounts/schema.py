"""How the OpenAPI schema (drf-spectacular) describes our token and session authentication."""

from drf_spectacular.authentication import SessionScheme
from drf_spectacular.contrib.knox_auth_token import KnoxTokenScheme


class ApiTokenScheme(KnoxTokenScheme):
    """``Authorization: Token <key>``, as knox's scheme, for our subclasses of its authentication."""

    target_class = "turnbased.accounts.authentication.ApiTokenAuthentication"
    match_subclasses = True
    name = "tokenAuth"


class AccountSessionScheme(SessionScheme):
    """The session cookie, as DRF's scheme, for our subclass of its authentication."""

    target_class = "turnbased.accounts.authentication.AccountSessionAuthentication"
