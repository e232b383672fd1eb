from datetime import timedelta
from decimal import Decimal
from typing import Any

from django.utils import timezone

from accounts.models import User
from courts.tests.factories import CourtFactory
from programs.models import Program
from programs.services import program_create


def in_days(days: int):
    return timezone.localdate() + timedelta(days=days)


def make_program(*, by: User | None = None, courts=None, **fields: Any) -> Program:
    """A clinic for four at $20 on a court's 10:00 slot in five days, open for registration now
    (`fields` change any of it), made as an admin makes one."""
    by = by or User.objects.get_or_create(email="kim@example.com", defaults={"role": User.Role.ADMIN})[0]
    courts = courts or [CourtFactory(name="Clinic Court", slots=["09:00-10:00", "10:00-11:00"])]
    now = timezone.now()
    return program_create(
        by=by,
        courts=courts,
        **{
            "kind": Program.Kind.CLINIC,
            "title": "Beginners' clinic",
            "description": "",
            "coach_name": "Coach Carter",
            "first_date": in_days(5),
            "until": None,
            "slots": ["10:00-11:00"],
            "capacity": 4,
            "price": Decimal("20.00"),
            "registration_opens_at": now - timedelta(hours=1),
            "registration_closes_at": now + timedelta(days=4),
            "members_only": False,
            "cancel_cutoff_hours": 24,
            **fields,
        },
    )
