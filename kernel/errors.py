class Conflict(Exception):
    """A well-formed request that the current state of things does not allow (HTTP 409)."""


class Forbidden(Exception):
    """Signed in, but not allowed: the caller may not do this to this thing (HTTP 403)."""


class ProviderUnavailable(Exception):
    """An outside service the request needs (the payment provider, say) did not answer (HTTP 503)."""
