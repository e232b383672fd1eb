"""A year of a busy club, made on demand for measuring the site at scale (bench/scale.py).

The records follow the product's rules (docs/rules.md), as if the club had run for `--days` days,
the last of them as far ahead as people could book yesterday (the policy's advance window less a day):

- people: a few admins (one per thousand), everyone else a user; a fifth of the people pay for
  bookings, and they are the club's members: each holds a plan. One member, the busiest, books far
  more than the rest (about 430 bookings in the default year);
- memberships: the demo club's two plans (a monthly Club and a yearly Premium, both renewing, as
  seed_demo's, less their hours a week), and each member's membership of one, begun before the
  calendar or during it, in force now (a member from its start, `member_since`): each period paid
  is a payment of its invoice, renewals to this day; a few renewals were declined, and paid a day
  or three later with another card, and a few are past due now, within their grace period.
  Besides, a tenth as many others held a plan during the calendar and ended it: cancelled at a
  period's end, or expired after a declined renewal was not paid within the grace period (they are
  users again). Each membership's changes have their history rows;
- courts: `--courts` courts of the shipped kinds, each with the 14 hourly slots from 07:00 to 21:00,
  priced per slot;
- bookings: each court's days filled to `--occupancy` (the share of its slots held), in runs of
  one to three slots. Up to tomorrow every booking that holds its slots is confirmed; after that
  most are, and some are still pending (asked for in the last day) or approved (in the last hour),
  nobody with more of those than the policy's open bookings limit. A few requests were rejected, cancelled or
  expired: they hold nothing. Prices are as bookings.services.booking_price makes them (at the
  member price of a plan in force when asked for), `starts_at` the first slot's start, and each
  status change has its history row;
- held slots: one `BookedSlot` per slot of each pending, approved or confirmed booking, so the
  database's one-booking-per-slot constraint holds;
- blocks and programs: one court in BLOCKED_EVERY keeps its first slot for coaching every day of
  the calendar (weekly blocks of PROGRAM_WEEKS, one after another on each weekday, each holding
  its slot by a `BookedSlot` a week), which no booking takes: each block is a weekly clinic's (a
  program for PROGRAM_PLACES, at PROGRAM_PRICE), with its places taken (registered and paid, a
  payment each), those to come full with a waitlist at times;
- series: on one court in SERIES_EVERY, the last slot of each weekday is a weekly series a quarter
  long, one person's after another's all year: each date a booking of its own, paid as any;
- payments: the demo coupons, one succeeded payment per confirmed booking, for its price (no
  coupon), and one per membership period paid, for the plan's price;
- open matches: one in MATCH_EVERY of the bookings that hold their slots and start after the
  next two days is open to others, for four, with a level range and a deadline a day before;
- content: one announcement a day (so even a club of a month fills more than a page of them, as the
  bookings do).

Records only: it calls neither Firebase (nobody has a sign-in account; `firebase_uid` is empty
until someone signs in with a verified address) nor Stripe (the PaymentIntent, invoice, customer
and subscription ids are made up).
Everything comes from one random generator seeded with `--seed`, and every time is counted from
`--now` (default: the current hour), so the same arguments give the same club. It fills an empty
database with bulk inserts, then updates the planner's statistics of the tables it filled; it
refuses a database that already has people, courts or bookings.
"""

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date as Date
from datetime import datetime, timedelta
from decimal import Decimal
from itertools import accumulate
from typing import cast

from django.conf import settings
from django.contrib.auth.hashers import UNUSABLE_PASSWORD_PREFIX
from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction
from django.utils import timezone

from accounts.models import User
from bookings.models import Block, BookedSlot, Booking, BookingStatusChange, Match, Series
from bookings.selectors import policy_get
from bookings.services import booking_price
from club.management.commands.seed_demo import DEMO_COUPONS, DEMO_PLANS, hourly, shipped_image
from content.models import Announcement
from courts.models import Court
from kernel.days import day_start, weekly
from kernel.slots import Slot
from memberships.models import Membership, MembershipChange
from memberships.models import Plan as MembershipPlan
from payments.models import Coupon, Payment
from programs.models import Program, Registration

Status = Booking.Status

