from django.core.management.base import BaseCommand

from bookings.services import bookings_expire


class Command(BaseCommand):
    help = (
        "Expires approved bookings left unpaid past their payment deadline, and requests nobody "
        "decided on within the policy's decision window or before their first slot, with their history "
        "rows. The worker does so every minute, and lists and availability already treat them as "
        "expired, so this only brings the records up to date at once."
    )

    def handle(self, *args, **options):
        self.stdout.write(f"Expired {bookings_expire()} booking(s).")
