"""The demo club's last three months of play, for `manage.py seed_demo`: a fresh `make run` opens
on a dashboard, a ledger and reports with figures in them (how much was taken last month, net of
refunds; which courts sit empty on weekday mornings).

Records only, as seed_scale makes them: players without sign-in accounts, and made-up Stripe ids.
Every booking has started already, so none can be cancelled or refunded any more and nothing of
it is ever sent to Stripe. The bookings follow the product's rules (docs/rules.md): a request,
approved by an admin, paid within a day, each step in its history; a few were rejected, expired or
cancelled, and some paid ones were cancelled before they started and refunded in full.
"""

import random
from collections.abc import Sequence
from datetime import date as Date
from datetime import datetime, timedelta
from operator import itemgetter
from typing import cast

from django.conf import settings
from django.contrib.auth.hashers import UNUSABLE_PASSWORD_PREFIX
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from bookings.models import BookedSlot, Booking, BookingStatusChange
from bookings.selectors import policy_get
from bookings.services import booking_price
from courts.models import Court
from courts.selectors import with_price_bands
from kernel.days import day_start
from kernel.money import discounted
from kernel.slots import Slot
from memberships.selectors import club_sells_memberships
from payments.models import Coupon, Payment, Refund

Status = Booking.Status

DAYS = 91  # the days of play before today
PLAYERS = [
    "Ada Brooks", "Ben Carter", "Chen Wei", "Dana Novak", "Eli Santos", "Emma Fischer",
    "Farah Khan", "Felix Moreau", "Grace Okafor", "Hana Ito", "Ivan Petrov", "Julia Rossi",
    "Kai Jensen", "Lea Martin", "Liam Walsh", "Maya Patel", "Nina Costa", "Noah Meyer",
    "Omar Haddad", "Priya Raman", "Rosa Diaz", "Sam Evans", "Theo Park", "Vera Silva",
]  # fmt: skip
# How many slots a booking takes, and how often.
RUNS, RUN_WEIGHTS = [1, 2, 3], [0.7, 0.24, 0.06]
COUPON_SHARE = 0.15  # paid with one of the demo coupons that any booking may use
# Of the requests: refused by an admin, left unpaid until they expired, withdrawn before they were
# paid, and paid then cancelled (refunded in full). The rest were played.
REJECTED, EXPIRED, WITHDRAWN, REFUNDED = 0.03, 0.03, 0.03, 0.04


def start_chance(weekday: int, hour: int) -> float:
    """The chance that a free slot starting at `hour` on `weekday` (Monday 0) begins a booking:
    weekday mornings are quiet, evenings and weekends busy."""
    if weekday >= 5:
        return 0.3
    if hour < 12:
        return 0.05
    return 0.12 if hour < 17 else 0.4


def seed_history(*, regulars: Sequence[User] = (), now: datetime | None = None, seed: int = 1) -> int:
    """Adds the demo history to a club that has courts and no bookings yet, with `regulars` (people
    who have an account already) among its players from the start; answers how many bookings it
    added (0 when the club has bookings, or no courts)."""
    courts = list(with_price_bands(Court.objects.filter(is_archived=False)))
    if not courts or Booking.objects.exists():
        return 0
    history = _History(random.Random(seed), now or timezone.now())  # noqa: S311 - made-up data
    with transaction.atomic():
        history.save_players(regulars)
        for court in courts:
            history.play(court)
        history.save()
        # The courts were there from the first day shown (the reports count a court's slots from
        # the day it was added).
        Court.objects.filter(pk__in=[court.pk for court in courts]).update(
            created_at=day_start(history.first_day)
        )
    return len(history.bookings)


