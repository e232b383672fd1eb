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
