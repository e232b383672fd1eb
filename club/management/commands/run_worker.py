"""`manage.py run_worker`: django-tasks-db's `db_worker` plus the scheduler of the periodic tasks
(club/schedule.py). Run one or several beside the app. django-tasks-db's loop ends at the first
error that is not a locked database; this one waits for the database to answer and runs it again."""

import logging
import threading
import time

from django.conf import settings
from django.db import InterfaceError, OperationalError, close_old_connections, connection
from django_tasks_db.management.commands.db_worker import Command as DatabaseWorkerCommand

from club.schedule import start_in_background

logger = logging.getLogger(__name__)
MAX_RETRY_SECONDS = 60


class Command(DatabaseWorkerCommand):
    help = "Runs the queued background tasks, and queues the periodic ones when they are due."

    def handle(self, *args, **options):
        stop = threading.Event()
        if not options.get("batch"):  # a batch run (tests, one-off) only empties the queue
            start_in_background(stop)
        try:
            while True:
                try:
                    return super().handle(*args, **options)
                except (OperationalError, InterfaceError) as error:
                    wait_for_database(error)
        finally:
            stop.set()


def wait_for_database(error: Exception) -> None:
    """Returns once the database answers, trying after WORKER_DATABASE_RETRY_SECONDS, then twice as
    long each time, at most MAX_RETRY_SECONDS apart."""
    delay = settings.WORKER_DATABASE_RETRY_SECONDS
    while True:
        first_line = (str(error).strip().splitlines() or [type(error).__name__])[0]
        logger.warning("The database is not answering (%s); trying again in %g s.", first_line, delay)
        time.sleep(delay)
        close_old_connections()  # the connection that failed is closed here, and made again below
        try:
            connection.ensure_connection()
        except (OperationalError, InterfaceError) as again:
            error, delay = again, min(delay * 2, MAX_RETRY_SECONDS)
        else:
            logger.warning("The database answers again; the worker carries on.")
            return
