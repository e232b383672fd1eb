import json
from decimal import Decimal

import factory

from courts.models import Court


class CourtFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Court

    name = factory.Sequence(lambda n: f"Court {n + 1}")
    type = factory.Iterator(["Tennis", "Badminton", "Squash"])
    price = Decimal("20.00")
    image = "/static/img/courts/tennis.svg"
    slots = factory.LazyFunction(lambda: ["08:00-09:00", "09:00-10:00", "10:00-11:00"])


# An inline of price bands with none, as Django admin's court form posts it.
NO_BANDS = {
    "price_bands-TOTAL_FORMS": "0",
    "price_bands-INITIAL_FORMS": "0",
    "price_bands-MIN_NUM_FORMS": "0",
    "price_bands-MAX_NUM_FORMS": "1000",
}


def admin_form(court: Court, **changes) -> dict:
    """The court's form in Django admin, as posted with `changes` (and no price bands)."""
    return {
        "name": court.name,
        "type": court.type,
        "price": str(court.price),
        "image": court.image,
        "slots": json.dumps(court.slots),
        "places": court.places,
        **({"is_archived": "on"} if court.is_archived else {}),
        **NO_BANDS,
        **changes,
    }
