from datetime import datetime, time, timedelta
from decimal import Decimal

import stripe
from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone
from stripe.params import PaymentMethodCreateParamsCard

from accounts.identity import ensure_account
from accounts.models import User
from bookings.matches import match_open
from bookings.models import Player, Policy, Series
from bookings.players import players_set, players_until
from bookings.selectors import policy_get
from bookings.series import series_approve, series_book, series_plan
from bookings.services import booking_request, policy_update
from club.demo_history import DAYS, seed_history
from content.models import Announcement
from courts.models import PLACES_DEFAULT, Court, PriceBand
from kernel.days import day
from kernel.errors import Conflict
from memberships.models import Membership, Plan
from memberships.services import plan_create
from payments import gateway
from payments.membership_payments import membership_checkout
from payments.models import Coupon
from payments.services import payment_confirm, registration_payment_intent_create
from programs.models import Program
from programs.services import program_create, program_register


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
        "places": 10,
    },
    {
        "name": "Glass Court",
        "type": "Squash",
        "price": "20.00",
        "image": "squash",
        "slots": hourly(7, 22),
        "places": 2,
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
# What a guest adds to a booking at the demo club, as ClubSpark's clubs charge non-members.
DEMO_GUEST_FEE = Decimal("5.00")
DEMO_ANNOUNCEMENT = "Welcome to the new booking site! Book a court, and pay online once it is approved."

# The plans the demo club sells: a monthly one for regulars, and a yearly one that gives more.
DEMO_PLANS = [
    {
        "name": "Club",
        "description": "Member prices on every court, with a fair share of the courts for everyone.",
        "price": Decimal("30.00"),
        "period": Plan.Period.MONTHLY,
        "renews_automatically": True,
        "member_price_kind": Plan.MemberPriceKind.PERCENT,
        "member_price_value": Decimal("10"),
        "hours_per_week": 6,
        "peak_hours_per_week": 3,
    },
    {
        "name": "Premium",
        "description": "The best prices, booking two months ahead, and the members-only hours.",
        "price": Decimal("300.00"),
        "period": Plan.Period.YEARLY,
        "renews_automatically": True,
        "member_price_kind": Plan.MemberPriceKind.PERCENT,
        "member_price_value": Decimal("25"),
        "booking_window_days": 60,
        "open_bookings_limit": 6,
        "hours_per_week": 12,
        "peak_hours_per_week": 6,
        "members_only_hours": True,
    },
]

# Stripe's test card that pays (https://docs.stripe.com/testing), with which the demo members paid.
DEMO_CARD: PaymentMethodCreateParamsCard = {
    "number": "4242424242424242",
    "exp_month": 12,
    "exp_year": 2034,
    "cvc": "123",
}

# Only ever made in the local Firebase Auth Emulator: known passwords must not exist in production.
# The members are members as anyone is in a club that sells plans: by holding one (`plan`), bought
# and paid by card at localstripe as the membership page does it (seed_memberships).
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
        "plan": "Club",
    },
    {
        "email": "premium@club.example",
        "password": "demo-premium-1",
        "name": "Pia Premium",
        "role": User.Role.MEMBER,
        "plan": "Premium",
    },
    {"email": "user@club.example", "password": "demo-user-1", "name": "Uma User", "role": User.Role.USER},
]


