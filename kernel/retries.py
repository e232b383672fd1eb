"""How long to wait before trying again what an outside service (the mail server, Stripe) did not
take: a little at first, twice as long after each failure, and never more than an hour, so that a
long outage costs few calls and the first moments after it lose little time."""

from datetime import timedelta

LONGEST_WAIT = timedelta(hours=1)


def backoff(attempts: int, *, first_seconds: int) -> timedelta:
    """The wait after the `attempts`-th failed attempt: `first_seconds`, doubled each time."""
    return min(timedelta(seconds=first_seconds * 2 ** (attempts - 1)), LONGEST_WAIT)
