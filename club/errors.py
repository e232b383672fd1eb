class Conflict(Exception):
    """A well-formed request that the current state of things does not allow (HTTP 409)."""
