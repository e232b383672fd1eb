from datetime import time
from decimal import Decimal

from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from accounts.identity import ensure_account
from accounts.models import User
from bookings.models import Policy
from bookings.services import policy_update
from club.demo_history import DAYS, seed_history
from content.models import Announcement
from courts.models import Court, PriceBand
from payments.models import Coupon


def hourly(first: int, last: int) -> list[str]:
    """['08:00-09:00', …] for each hour from `first` until `last`."""
    return [f"{hour:02d}:00-{hour + 1:02d}:00" for hour in range(first, last)]


def shipped_image(name: str) -> str:
    return f"{settings.STATIC_URL}img/courts/{name}.svg"


WEEKDAYS, WEEKENDS = [0, 1, 2, 3, 4], [5, 6]

DEMO_COURTS = [
    {
        "name": "Centre Court",
        "type": "Tennis",
        "price": "30.00",
        "image": "tennis",
        "slots": hourly(7, 21),
        # (weekdays, starts, ends, price): weekday evenings and weekends cost more.
        "bands": [(WEEKDAYS, time(17), time(21), "40.00"), (WEEKENDS, time(7), time(21), "40.00")],
    },
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
    {
        "name": "Glass Court",
        "type": "Squash",
        "price": "20.00",
        "image": "squash",
        "slots": hourly(7, 22),
        "bands": [(WEEKDAYS, time(17), time(22), "26.00")],
    },
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


DEMO_COUPONS = [
    {
        "code": "WELCOME20",
        "discount": 20,
        "description": "20% off your first booking.",
        "once_per_person": True,
    },
    {"code": "SUMMER10", "discount": 10, "description": "10% off any court, all summer long."},
    {"code": "TEAM15", "discount": 15, "description": "15% off when you book three slots or more."},
]
# The hours of courts one person may hold on one day, paid or not: the recommended rule
# (docs/staff-guide.md, Club Rules), so that nobody holds a court all day.
DEMO_DAILY_HOURS = 4
DEMO_ANNOUNCEMENT = "Welcome to the new booking site! Book a court, and pay online once it is approved."

# Only ever made in the local Firebase Auth Emulator: known passwords must not exist in production.
DEMO_ACCOUNTS = [
    {
        "email": "admin@club.example",
        "password": "demo-admin-1",
        "name": "Alex Admin",
        "role": User.Role.ADMIN,
    },
    {
        "email": "member@club.example",
        "password": "demo-member-1",
        "name": "Mia Member",
        "role": User.Role.MEMBER,
    },
    {"email": "user@club.example", "password": "demo-user-1", "name": "Uma User", "role": User.Role.USER},
]


class Command(BaseCommand):
    help = (
        "Adds the demo courts, coupons, an announcement and the recommended limits per person, with the "
        "local Firebase Auth Emulator the demo accounts (an admin, a member, a user), and three months of "
        "past play to a club that has no bookings yet. Idempotent: what exists already is left as it is."
    )

    def handle(self, *args, **options):
        self.seed_courts()
        self.seed_content()
        self.seed_rules()
        if settings.LOCAL_MODE and settings.FIREBASE_AUTH_EMULATOR_HOST:
            self.seed_accounts()
        else:
            self.stdout.write(
                "Demo accounts: skipped (they are made only in the local Firebase Auth Emulator)."
            )
        self.seed_history()

    @transaction.atomic
    def seed_courts(self):
        created = 0
        for court in DEMO_COURTS:
            made, was_created = Court.objects.get_or_create(
                name=court["name"],
                defaults={
                    "type": court["type"],
                    "price": Decimal(court["price"]),
                    "image": shipped_image(court["image"]),
                    "slots": court["slots"],
                },
            )
            if was_created:
                for weekdays, starts, ends, price in court.get("bands", []):
                    PriceBand.objects.create(
                        court=made, weekdays=weekdays, starts=starts, ends=ends, price=Decimal(price)
                    )
            created += was_created
        self.stdout.write(f"Demo courts: {created} added, {len(DEMO_COURTS) - created} already there.")

    @transaction.atomic
    def seed_content(self):
        added = sum(
            Coupon.objects.get_or_create(code=coupon["code"], defaults=coupon)[1] for coupon in DEMO_COUPONS
        )
        if not Announcement.objects.exists():
            Announcement.objects.create(text=DEMO_ANNOUNCEMENT)
        self.stdout.write(f"Demo coupons: {added} added, {len(DEMO_COUPONS) - added} already there.")

    @transaction.atomic
    def seed_rules(self):
        if Policy.objects.exists():
            self.stdout.write("Demo rules: skipped (the club has its rules already).")
            return
        policy_update(daily_hours_limit=DEMO_DAILY_HOURS)
        self.stdout.write(f"Demo rules: at most {DEMO_DAILY_HOURS} hours of courts per person a day.")

    def seed_history(self):
        # The demo member has played all along: their payment history is not empty.
        members = [account["email"] for account in DEMO_ACCOUNTS if account["role"] == User.Role.MEMBER]
        added = seed_history(regulars=list(User.objects.filter(email__in=members)))
        if added:
            self.stdout.write(f"Demo history: {added} bookings over the last {DAYS} days added.")
        else:
            self.stdout.write("Demo history: skipped (the club has bookings already).")

    def seed_accounts(self):
        self.stdout.write("Demo logins (e-mail / password):")
        for account in DEMO_ACCOUNTS:
            uid = ensure_account(email=account["email"], password=account["password"], name=account["name"])
            user, created = User.objects.get_or_create(
                email=account["email"],
                defaults={
                    "firebase_uid": uid,
                    "name": account["name"],
                    "role": account["role"],
                    "member_since": timezone.now() if account["role"] == User.Role.MEMBER else None,
                },
            )
            if not created and user.firebase_uid != uid:  # the emulator's accounts were reset
                user.firebase_uid = uid
                user.save(update_fields=["firebase_uid"])
            self.stdout.write(f"  {account['role']:<7} {account['email']} / {account['password']}")
