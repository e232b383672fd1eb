from django.core.management.base import BaseCommand

from bookings.services import bookings_expire


class Command(BaseCommand):
    help = (
        "Expires approved bookings left unpaid past their payment deadline, and requests nobody "
        "decided on within BOOKING_DECISION_HOURS or before their first slot, with their history rows. "
        "Lists and availability already treat them as expired, and a request for one of their slots "
        "expires them on the way, so this only brings the records up to date: run it every few minutes "
        "(cron, a systemd timer)."
    )

    def handle(self, *args, **options):
        self.stdout.write(f"Expired {bookings_expire()} booking(s).")
