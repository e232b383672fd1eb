"""`manage.py run_worker`: django-tasks-db's worker (`db_worker`, with all its options) plus the
scheduler of the periodic tasks (club/schedule.py). Run one or several beside the app."""

import threading

from django_tasks_db.management.commands.db_worker import Command as DatabaseWorkerCommand

from club.schedule import start_in_background


class Command(DatabaseWorkerCommand):
    help = "Runs the queued background tasks, and queues the periodic ones when they are due."

    def handle(self, *args, **options):
        stop = threading.Event()
        if not options.get("batch"):  # a batch run (tests, one-off) only empties the queue
            start_in_background(stop)
        try:
            super().handle(*args, **options)
        finally:
            stop.set()