SLOTS = hourly(7, 21)
COURT_KINDS = [  # name, type, shipped image, price per slot
    ("Hard Court", "Tennis", "tennis", Decimal("30.00")),
    ("Clay Court", "Tennis", "tennis-clay", Decimal("25.00")),
    ("Badminton Hall", "Badminton", "badminton", Decimal("15.00")),
    ("Glass Court", "Squash", "squash", Decimal("20.00")),
    ("Arena", "Basketball", "basketball", Decimal("40.00")),
    ("Beach Court", "Volleyball", "volleyball", Decimal("22.50")),
    ("Games Room", "Table Tennis", "table-tennis", Decimal("10.00")),
    ("Futsal Pitch", "Futsal", "futsal", Decimal("35.00")),
]
FIRST_NAMES = [
    "Ada",
    "Alan",
    "Amir",
    "Ana",
    "Ben",
    "Carla",
    "Chen",
    "Dana",
    "Eli",
    "Emma",
    "Farah",
    "Felix",
    "Grace",
    "Hana",
    "Ivan",
    "Ines",
    "Jon",
    "Julia",
    "Kai",
    "Lea",
    "Liam",
    "Maya",
    "Mila",
    "Nina",
    "Noah",
    "Omar",
    "Priya",
    "Raj",
    "Rosa",
    "Sam",
    "Sara",
    "Theo",
    "Uma",
    "Vera",
    "Wei",
    "Yara",
    "Yusuf",
    "Zoe",
]
LAST_NAMES = [
    "Adams",
    "Baker",
    "Brown",
    "Costa",
    "Diaz",
    "Evans",
    "Fischer",
    "Garcia",
    "Hall",
    "Ito",
    "Jensen",
    "Khan",
    "Kim",
    "Lopez",
    "Martin",
    "Meyer",
    "Moreau",
    "Nguyen",
    "Novak",
    "Okafor",
    "Park",
    "Patel",
    "Rossi",
    "Santos",
    "Schmidt",
    "Silva",
    "Smith",
    "Tanaka",
    "Walker",
    "Wang",
    "Weber",
    "Wilson",
]
SLOT_RUNS = ((1, 0.72), (2, 0.21), (3, 0.07))  # how many slots a booking takes, and how often
RELEASED_SHARE = 0.0098  # requests that ended rejected, cancelled or expired, per held booking
BUSIEST_WEIGHT = 3.75  # the busiest member books this many times as often as the average member
BATCH = 5000
MATCH_EVERY = 20
BLOCKED_EVERY = 8  # one court in eight keeps its first slot for coaching, every day (blocks)
BLOCKED_SLOTS = SLOTS[:1]
PROGRAM_PLACES, PROGRAM_PRICE, PROGRAM_WEEKS = 8, Decimal("20.00"), 4
SERIES_EVERY = 8  # one court in eight (not a coaching one) keeps its last slot for weekly series
SERIES_SLOTS = SLOTS[-1:]
SERIES_WEEKS = 13
Period = tuple[datetime, datetime]  # a membership's period: its start and its end
# The demo club's plans are held without their hours a week: the members book as a busy club's do
# (the busiest some 11 hours a week), which those limits would have refused in part.
UNLIMITED_WEEKS = {"hours_per_week": None, "peak_hours_per_week": None}
# Of the members: those on the yearly plan (the others on the monthly one), those who joined before
# the calendar's first day (the others during it), and those with a renewal declined and paid later
# with another card; of those whose latest renewal fell due within the grace period, those whose
# card was declined then: past due now.
PREMIUM_SHARE, FOUNDING_SHARE, DECLINED_AND_REPAID, PAST_DUE_NOW = 0.2, 0.7, 0.03, 0.25
FORMER_SHARE = 0.1  # people who ended a plan during the calendar, per member
CANCELLED_SHARE = 0.6  # of those: cancelled at a period's end; the others' renewal went unpaid


@dataclass
class Plan:
    """One booking before it is saved: its times decide its history and its payment."""

    booking: Booking
    # Whose it is and its court (by place in Command.courts): neither has a pk until it is saved.
    user: User
    court_index: int
    created: datetime
    approved: datetime | None = None
    decided: datetime | None = None  # rejected, cancelled, expired or paid (confirmed)


class Held:
    """One membership before it is saved: each period paid, with its invoice (renewals are charged
    within the hour their period begins), and each change of its state, with the payment that made
    it (by its place among the periods paid)."""

    def __init__(
        self,
        number: int,
        user: User,
        plan: MembershipPlan,
        start: datetime,
        periods: list[Period],
        now: datetime,
    ):
        self.user, self.plan, self.periods, self.now = user, plan, periods, now
        self.membership = Membership(
            status=Membership.Status.PENDING,
            renews=plan.renews_automatically,
            price=plan.price,
            stripe_customer_id=f"cus_seed_scale_{number:06d}",
            stripe_subscription_id=f"sub_seed_scale_{number:06d}",
            created_at=start - timedelta(minutes=2),
            started_at=start,
        )
        self.periods_paid: list[tuple[Period, datetime, str, str]] = []  # (period, paid at, card, invoice)
        self.steps: list[tuple[str, str, datetime, str, int | None]] = []  # (from, to, at, reason, paid)
        self.payments: list[Payment] = []

    def paid(self, until: int, invoice: Callable[[], str], *, card: str = "4242") -> None:
        """Its periods up to `until` (not included) paid, each with a new invoice."""
        for n in range(len(self.periods_paid), until):
            begun = self.periods[n][0]
            charged = begun if n == 0 else min(begun + timedelta(minutes=n % 60 + 1), self.now)
            self._pay(charged, card, invoice())

    def declined(self, invoice: str, grace: timedelta) -> None:
        """The next period's invoice declined as it began: past due for the grace period."""
        at = self.periods[len(self.periods_paid)][0]
        self.step(Membership.Status.PAST_DUE, at, f"The renewal (invoice {invoice}) was declined.")
        self.membership.grace_until = at + grace

    def repaid(self, invoice: str, at: datetime) -> None:
        """The declined invoice paid at `at` with another card, which pays the next renewals."""
        self._pay(at, "4444", invoice)

    def _pay(self, at: datetime, card: str, invoice: str) -> None:
        period = self.periods[len(self.periods_paid)]
        self.periods_paid.append((period, at, card, invoice))
        self.membership.period_start, self.membership.period_end = period
        if self.membership.status != Membership.Status.ACTIVE:
            self.step(Membership.Status.ACTIVE, at, "", paid=len(self.periods_paid) - 1)

    def step(self, to: str, at: datetime, reason: str, *, paid: int | None = None) -> None:
        self.steps.append((self.membership.status, to, at, reason, paid))
        self.membership.status = to


