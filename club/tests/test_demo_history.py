"""A fresh demo club (`make run`) has three months of play behind it, made by the product's rules:
its dashboard, ledger and reports answer a manager's questions from the first minute."""

from collections import Counter
from datetime import timedelta
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.db.models import Prefetch, Sum
from django.utils import timezone

from accounts.models import User
from bookings.models import BookedSlot, Booking, BookingStatusChange
from bookings.reports import occupancy
from bookings.selectors import policy_get
from club.demo_history import DAYS, seed_history
from courts.tests.factories import CourtFactory
from kernel.days import moments
from kernel.money import discounted
from payments.models import Payment, Refund
from payments.selectors import takings_by_month

pytestmark = pytest.mark.django_db

Status = Booking.Status


@pytest.fixture
def demo(emulator, localstripe):
    """The demo club as `make run` makes it, beside the emulator and localstripe."""
    call_command("seed_demo", verbosity=0)


def last_month() -> tuple:
    first_of_this = timezone.localdate().replace(day=1)
    last = first_of_this - timedelta(days=1)
    return last.replace(day=1), last


def test_last_months_takings_net_of_refunds_are_those_of_its_payments_and_refunds(demo):
    first, last = last_month()

    start, end = moments(first, last)
    [month] = takings_by_month(start=start, end=end).values()

    paid = Payment.objects.filter(paid_at__date__range=(first, last)).aggregate(sum=Sum("amount"))["sum"]
    refunded = Refund.objects.filter(refunded_at__date__range=(first, last)).aggregate(sum=Sum("amount"))
    assert month.gross == paid > 0
    assert month.refunds == refunded["sum"] > 0
    assert month.net == paid - refunded["sum"]


def test_weekday_mornings_are_the_quiet_hours(demo):
    first, last = last_month()

    use = occupancy(date_from=first, date_to=last, weekdays=range(1, 6)).by_weekday_hour

    def share(hours: range) -> float:
        held = [use[weekday, hour] for weekday in range(1, 6) for hour in hours if (weekday, hour) in use]
        return sum(u.booked for u in held) / sum(u.bookable for u in held)

    assert share(range(7, 12)) < 0.15 < 0.3 < share(range(17, 22))


def test_every_booking_is_in_the_past_and_went_the_way_the_rules_allow(demo):
    # The history's: the demo's game of doubles and series (seed_demo's seed_doubles, seed_series)
    # are to come.
    bookings = Booking.objects.filter(players=None, series=None).prefetch_related(
        Prefetch("history", queryset=BookingStatusChange.objects.order_by("at")), "payments__refunds"
    )
    held = Counter(BookedSlot.objects.values_list("booking_id", flat=True))
    deciding = timedelta(hours=policy_get().decision_window_hours)

    assert {booking.status for booking in bookings} == {
        Status.CONFIRMED,
        Status.REJECTED,
        Status.CANCELLED,
        Status.EXPIRED,
    }
    today = timezone.localdate()
    for booking in bookings:
        assert today - timedelta(days=DAYS) <= booking.date < today
        history = list(booking.history.all())
        assert history[0].to_status == Status.PENDING
        assert history[-1].to_status == booking.status
        # Decided and paid before it began; left unpaid, it expired at its payment deadline.
        decided = history[:-1] if booking.status == Status.EXPIRED else history
        assert all(step.at < booking.starts_at for step in decided)
        assert history[-1].at < timezone.now()
        if booking.approved_at:
            assert booking.approved_at - booking.created_at <= deciding
        assert held[booking.pk] == (len(booking.slots) if booking.status == Status.CONFIRMED else 0)
        payments = list(booking.payments.all())
        if booking.status == Status.CONFIRMED or payments:
            [payment] = payments
            assert payment.status == Payment.Status.SUCCEEDED
            assert payment.amount == discounted(booking.price, payment.discount)
            assert booking.approved_at < payment.paid_at < min(booking.starts_at, booking.payment_due_at)
            # Paid and then cancelled: refunded in full, before it began.
            kept = booking.status == Status.CONFIRMED
            assert [r.amount for r in payment.refunds.all()] == ([] if kept else [payment.amount])


def test_the_demo_members_have_played_and_the_demo_user_has_not(demo):
    for email in ["member@club.example", "premium@club.example"]:
        assert Payment.objects.filter(user__email=email, booking__isnull=False).exists()
    assert not User.objects.get(email="user@club.example").bookings.exists()


def test_in_a_club_that_sells_plans_paying_for_a_booking_makes_no_member(demo):
    # The demo club sells plans (club/tests/test_demo_memberships.py): a member holds one.
    players = User.objects.filter(email__endswith="@players.example")
    assert players.filter(payments__isnull=False).exists()
    assert set(players.values_list("role", "member_since")) == {(User.Role.USER, None)}


def test_in_a_club_that_sells_no_plan_players_who_paid_are_members_from_their_first_payment():
    CourtFactory(slots=[f"{hour:02d}:00-{hour + 1:02d}:00" for hour in range(8, 22)])

    assert seed_history() > 0

    for player in User.objects.filter(email__endswith="@players.example"):
        payments = player.payments.order_by("paid_at")
        if payments:
            assert (player.role, player.member_since) == (User.Role.MEMBER, payments[0].paid_at)
        else:
            assert (player.role, player.member_since) == (User.Role.USER, None)


def test_the_history_is_added_once_and_never_to_a_club_that_has_bookings(demo):
    bookings, payments = Booking.objects.count(), Payment.objects.aggregate(sum=Sum("amount"))

    call_command("seed_demo", verbosity=0)

    assert (Booking.objects.count(), Payment.objects.aggregate(sum=Sum("amount"))) == (bookings, payments)
    assert bookings > 1000
    assert Decimal(payments["sum"]) > 0
