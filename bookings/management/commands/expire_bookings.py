from django.core.management.base import BaseCommand

from bookings.services import bookings_expire


class Command(BaseCommand):
    help = (
        "Expires approved bookings left unpaid past BOOKING_PAYMENT_WINDOW_HOURS and releases their "
        "slots. Safe to run as often as you like (e.g. every few minutes from cron); listing bookings "
        "does it too, so the site is right without it."
    )

    def handle(self, *args, **options):
        self.stdout.write(f"Expired {bookings_expire()} booking(s).")