class Command(BaseCommand):
    help = (
        "Fills an empty database with a year of a busy club (people, courts, bookings, held slots, "
        "payments) through the models with bulk inserts; records only, no Firebase or Stripe call. "
        "The defaults make about 112,000 bookings; --days 36 about 11,000."
    )
    requires_system_checks = []  # records only: it needs the models, not the URLs or the views

    def add_arguments(self, parser):
        parser.add_argument("--people", type=int, default=5000, help="people (default 5000)")
        parser.add_argument("--courts", type=int, default=40, help="courts (default 40)")
        parser.add_argument(
            "--days",
            type=int,
            default=365,
            help="days of the club's calendar, ending 29 days ahead (default 365)",
        )
        parser.add_argument(
            "--occupancy", type=float, default=0.722, help="share of the courts' slots held (default 0.722)"
        )
        parser.add_argument("--seed", type=int, default=1, help="the random generator's seed (default 1)")
        parser.add_argument(
            "--now",
            type=datetime.fromisoformat,
            default=None,
            help="the moment the club's year ends at, ISO 8601 (default: the current hour)",
        )

    def handle(self, *args, people, courts, days, occupancy, seed, now, **options):
        if people < 10 or courts < 1 or days < 1 or not 0 < occupancy < 1:
            raise CommandError("Needs at least 10 people, 1 court, 1 day and an occupancy between 0 and 1.")
        if User.objects.exists() or Court.objects.exists() or Booking.objects.exists():
            raise CommandError("seed_scale fills an empty database: this one has people, courts or bookings.")
        if now is None:
            now = timezone.now().replace(minute=0, second=0, microsecond=0)
        elif timezone.is_naive(now):
            now = timezone.make_aware(now)
        started = time.monotonic()
        club = Club(
            random.Random(seed),  # noqa: S311 - made-up data, not secrets
            now=now,
            days=days,
            occupancy=occupancy,
        )
        with transaction.atomic():
            club.make_people(people)
            club.make_courts(courts)
            club.make_bookings()
            club.make_memberships()
            counts = club.save()
        # The planner's statistics, as a database that grew over a year has them: without them it
        # guesses, and the plans measured would be those of an empty database.
        with connection.cursor() as cursor:
            for model in (
                User,
                Court,
                Booking,
                Match,
                Series,
                Block,
                Program,
                Registration,
                BookedSlot,
                BookingStatusChange,
                Payment,
                Announcement,
                Coupon,
                MembershipPlan,
                Membership,
                MembershipChange,
            ):
                cursor.execute(f"ANALYZE {connection.ops.quote_name(model._meta.db_table)}")
        counts["seconds"] = round(time.monotonic() - started, 1)
        self.stdout.write(", ".join(f"{name}: {value:,}" for name, value in counts.items()))
        self.stdout.write(f"admin: {club.admins[0].email}")
        self.stdout.write(f"busiest member: {club.busiest_member().email}")
        self.stdout.write(f"user: {club.busiest_user().email}")


