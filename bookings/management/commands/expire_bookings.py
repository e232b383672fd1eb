from django.core.management.base import BaseCommand

from bookings.services import bookings_expire


class Command(BaseCommand):
    help = "Expires overdue bookings now, rather than at the worker's next minute."

    def handle(self, *args, **options):
        self.stdout.write(f"Expired {bookings_expire()} booking(s).")
