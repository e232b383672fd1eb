class Conflict(Exception):
    """A well-formed request that the current state of things does not allow (HTTP 409)."""


class ProviderUnavailable(Exception):
    """An outside service the request needs (the payment provider, say) did not answer (HTTP 503)."""