class _History:
    """The history as it is made up, booking by booking, then saved in bulk (save)."""

    def __init__(self, rng: random.Random, now: datetime):
        self.rng, self.now = rng, now
        self.today = timezone.localdate(now)
        self.policy = policy_get()
        self.first_day = self.today - timedelta(days=DAYS)
        self.admin = User.objects.filter(role=User.Role.ADMIN).order_by("pk").first()
        self.coupons = list(Coupon.objects.filter(once_per_person=False, is_active=True))
        self.bookings: list[Booking] = []
        self.payments: dict[int, Payment] = {}  # by the booking's place in self.bookings
        self.refunds: dict[int, Refund] = {}
        self.steps: dict[int, list[tuple[str, str, User | None, datetime]]] = {}

    def save_players(self, regulars: Sequence[User]) -> None:
        """The players, who joined over the weeks before and during the history, and `regulars`,
        there from the start."""
        opened = day_start(self.first_day - timedelta(days=30))
        span = self.now - opened
        players = [
            User(
                email=f"{name.lower().replace(' ', '.')}@players.example",
                name=name,
                password=UNUSABLE_PASSWORD_PREFIX + "seed_demo",
                created_at=opened + span * (n / len(PLAYERS)) * 0.9,
            )
            for n, name in enumerate(PLAYERS)
        ]
        User.objects.filter(pk__in=[person.pk for person in regulars]).update(created_at=opened)
        for person in regulars:
            person.created_at = opened
        self.players = User.objects.bulk_create(players) + list(regulars)

    def play(self, court: Court) -> None:
        day = self.first_day
        while day < self.today:
            position = 0
            while position < len(court.slots):
                slot = court.slots[position]
                if self.rng.random() >= start_chance(day.weekday(), Slot.parse(slot).start.hour):
                    position += 1
                    continue
                size = self.rng.choices(RUNS, weights=RUN_WEIGHTS)[0]
                slots = court.slots[position : position + size]
                position += len(slots)
                self.book(court, day, slots)
            day += timedelta(days=1)

    def book(self, court: Court, day: Date, slots: list[str]) -> None:
        rng = self.rng
        starts_at = Slot.parse(slots[0]).starts_at(day)
        # Asked for up to two weeks ahead, by someone who had joined by then.
        asked = starts_at - timedelta(hours=rng.uniform(2, 14 * 24))
        joined = [player for player in self.players if player.created_at < asked]
        if not joined:
            return
        owner = rng.choice(joined)
        booking = Booking(
            user=owner,
            court=court,
            court_name=court.name,
            date=day,
            slots=slots,
            starts_at=starts_at,
            price=booking_price(court=court, date=day, slots=slots),
            created_at=asked,
        )
        # Decided within the decision window, and paid within the payment window, before it began.
        lead = starts_at - asked
        decision = min(lead * 0.2, timedelta(hours=self.policy.decision_window_hours))
        approved = asked + decision * rng.uniform(0.05, 1)
        payment = min(lead * 0.3, timedelta(hours=self.policy.payment_window_hours))
        paid = approved + payment * rng.uniform(0.05, 0.95)
        steps: list[tuple[str, str, User | None, datetime]] = [("", Status.PENDING, owner, asked)]
        outcome = rng.random()
        if outcome < REJECTED:
            booking.status = Status.REJECTED
            steps.append((Status.PENDING, Status.REJECTED, self.admin, approved))
        elif outcome < REJECTED + WITHDRAWN:
            booking.status = Status.CANCELLED
            steps.append((Status.PENDING, Status.CANCELLED, owner, approved))
        else:
            booking.approved_at = approved
            booking.payment_due_at = approved + timedelta(hours=self.policy.payment_window_hours)
            steps.append((Status.PENDING, Status.APPROVED, self.admin, approved))
            if outcome < REJECTED + WITHDRAWN + EXPIRED and booking.payment_due_at < self.now:
                booking.status = Status.EXPIRED
                steps.append((Status.APPROVED, Status.EXPIRED, None, booking.payment_due_at))
            else:
                booking.status = Status.CONFIRMED
                steps.append((Status.APPROVED, Status.CONFIRMED, owner, paid))
                self.pay(booking, paid)
                if outcome < REJECTED + WITHDRAWN + EXPIRED + REFUNDED:
                    cancelled = paid + (starts_at - paid) * rng.uniform(0.2, 0.8)
                    booking.status = Status.CANCELLED
                    steps.append((Status.CONFIRMED, Status.CANCELLED, owner, cancelled))
                    self.refund(cancelled)
        self.steps[len(self.bookings)] = steps
        self.bookings.append(booking)

    def pay(self, booking: Booking, at: datetime) -> None:
        coupon = self.rng.choice(self.coupons) if self.coupons and self.rng.random() < COUPON_SHARE else None
        self.payments[len(self.bookings)] = Payment(
            booking=booking,
            user=booking.user,
            amount=discounted(booking.price, coupon.discount) if coupon else booking.price,
            currency=settings.CURRENCY,
            coupon=coupon,
            discount=coupon.discount if coupon else 0,
            payment_intent_id=f"pi_demo_{len(self.bookings):06d}",
            status=Payment.Status.SUCCEEDED,
            card_last4="4242",
            paid_at=at,
            created_at=at - timedelta(minutes=2),
        )

    def refund(self, at: datetime) -> None:
        payment = self.payments[len(self.bookings)]
        self.refunds[len(self.bookings)] = Refund(
            payment=payment,
            amount=payment.amount,
            reason="Booking cancelled by you (100% refund).",
            status=Refund.Status.SUCCEEDED,
            stripe_refund_id=f"re_demo_{len(self.bookings):06d}",
            attempts=1,
            requested_by=payment.user,
            created_at=at,
            refunded_at=at + timedelta(minutes=1),
        )

    def save(self) -> None:
        Booking.objects.bulk_create(self.bookings)
        BookingStatusChange.objects.bulk_create(
            BookingStatusChange(booking=self.bookings[n], from_status=old, to_status=new, by=by, at=at)
            for n, steps in self.steps.items()
            for old, new, by, at in steps
        )
        BookedSlot.objects.bulk_create(
            BookedSlot(booking=booking, court=booking.court, date=booking.date, slot=slot)
            for booking in self.bookings
            if booking.status in Booking.HOLDING
            for slot in booking.slots
        )
        Payment.objects.bulk_create(self.payments.values())
        Refund.objects.bulk_create(self.refunds.values())
        # A player who paid is a member from their first payment on, as payments.services makes
        # them, in a club that sells no plan; in one that does, a member is someone holding a plan.
        if club_sells_memberships():
            return
        first_paid: dict[int, datetime] = {}
        # pay() gives each its paid_at.
        paid = [(payment.user_id, cast(datetime, payment.paid_at)) for payment in self.payments.values()]
        for user_id, paid_at in sorted(paid, key=itemgetter(1), reverse=True):
            first_paid[user_id] = paid_at
        for player in self.players:
            if player.pk in first_paid and player.role != User.Role.ADMIN:
                User.objects.filter(pk=player.pk).update(
                    role=User.Role.MEMBER, member_since=first_paid[player.pk]
                )
