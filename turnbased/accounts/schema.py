"""How the OpenAPI schema (drf-spectacular) describes our token authentication."""

from drf_spectacular.contrib.knox_auth_token import KnoxTokenScheme


class ApiTokenScheme(KnoxTokenScheme):
    """``Authorization: Token <key>``, as knox's scheme, for our subclass of its authentication."""

    target_class = "turnbased.accounts.authentication.ApiTokenAuthentication"
    name = "tokenAuth"