class Club:
    def __init__(self, rng: random.Random, *, now: datetime, days: int, occupancy: float):
        self.rng = rng
        self.now = now
        self.today = timezone.localdate(now)
        self.policy = policy_get()
        # The last day bookable yesterday as well as today, so every request was within the window.
        self.last_day = self.today + timedelta(days=self.policy.advance_days_user - 1)
        self.first_day = self.last_day - timedelta(days=days - 1)
        self.occupancy = occupancy
        self.plans: list[Plan] = []
        # The weekly series, by (court, weekday, quarter of the calendar).
        self.series: dict[tuple[int, int, int], Series] = {}

    # --- People and courts ---------------------------------------------------------------------
    def make_people(self, count: int) -> None:
        rng = self.rng
        admins = max(1, count // 1000)
        year_start = day_start(self.first_day)
        self.people: list[User] = []
        for n in range(count):
            first, last = rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES)
            role = User.Role.ADMIN if n < admins else User.Role.USER
            kind = "admin" if role == User.Role.ADMIN else "person"
            self.people.append(
                User(
                    email=f"{first}.{last}.{kind}{n:05d}@scale.example".lower(),
                    name=f"{first} {last}",
                    role=role,
                    password=UNUSABLE_PASSWORD_PREFIX + "seed_scale",
                    # Everyone joined before the first request of the year, admins first.
                    created_at=year_start - timedelta(days=self.policy.advance_days_user + 10, minutes=-n),
                )
            )
        self.admins = self.people[:admins]
        everyone = self.people[admins:]
        # A fifth of the people pay (members); the rest only ask. The first one books the most.
        self.payers = everyone[: max(1, count // 5)]
        weights = [BUSIEST_WEIGHT] + [rng.uniform(0.2, 1.8) for _ in self.payers[1:]]
        self.payer_weights = list(accumulate(weights))
        self.askers = everyone
        self.open_count: dict[int, int] = {}  # index in askers -> pending or approved bookings

    def make_courts(self, count: int) -> None:
        self.courts = []
        for n in range(count):
            name, kind, image, price = COURT_KINDS[n % len(COURT_KINDS)]
            self.courts.append(
                Court(
                    name=f"{name} {n // len(COURT_KINDS) + 1}",
                    type=kind,
                    price=price,
                    image=shipped_image(image),
                    slots=SLOTS,
                )
            )
            self.courts[-1].bands = []  # no price bands: read none for a court not saved yet

    # --- Bookings --------------------------------------------------------------------------------
    def make_bookings(self) -> None:
        rng = self.rng
        runs = [size for size, _ in SLOT_RUNS]
        run_weights = list(accumulate(share for _, share in SLOT_RUNS))
        mean_run = sum(size * share for size, share in SLOT_RUNS)
        # Starting a run at a free slot with chance q fills occupancy o of the day when
        # o = q·mean / (q·mean + 1 - q).
        start_chance = self.occupancy / (mean_run * (1 - self.occupancy) + self.occupancy)
        self.first_payers: list[int] = list(range(len(self.payers)))
        rng.shuffle(self.first_payers)
        day = self.first_day
        while day <= self.last_day:
            for court_index, court in enumerate(self.courts):
                position = len(BLOCKED_SLOTS) if court_index % BLOCKED_EVERY == 0 else 0
                end = len(SLOTS)
                if court_index % SERIES_EVERY == 1:
                    end -= len(SERIES_SLOTS)
                    self.plan_series_date(court_index, court, day)
                while position < end:
                    if rng.random() >= start_chance:
                        position += 1
                        continue
                    size = min(rng.choices(runs, cum_weights=run_weights)[0], end - position)
                    slots = SLOTS[position : position + size]
                    position += size
                    self.plan_held(court_index, court, day, slots)
                    if rng.random() < RELEASED_SHARE:
                        self.plan_released(court_index, court, day, slots)
            day += timedelta(days=1)

    def _booking(self, court: Court, day: Date, slots: list[str]) -> Booking:
        starts_at = Slot.parse(slots[0]).starts_at(day)
        booking = Booking(
            court_name=court.name,
            date=day,
            slots=slots,
            starts_at=starts_at,
            price=booking_price(court=court, date=day, slots=slots),
        )
        return booking

    def _past_times(self, starts_at: datetime) -> tuple[datetime, datetime, datetime]:
        """Requested within the advance window, approved within a day, paid within the payment
        window; all before the slot began and before now."""
        rng = self.rng
        end = min(starts_at, self.now - timedelta(minutes=5))
        midnight = day_start(starts_at.date())
        earliest = midnight - timedelta(days=self.policy.advance_days_user)
        created = end - (end - earliest) * rng.uniform(0.07, 1.0)
        approved = created + (end - created) * rng.uniform(0.02, 0.3)
        approved = min(approved, created + timedelta(hours=24))
        paid = approved + min(end - approved, timedelta(hours=24)) * rng.uniform(0.05, 0.95)
        return created, approved, paid

    def plan_held(self, court_index, court, day, slots) -> None:
        rng = self.rng
        # Its first slot more than a day away, and bookable two days ago already.
        future = self.today + timedelta(days=2) <= day <= self.last_day - timedelta(days=2)
        chance = rng.random()
        if future and chance < 0.168:
            status = Status.PENDING
        elif future and chance < 0.192:
            status = Status.APPROVED
        else:
            status = Status.CONFIRMED
        if status == Status.CONFIRMED:
            user_index = self._payer()
            booking = self._booking(court, day, slots)
            created, approved, paid = self._past_times(booking.starts_at)
            booking.status, booking.created_at, booking.approved_at = status, created, approved
            self.plans.append(Plan(booking, self.payers[user_index], court_index, created, approved, paid))
            return
        asker_index = self._asker_with_room()
        if asker_index is None:  # everyone holds as many open bookings as they may: a paid one
            user_index = self._payer()
            booking = self._booking(court, day, slots)
            created, approved, paid = self._past_times(booking.starts_at)
            booking.status, booking.created_at, booking.approved_at = Status.CONFIRMED, created, approved
            self.plans.append(Plan(booking, self.payers[user_index], court_index, created, approved, paid))
            return
        booking = self._booking(court, day, slots)
        asker = self.askers[asker_index]
        booking.status = status
        if status == Status.PENDING:
            # Asked within the last day: the decision deadline (48 hours) is a day away at least.
            booking.created_at = self.now - timedelta(minutes=rng.randint(1, 24 * 60))
            self.plans.append(Plan(booking, asker, court_index, booking.created_at))
        else:
            # Approved within the last hour: 23 hours left to pay at least.
            booking.created_at = self.now - timedelta(minutes=rng.randint(5 * 60, 40 * 60))
            booking.approved_at = self.now - timedelta(minutes=rng.randint(1, 60))
            self.plans.append(Plan(booking, asker, court_index, booking.created_at, booking.approved_at))

    def plan_series_date(self, court_index: int, court: Court, day: Date) -> None:
        """A date of the weekly series that holds the court's last slot on `day`'s weekday this
        quarter (made with its first date): booked and paid by its organiser, as a series' dates are."""
        quarter = (day - self.first_day).days // (7 * SERIES_WEEKS)
        key = (court_index, day.weekday(), quarter)
        series = self.series.get(key)
        if series is None:
            organiser = self.payers[self._payer()]
            series = self.series[key] = Series(
                user=organiser,
                court=court,
                slots=SERIES_SLOTS,
                first_date=day,
                last_date=day,
                every_weeks=1,
                created_at=min(day_start(day) - timedelta(days=7), self.now),
            )
        series.last_date = day
        booking = self._booking(court, day, SERIES_SLOTS)
        created, approved, paid = self._past_times(booking.starts_at)
        booking.status, booking.created_at, booking.approved_at = Status.CONFIRMED, created, approved
        booking.series = series
        self.plans.append(Plan(booking, series.user, court_index, created, approved, paid))

    def plan_released(self, court_index, court, day, slots) -> None:
        """Someone else's earlier request for the same slots, which ended without holding them."""
        rng = self.rng
        user_index = rng.randrange(len(self.askers))
        booking = self._booking(court, day, slots)
        created = self._past_times(booking.starts_at)[0]
        booking.created_at = created
        booking.status = rng.choice([Status.REJECTED, Status.CANCELLED, Status.CANCELLED, Status.EXPIRED])
        decided = created + timedelta(minutes=rng.randint(10, 60))
        if booking.status == Status.EXPIRED:
            if rng.random() < 0.5:  # approved, never paid
                booking.approved_at = decided
                decided = decided + timedelta(hours=self.policy.payment_window_hours)
            else:  # nobody decided in time
                decided = created + timedelta(hours=self.policy.decision_window_hours)
            if decided > self.now:  # its wait is not over yet: it was cancelled instead
                booking.status, booking.approved_at = Status.CANCELLED, None
                decided = created + timedelta(minutes=rng.randint(10, 60))
        self.plans.append(
            Plan(booking, self.askers[user_index], court_index, created, booking.approved_at, decided)
        )

    def _payer(self) -> int:
        if self.first_payers:  # every member pays at least once
            return self.first_payers.pop()
        return self.rng.choices(range(len(self.payers)), cum_weights=self.payer_weights)[0]

    def _asker_with_room(self) -> int | None:
        for _ in range(20):
            index = self.rng.randrange(len(self.askers))
            if self.open_count.get(index, 0) < self.policy.open_bookings_limit:
                self.open_count[index] = self.open_count.get(index, 0) + 1
                return index
        return None

    # --- Memberships -------------------------------------------------------------------------------
    def make_memberships(self) -> None:
        """The members' memberships, in force now (the payers are the members), and the memberships
        others ended during the calendar; a member is one from their membership's start."""
        rng = self.rng
        self.membership_plans = [MembershipPlan(**{**plan, **UNLIMITED_WEEKS}) for plan in DEMO_PLANS]
        self.grace = timedelta(days=self.policy.membership_grace_days)
        self.invoices = 0
        # Joined after everyone had an account (make_people), up to a day ago; the founding members
        # before the calendar's first day.
        joined_from, joined_by = day_start(self.first_day) - timedelta(days=30), self.now - timedelta(days=1)
        opened = min(day_start(self.first_day), joined_by)
        self.held: list[Held] = []
        for n, person in enumerate(self.payers):
            founding = rng.random() < FOUNDING_SHARE
            start = self._moment(joined_from, opened) if founding else self._moment(opened, joined_by)
            # The busiest member (the first) holds theirs as most do: paid up to this day; the yearly
            # plan, whatever the size of the club, so that the bench compares like with like.
            plan = self._plan()
            self._member(person, self._premium() if n == 0 else plan, start, always_paid=n == 0)
            person.role, person.member_since = User.Role.MEMBER, start
        others = self.askers[len(self.payers) :]
        for person in rng.sample(others, min(len(others), round(len(self.payers) * FORMER_SHARE))):
            self._former(person, self._plan(), self._moment(joined_from, joined_by))
        self._member_prices()

    def _member_prices(self) -> None:
        """The bookings asked for while their holder's membership was in force, at its member
        prices, as bookings.services.booking_request prices them."""
        held_by = {id(held.user): held for held in self.held}
        for plan in self.plans:
            held = held_by.get(id(plan.user))
            if held is None:
                continue
            began, ended = held.membership.started_at, held.membership.ended_at
            if began is not None and began <= plan.created and (ended is None or plan.created < ended):
                booking = plan.booking
                booking.price = booking_price(
                    court=self.courts[plan.court_index],
                    date=booking.date,
                    slots=booking.slots,
                    price_for=held.plan.slot_price,
                )

    def _plan(self) -> MembershipPlan:
        yearly = self.rng.random() < PREMIUM_SHARE
        return self._premium() if yearly else self._of(MembershipPlan.Period.MONTHLY)

    def _premium(self) -> MembershipPlan:
        return self._of(MembershipPlan.Period.YEARLY)

    def _of(self, period: str) -> MembershipPlan:
        return next(plan for plan in self.membership_plans if plan.period == period)

    def _moment(self, first: datetime, last: datetime) -> datetime:
        return first + (last - first) * self.rng.random()

    def _invoice(self) -> str:
        self.invoices += 1
        return f"in_seed_scale_{self.invoices:07d}"

    def _held(self, person: User, plan: MembershipPlan, start: datetime) -> Held:
        """A membership of `plan` begun at `start`, with its periods up to the one that holds now."""
        periods = [plan.period_from(start)]
        while periods[-1][1] <= self.now:
            periods.append(plan.period_from(periods[-1][1]))
        return Held(len(self.held) + 1, person, plan, start, periods, self.now)

    def _member(self, person: User, plan: MembershipPlan, start: datetime, *, always_paid: bool) -> None:
        """A membership in force now: paid up to this day; or its latest renewal declined, within
        the grace period; or an earlier renewal declined, then paid a day or three later."""
        held = self._held(person, plan, start)
        periods = held.periods
        renewals = [n for n, (begun, _) in enumerate(periods) if n and begun + timedelta(days=3) < self.now]
        within_grace = len(periods) > 1 and self.now < periods[-1][0] + self.grace
        chance = 1.0 if always_paid else self.rng.random()
        if within_grace and chance < PAST_DUE_NOW:
            held.paid(len(periods) - 1, self._invoice)
            held.declined(self._invoice(), self.grace)
        elif renewals and chance > 1 - DECLINED_AND_REPAID:
            late = self.rng.choice(renewals)
            held.paid(late, self._invoice)
            invoice = self._invoice()
            held.declined(invoice, self.grace)
            held.repaid(invoice, periods[late][0] + timedelta(days=self.rng.uniform(1, 3)))
            held.paid(len(periods), self._invoice, card="4444")
        else:
            held.paid(len(periods), self._invoice)
        self.held.append(held)

    def _former(self, person: User, plan: MembershipPlan, start: datetime) -> None:
        """A membership ended before now: cancelled at a period's end, or expired after a declined
        renewal went unpaid through the grace period; none if no period of it ended in time."""
        held = self._held(person, plan, start)
        cancelled = self.rng.random() < CANCELLED_SHARE
        wait = timedelta(0) if cancelled else self.grace
        ends = [n for n, (begun, _) in enumerate(held.periods) if n and begun + wait <= self.now]
        if not ends:
            return
        end = self.rng.choice(ends)
        held.paid(end, self._invoice)
        ended_at = held.periods[end][0]
        if cancelled:
            held.membership.cancel_at_period_end = True
            held.step(Membership.Status.CANCELLED, ended_at, "Stripe ended its subscription (canceled).")
        else:
            held.declined(self._invoice(), self.grace)
            ended_at += self.grace
            held.step(
                Membership.Status.EXPIRED, ended_at, "Its renewal was not paid within the grace period."
            )
        held.membership.ended_at = ended_at
        self.held.append(held)

    # --- Saving ----------------------------------------------------------------------------------
    def save(self) -> dict[str, int]:
        User.objects.bulk_create(self.people, batch_size=BATCH)
        Court.objects.bulk_create(self.courts, batch_size=BATCH)
        # The courts were there all year (created_at is set to the moment of saving).
        opened = day_start(self.first_day)
        Court.objects.filter(pk__in=[court.pk for court in self.courts]).update(created_at=opened)
        counts = dict.fromkeys(["held slots", "payments", "history rows"], 0)
        counts["held slots"] = self._save_blocks()
        for series in self.series.values():
            series.user_id, series.court_id = series.user.pk, series.court.pk
        Series.objects.bulk_create(self.series.values(), batch_size=BATCH)
        counts["series"] = len(self.series)
        for start in range(0, len(self.plans), BATCH):
            for name, count in self._save_batch(start, self.plans[start : start + BATCH]).items():
                counts[name] += count
        days = (self.last_day - self.first_day).days + 1
        Announcement.objects.bulk_create(
            Announcement(text=f"Club news, day {day + 1}: courts, coaching and events today.")
            for day in range(days)
        )
        Coupon.objects.bulk_create(Coupon(**coupon) for coupon in DEMO_COUPONS)
        counts |= self._save_memberships()
        counts["open matches"] = self._save_matches()
        statuses = [plan.booking.status for plan in self.plans]
        return {
            "people": len(self.people),
            "members": sum(person.role == User.Role.MEMBER for person in self.people),
            "courts": len(self.courts),
            "bookings": len(self.plans),
            "pending": statuses.count(Status.PENDING),
            "approved": statuses.count(Status.APPROVED),
            "confirmed": statuses.count(Status.CONFIRMED),
            **counts,
        }

    def _save_matches(self) -> int:
        """Every MATCH_EVERY-th booking holding its slots from two days ahead, opened as a match."""
        later = [
            plan.booking
            for plan in self.plans
            if plan.booking.status in Booking.HOLDING
            and plan.booking.starts_at > self.now + timedelta(days=2)
        ]
        matches = Match.objects.bulk_create(
            Match(
                booking=booking,
                places=4,
                level_min=Decimal(self.rng.choice(["2.0", "3.0", "4.0"])),
                level_max=Decimal(self.rng.choice(["4.5", "5.5", "7.0"])),
                deadline=booking.starts_at - timedelta(days=1),
            )
            for booking in later[::MATCH_EVERY]
        )
        return len(matches)

    def _save_memberships(self) -> dict[str, int]:
        """The plans, the memberships, a payment per period paid (its invoice's), and each
        membership's history, which names the payments that moved it."""
        MembershipPlan.objects.bulk_create(self.membership_plans)
        for held in self.held:
            held.membership.user, held.membership.plan = held.user, held.plan
        Membership.objects.bulk_create([held.membership for held in self.held], batch_size=BATCH)
        payments: list[Payment] = []
        for held in self.held:
            for (period_start, period_end), paid_at, card, invoice in held.periods_paid:
                payments.append(
                    Payment(
                        membership=held.membership,
                        user_id=held.membership.user_id,
                        amount=held.membership.price,
                        currency=settings.CURRENCY,
                        payment_intent_id=f"pi_seed_scale_m{len(payments) + 1:07d}",
                        stripe_invoice_id=invoice,
                        status=Payment.Status.SUCCEEDED,
                        card_last4=card,
                        paid_at=paid_at,
                        created_at=paid_at - timedelta(minutes=1),
                        period_start=period_start,
                        period_end=period_end,
                    )
                )
                held.payments.append(payments[-1])
        Payment.objects.bulk_create(payments, batch_size=BATCH)
        MembershipChange.objects.bulk_create(
            (
                MembershipChange(
                    membership=held.membership,
                    from_status=old,
                    to_status=new,
                    at=at,
                    reason=reason
                    if paid is None
                    else f"Paid ${held.membership.price} (payment #{held.payments[paid].pk}).",
                )
                for held in self.held
                for old, new, at, reason, paid in held.steps
            ),
            batch_size=BATCH,
        )
        return {"memberships": len(self.held), "membership payments": len(payments)}

    def _save_blocks(self) -> int:
        """The coaching blocks: for each court kept for it, on each weekday, one weekly block of
        PROGRAM_WEEKS after another all year (each a clinic's), with its held slots; answers how many
        slots they hold."""
        made = day_start(self.first_day) - timedelta(days=1)
        last_week = timedelta(weeks=PROGRAM_WEEKS - 1)
        blocks = [
            Block(
                court=court,
                date=first,
                until=min(first + last_week, self.last_day),
                slots=BLOCKED_SLOTS,
                reason="Coaching",
                created_by=self.admins[0],
                created_at=made,
            )
            for court in self.courts[::BLOCKED_EVERY]
            for offset in range(min(7, (self.last_day - self.first_day).days + 1))
            for first in weekly(
                self.first_day + timedelta(days=offset), self.last_day, every_weeks=PROGRAM_WEEKS
            )
        ]
        Block.objects.bulk_create(blocks)
        held = [
            BookedSlot(block=block, court_id=block.court_id, date=day, slot=slot)
            for block in blocks
            for day in block.dates
            for slot in block.slots
        ]
        BookedSlot.objects.bulk_create(held, batch_size=BATCH)
        self._save_programs(blocks, made)
        return len(held)

    def _save_programs(self, blocks: list[Block], made: datetime) -> None:
        """Each coaching block a weekly clinic's, its places taken by people who registered and
        paid when it opened, some of the clinics full with people waiting."""
        rng = self.rng
        programs = Program.objects.bulk_create(
            Program(
                kind=Program.Kind.CLINIC,
                title=f"{block.date:%A} coaching, {block.court.name}",
                coach_name="The club's coach",
                first_date=block.date,
                until=block.until,
                slots=block.slots,
                starts_at=Slot.parse(block.slots[0]).starts_at(block.date),
                capacity=PROGRAM_PLACES,
                price=PROGRAM_PRICE,
                registration_opens_at=made - timedelta(days=14),
                registration_closes_at=Slot.parse(block.slots[0]).starts_at(block.date),
                created_by=self.admins[0],
                created_at=made - timedelta(days=14),
            )
            for block in blocks
        )
        Program.blocks.through.objects.bulk_create(
            Program.blocks.through(program_id=program.pk, block_id=block.pk)
            for program, block in zip(programs, blocks, strict=True)
        )
        registrations: list[Registration] = []
        for program in programs:
            # Up to more than its places: a line waits for a clinic to come, none for one begun.
            most = PROGRAM_PLACES + 3 if program.starts_at > self.now else PROGRAM_PLACES
            people = rng.sample(self.payers, min(rng.randint(PROGRAM_PLACES // 2, most), len(self.payers)))
            for place, person in enumerate(people):
                at = program.registration_opens_at + timedelta(hours=place + 1)
                registered = place < PROGRAM_PLACES
                registrations.append(
                    Registration(
                        program=program,
                        user=person,
                        status=Registration.Status.CONFIRMED if registered else Registration.Status.WAITING,
                        price=PROGRAM_PRICE,
                        created_at=at,
                        confirmed_at=at + timedelta(minutes=5) if registered else None,
                    )
                )
        Registration.objects.bulk_create(registrations, batch_size=BATCH)
        Payment.objects.bulk_create(
            (
                Payment(
                    registration=registration,
                    user=registration.user,
                    amount=registration.price,
                    currency=settings.CURRENCY,
                    payment_intent_id=f"pi_seed_scale_r{n:07d}",
                    status=Payment.Status.SUCCEEDED,
                    paid_at=registration.confirmed_at,
                    created_at=registration.created_at,
                )
                for n, registration in enumerate(registrations)
                if registration.status == Registration.Status.CONFIRMED
            ),
            batch_size=BATCH,
        )

    def _save_batch(self, start: int, plans: list[Plan]) -> dict[str, int]:
        """Saves these bookings, then their held slots, payments and history rows."""
        payment_window = timedelta(hours=self.policy.payment_window_hours)
        for plan in plans:
            plan.booking.user = plan.user
            plan.booking.court = self.courts[plan.court_index]
            if plan.booking.approved_at:
                plan.booking.payment_due_at = plan.booking.approved_at + payment_window
        Booking.objects.bulk_create([plan.booking for plan in plans])
        held, payments, history = [], [], []
        for n, plan in enumerate(plans, start):
            booking = plan.booking
            history += [
                # Each step the plan went through has its moment.
                BookingStatusChange(
                    booking=booking, from_status=old, to_status=new, by=by, at=cast(datetime, at)
                )
                for old, new, by, at in self._history(plan, self.admins[n % len(self.admins)])
            ]
            if booking.status in Booking.HOLDING:
                held += [
                    BookedSlot(booking=booking, court_id=booking.court_id, date=booking.date, slot=slot)
                    for slot in booking.slots
                ]
            if booking.status == Status.CONFIRMED:
                # A confirmed plan was approved and paid (plan_held).
                approved, paid = cast(datetime, plan.approved), cast(datetime, plan.decided)
                payments.append(
                    Payment(
                        booking=booking,
                        user_id=booking.user_id,
                        amount=booking.price,
                        currency=settings.CURRENCY,
                        payment_intent_id=f"pi_seed_scale_{n:07d}",
                        status=Payment.Status.SUCCEEDED,
                        paid_at=paid,
                        created_at=paid - (paid - approved) / 2,
                    )
                )
        BookedSlot.objects.bulk_create(held)
        Payment.objects.bulk_create(payments)
        BookingStatusChange.objects.bulk_create(history)
        return {"held slots": len(held), "payments": len(payments), "history rows": len(history)}

    def _history(self, plan: Plan, admin: User) -> list[tuple[str, str, User | None, datetime | None]]:
        """(from, to, by, at) for each change the booking went through."""
        booking, owner = plan.booking, plan.booking.user
        steps: list[tuple[str, str, User | None, datetime | None]] = [
            ("", Status.PENDING, owner, plan.created)
        ]
        status = booking.status
        if status == Status.APPROVED:
            steps.append((Status.PENDING, Status.APPROVED, admin, plan.approved))
        elif status == Status.CONFIRMED:
            steps.append((Status.PENDING, Status.APPROVED, admin, plan.approved))
            steps.append((Status.APPROVED, Status.CONFIRMED, owner, plan.decided))
        elif status == Status.REJECTED:
            steps.append((Status.PENDING, Status.REJECTED, admin, plan.decided))
        elif status == Status.CANCELLED:
            steps.append((Status.PENDING, Status.CANCELLED, owner, plan.decided))
        elif status == Status.EXPIRED:
            if plan.approved:
                steps.append((Status.PENDING, Status.APPROVED, admin, plan.approved))
                steps.append((Status.APPROVED, Status.EXPIRED, None, plan.decided))
            else:
                steps.append((Status.PENDING, Status.EXPIRED, None, plan.decided))
        return steps

    def busiest_member(self) -> User:
        return self._busiest(User.Role.MEMBER)

    def busiest_user(self) -> User:
        return self._busiest(User.Role.USER)

    def _busiest(self, role: str) -> User:
        counts: dict[int, int] = {}
        for plan in self.plans:
            counts[id(plan.user)] = counts.get(id(plan.user), 0) + 1
        candidates = [person for person in self.people if person.role == role] or self.people
        return max(candidates, key=lambda person: counts.get(id(person), 0))
