from decimal import Decimal

from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import transaction

from courts.models import Court


def hourly(first: int, last: int) -> list[str]:
    """['08:00-09:00', …] for each hour from `first` until `last`."""
    return [f"{hour:02d}:00-{hour + 1:02d}:00" for hour in range(first, last)]


def shipped_image(name: str) -> str:
    return f"{settings.STATIC_URL}img/courts/{name}.svg"


DEMO_COURTS = [
    {"name": "Centre Court", "type": "Tennis", "price": "30.00", "image": "tennis", "slots": hourly(7, 21)},
    {
        "name": "Clay Court",
        "type": "Tennis",
        "price": "25.00",
        "image": "tennis-clay",
        "slots": hourly(8, 20),
    },
    {
        "name": "Badminton Hall A",
        "type": "Badminton",
        "price": "15.00",
        "image": "badminton",
        "slots": hourly(8, 22),
    },
    {
        "name": "Badminton Hall B",
        "type": "Badminton",
        "price": "15.00",
        "image": "badminton",
        "slots": hourly(8, 22),
    },
    {
        "name": "Main Arena",
        "type": "Basketball",
        "price": "40.00",
        "image": "basketball",
        "slots": hourly(9, 21),
    },
    {"name": "Glass Court", "type": "Squash", "price": "20.00", "image": "squash", "slots": hourly(7, 22)},
    {
        "name": "Beach Court",
        "type": "Volleyball",
        "price": "22.50",
        "image": "volleyball",
        "slots": hourly(10, 19),
    },
    {
        "name": "Games Room",
        "type": "Table Tennis",
        "price": "10.00",
        "image": "table-tennis",
        "slots": hourly(9, 22),
    },
]


class Command(BaseCommand):
    help = "Adds the demo courts. Idempotent: a court that exists (by name) is left as it is."

    @transaction.atomic
    def handle(self, *args, **options):
        created = 0
        for court in DEMO_COURTS:
            _, was_created = Court.objects.get_or_create(
                name=court["name"],
                defaults={
                    "type": court["type"],
                    "price": Decimal(court["price"]),
                    "image": shipped_image(court["image"]),
                    "slots": court["slots"],
                },
            )
            created += was_created
        self.stdout.write(f"Demo courts: {created} added, {len(DEMO_COURTS) - created} already there.")
