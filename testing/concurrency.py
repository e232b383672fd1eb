"""Racing calls, as separate app processes would make them."""

import threading
from collections.abc import Callable

from django.db import connections


def at_once(calls: list[Callable[[], object]], *, timeout: float = 120) -> list:
    """Runs each call at the same moment, each in its own thread with its own database connection,
    and answers, for each, what it returned or the exception it raised."""
    start = threading.Barrier(len(calls))
    answers: list = [None] * len(calls)

    def run(n: int, call: Callable[[], object]) -> None:
        try:
            start.wait()
            answers[n] = call()
        except BaseException as error:
            answers[n] = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(n, call)) for n, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=timeout)
    return answers