class Command(BaseCommand):
    help = (
        "Adds the demo courts, coupons, an announcement, the recommended limits per person and two "
        "membership plans, with the local Firebase Auth Emulator the demo accounts (an admin, a member "
        "of each plan, paid at localstripe, and a user), and three months of past play to a club that "
        "has no bookings yet. Idempotent: what exists already is left as it is."
    )

    def handle(self, *args, **options):
        self.seed_courts()
        self.seed_content()
        self.seed_rules()
        self.seed_plans()
        people = {}
        if settings.LOCAL_MODE and settings.FIREBASE_AUTH_EMULATOR_HOST:
            people = self.seed_accounts()
            self.seed_memberships(people)
            self.print_logins(people)
        else:
            self.stdout.write(
                "Demo accounts: skipped (they are made only in the local Firebase Auth Emulator)."
            )
        self.seed_history()
        if people:  # after the history, which a club with bookings already does without
            self.seed_doubles(people)
            self.seed_series(people)
            self.seed_program(people)

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
                    "places": court.get("places", PLACES_DEFAULT),
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
        policy_update(daily_hours_limit=DEMO_DAILY_HOURS, guest_fee=DEMO_GUEST_FEE)
        self.stdout.write(
            f"Demo rules: at most {DEMO_DAILY_HOURS} hours of courts per person a day; "
            f"a guest adds ${DEMO_GUEST_FEE} to a booking."
        )

    @transaction.atomic
    def seed_plans(self):
        added = [
            plan_create(**plan) for plan in DEMO_PLANS if not Plan.objects.filter(name=plan["name"]).exists()
        ]
        self.stdout.write(f"Demo plans: {len(added)} added, {len(DEMO_PLANS) - len(added)} already there.")

    def seed_history(self):
        # The demo members have played all along: their payment history is not empty.
        members = [account["email"] for account in DEMO_ACCOUNTS if account["role"] == User.Role.MEMBER]
        added = seed_history(regulars=list(User.objects.filter(email__in=members)))
        if added:
            self.stdout.write(f"Demo history: {added} bookings over the last {DAYS} days added.")
        else:
            self.stdout.write("Demo history: skipped (the club has bookings already).")

    def seed_accounts(self) -> dict[str, User]:
        """The demo accounts, by e-mail. A member is made one by their plan (seed_memberships)."""
        people = {}
        for account in DEMO_ACCOUNTS:
            uid = ensure_account(email=account["email"], password=account["password"], name=account["name"])
            role = User.Role.ADMIN if account["role"] == User.Role.ADMIN else User.Role.USER
            user, created = User.objects.get_or_create(
                email=account["email"], defaults={"firebase_uid": uid, "name": account["name"], "role": role}
            )
            if not created and user.firebase_uid != uid:  # the emulator's accounts were reset
                user.firebase_uid = uid
                user.save(update_fields=["firebase_uid"])
            people[user.email] = user
        return people

    @transaction.atomic
    def seed_doubles(self, people: dict[str, User]) -> None:
        """A game of doubles the demo member organises in a few days, with the Premium member and a
        guest playing, and a place left: its page shows the players, and the day sheet who plays."""
        organiser, partner = people["member@club.example"], people["premium@club.example"]
        if Player.objects.filter(booking__user=organiser).exists():
            self.stdout.write("Demo doubles: kept (the demo member has chosen players already).")
            return
        court = Court.objects.get(name="Clay Court")
        in_three_days = timezone.localdate() + timedelta(days=3)
        try:
            booking = booking_request(user=organiser, court=court, date=in_three_days, slots=["10:00-11:00"])
            players_set(
                booking=booking, by=organiser, people=[partner.public_id], invite=[], guests=["Sam Guest"]
            )
            # Its last place is open to the club, on /matches: played anyway if nobody takes it.
            match_open(
                booking=booking,
                by=organiser,
                places=court.places,
                deadline=players_until(booking, policy_get()),
                level_min=Decimal("3.0"),
                level_max=Decimal("4.5"),
                play_anyway=True,
            )
        except (Conflict, ValidationError) as refusal:  # the slot taken, or a limit reached meanwhile
            self.stdout.write(f"Demo doubles: skipped ({refusal}).")
            return
        self.stdout.write(
            f"Demo doubles: {organiser.name} with {partner.name} and a guest on {court.name}, "
            "its last place an open match."
        )

    @transaction.atomic
    def seed_series(self, people: dict[str, User]) -> None:
        """The Premium member's weekly early game on Centre Court for the next four weeks, approved:
        its dates' page lists them, and its payment page pays them all at once."""
        organiser = people["premium@club.example"]
        if Series.objects.filter(user=organiser).exists():
            self.stdout.write("Demo series: kept (the Premium member has one already).")
            return
        first = timezone.localdate() + timedelta(days=2)
        court, slots, last = (
            Court.objects.get(name="Centre Court"),
            ["07:00-08:00"],
            first + timedelta(weeks=3),
        )
        try:
            # Dates taken already (the history's) are left out, as the booking modal offers.
            plan = series_plan(
                user=organiser, court=court, slots=slots, first_date=first, every_weeks=1, last_date=last
            )
            series = series_book(
                user=organiser,
                court=court,
                slots=slots,
                first_date=first,
                every_weeks=1,
                last_date=last,
                skip_dates=[one.date for one in plan if one.refusal],
            )
            series_approve(series=series, by=people["admin@club.example"])
        except (Conflict, ValidationError) as refusal:
            self.stdout.write(f"Demo series: skipped ({refusal}).")
            return
        self.stdout.write(
            f"Demo series: {organiser.name}'s weekly game on Centre Court at 07:00, "
            f"{series.occurrences.count()} dates approved, to pay at once."
        )

    def seed_program(self, people: dict[str, User]) -> None:
        """A beginners' clinic on Glass Court on four Saturday mornings, the demo member's place in
        it paid with Stripe's test card at localstripe, as its payment page does it: /programs lists
        it, and the day sheet shows its slots held."""
        if Program.objects.exists():
            self.stdout.write("Demo programs: kept (the club has programs already).")
            return
        today = timezone.localdate()
        saturday = today + timedelta(days=(5 - today.weekday()) % 7 or 7)
        now = timezone.now()
        try:
            program = program_create(
                by=people["admin@club.example"],
                courts=[Court.objects.get(name="Glass Court")],
                first_date=saturday,
                until=saturday + timedelta(weeks=3),
                slots=["07:00-08:00"],
                kind=Program.Kind.CLINIC,
                title="Beginners' clinic",
                description="Four Saturday mornings: grip, forehand, backhand and the serve. Rackets lent.",
                coach_name="Coach Carter",
                capacity=8,
                price=Decimal("40.00"),
                registration_opens_at=now,
                registration_closes_at=timezone.make_aware(datetime.combine(saturday, time(6))),
                members_only=False,
                cancel_cutoff_hours=24,
            )
        except (Conflict, ValidationError) as refusal:
            self.stdout.write(f"Demo programs: skipped ({refusal}).")
            return
        member = people["member@club.example"]
        registration = program_register(program=program, user=member)
        paid = ""
        try:
            secret = registration_payment_intent_create(user=member, registration=registration)
            intent_id = str(secret).split("_secret_")[0]
            gateway.pay_with_card(intent_id, DEMO_CARD)
            payment_confirm(payment_intent_id=intent_id, user=member)
            paid = f", {member.name}'s place paid"
        except (Conflict, gateway.PaymentProviderUnavailable, stripe.StripeError) as refusal:
            paid = f", {member.name}'s place held to pay ({refusal})"
        self.stdout.write(f"Demo programs: {program} on Glass Court, Saturdays from {saturday}{paid}.")

    def seed_memberships(self, people: dict[str, User]) -> None:
        """Each demo member's plan, bought and paid with Stripe's test card at localstripe as the
        membership page does it: a subscription that renews there (/local/stripe-clock). Someone who
        holds or held a membership already keeps what they made of it."""
        if not settings.STRIPE_API_BASE or not gateway.provider_status()["ok"]:
            self.stdout.write(
                "Demo memberships: skipped (they are paid at localstripe, which does not answer): "
                "the demo members are users until they buy a plan."
            )
            return
        bought = kept = 0
        for account in DEMO_ACCOUNTS:
            user = people[account["email"]]
            if "plan" not in account:
                continue
            if user.memberships.exists():
                kept += 1
                continue
            plan = Plan.objects.get(name=account["plan"])  # seed_plans made it, if it was not there
            try:
                secret = membership_checkout(user=user, plan=plan)
                intent_id = secret.split("_secret_")[0]
                gateway.pay_with_card(intent_id, DEMO_CARD)
                payment_confirm(payment_intent_id=intent_id, user=user)
            except (Conflict, gateway.PaymentProviderUnavailable, stripe.StripeError) as refusal:
                self.stdout.write(f"Demo memberships: {user.email} bought none ({refusal}).")
                continue
            bought += 1
        self.stdout.write(f"Demo memberships: {bought} bought and paid, {kept} already there.")

    def print_logins(self, people: dict[str, User]) -> None:
        self.stdout.write("Demo logins (e-mail / password):")
        for account in DEMO_ACCOUNTS:
            user = people[account["email"]]
            user.refresh_from_db(fields=["role"])
            membership = user.memberships.select_related("plan").filter(status__in=Membership.LIVE).first()
            holds = ""
            if membership is not None:
                holds = f"  ({membership.plan} plan, {membership.get_status_display().lower()}"
                holds += f", paid until {day(membership.period_end)})" if membership.period_end else ")"
            self.stdout.write(f"  {user.role:<7} {account['email']} / {account['password']}{holds}")
