"""manage.py seed_scale: a club's year that follows the product's rules, the same for the same seed."""

import itertools
import re
from collections import Counter
from datetime import datetime, timedelta
from io import StringIO

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from django.db.models import Count, Min, Q
from django.utils import timezone

from accounts.models import User
from bookings.models import Block, BookedSlot, Booking, BookingStatusChange, Match, Series
from bookings.selectors import overdue, policy_get
from content.models import Announcement
from courts.models import Court
from kernel.slots import Slot
from memberships.models import Membership, MembershipChange
from memberships.models import Plan as MembershipPlan
from payments.models import Coupon, Payment
from programs.models import Program, Registration
from testing.integrity import double_booked_slots

pytestmark = pytest.mark.django_db
NOW = timezone.make_aware(datetime(2026, 3, 10, 15, 0))
# A seed whose small club has a former member too: one in ten members' worth (here one person), whose
# membership ended within the 45 days only for some draws.
SMALL = {"people": 60, "courts": 3, "days": 45, "occupancy": 0.6, "seed": 6, "now": NOW.isoformat()}


def seed(**arguments) -> str:
    """The command's output, less the seconds it took."""
    out = StringIO()
    call_command(
        "seed_scale", *[f"--{name}={value}" for name, value in {**SMALL, **arguments}.items()], stdout=out
    )
    return re.sub(r", seconds: [\d.,]+", "", out.getvalue())


def printed(output: str) -> dict[str, int]:
    first_line = output.splitlines()[0]
    pairs = (item.split(": ") for item in first_line.split(", "))
    return {name: float(value.replace(",", "")) for name, value in pairs}


def test_the_shape_asked_for():
    counts = printed(seed())
    assert User.objects.count() == counts["people"] == 60
    assert Court.objects.count() == counts["courts"] == 3
    assert Booking.objects.count() == counts["bookings"]
    assert User.objects.filter(role=User.Role.ADMIN).count() == 1
    assert Court.objects.filter(is_archived=False).count() == 3
    assert all(len(court.slots) == 14 for court in Court.objects.all())
    # The calendar: `days` days, ending the policy's advance window after today; held at about the occupancy.
    last = NOW.date() + timedelta(days=policy_get().advance_days_user - 1)
    assert Booking.objects.aggregate(first=Min("date"))["first"] >= last - timedelta(days=44)
    assert not Booking.objects.filter(date__gt=last).exists()
    held = BookedSlot.objects.count()
    assert held == counts["held slots"]
    assert 0.5 < held / (3 * 14 * 45) < 0.7
    statuses = Counter(Booking.objects.values_list("status", flat=True))
    assert statuses[Booking.Status.PENDING] == counts["pending"] > 0
    assert statuses[Booking.Status.APPROVED] == counts["approved"]
    assert statuses[Booking.Status.CONFIRMED] == counts["confirmed"]
    assert Payment.objects.filter(booking__isnull=False).count() == counts["payments"] == counts["confirmed"]
    assert Membership.objects.count() == counts["memberships"] > 12  # the members', and former ones
    assert Payment.objects.filter(membership__isnull=False).count() == counts["membership payments"]
    assert Announcement.objects.exists()
    assert Coupon.objects.exists()


def test_bookings_follow_the_rules():
    seed()
    window = timedelta(days=policy_get().advance_days_user)
    memberships = Membership.objects.select_related("plan")
    held = {membership.user_id: membership for membership in memberships}
    at_member_prices = 0
    for booking in Booking.objects.select_related("court", "user"):
        # At the member price of a plan in force when it was asked for (the seeded courts have no bands).
        membership = held.get(booking.user_id)
        in_force = membership is not None and (
            membership.started_at <= booking.created_at
            and (membership.ended_at is None or booking.created_at < membership.ended_at)
        )
        slot_price = membership.plan.slot_price(booking.court.price) if in_force else booking.court.price
        assert booking.price == slot_price * len(booking.slots)
        at_member_prices += in_force
        # Requested by someone who had joined, for a day within the advance window.
        assert booking.user.created_at < booking.created_at
        assert booking.date <= timezone.localdate(booking.created_at) + window
        assert booking.court_name == booking.court.name
        assert booking.slots == sorted(booking.slots, key=booking.court.slots.index)
        assert booking.starts_at == Slot.parse(booking.slots[0]).starts_at(booking.date)
        assert booking.created_at < NOW
        assert booking.created_at < booking.starts_at
        if booking.status in (Booking.Status.APPROVED, Booking.Status.CONFIRMED):
            assert booking.created_at < booking.approved_at <= NOW
        history = list(booking.history.order_by("id").values_list("from_status", "to_status"))
        moments = list(booking.history.order_by("id").values_list("at", flat=True))
        assert moments == sorted(moments)
        assert moments[-1] <= NOW
        assert history[0] == ("", Booking.Status.PENDING)
        assert history[-1][1] == booking.status
        assert all(earlier[1] == later[0] for earlier, later in itertools.pairwise(history))
    # Nothing is overdue at `now`: the lists show every pending and approved booking.
    assert not Booking.objects.filter(overdue(NOW)).exists()
    open_per_person = Booking.objects.filter(status__in=[Booking.Status.PENDING, Booking.Status.APPROVED])
    open_per_person = open_per_person.values("user").annotate(open=Count("id"))
    assert max(row["open"] for row in open_per_person) <= policy_get().open_bookings_limit
    assert BookingStatusChange.objects.count() >= Booking.objects.count()
    assert 0 < at_member_prices < Booking.objects.count()


def test_held_slots_are_those_of_the_holding_bookings_and_none_twice():
    seed()
    for booking in Booking.objects.prefetch_related("held_slots"):
        held = sorted((slot.court_id, slot.date, slot.slot) for slot in booking.held_slots.all())
        wanted = booking.status in Booking.HOLDING
        assert held == (
            sorted((booking.court_id, booking.date, slot) for slot in booking.slots) if wanted else []
        )
    assert double_booked_slots() == 0


def test_the_courts_are_there_from_the_first_day_so_the_reports_count_them_all_year():
    seed()
    first = Booking.objects.aggregate(first=Min("date"))["first"]
    assert {timezone.localtime(court.created_at).date() for court in Court.objects.all()} == {first}


def test_one_court_in_eight_keeps_its_first_slot_for_coaching_every_day_each_a_clinics():
    seed()
    court = Court.objects.order_by("id").first()
    blocked = BookedSlot.objects.filter(block__isnull=False)
    assert {(held.court_id, held.slot) for held in blocked} == {(court.pk, court.slots[0])}
    assert blocked.count() == 45  # every day of the calendar, once
    # Four weeks each, one after another on each weekday: 45 days make two on each.
    assert Block.objects.filter(court=court, until__isnull=False).count() == 14
    assert not Booking.objects.filter(court=court, slots__contains=[court.slots[0]]).exists()
    # Each block is a clinic's, its places taken and paid, and those to come have their lines.
    assert Program.objects.count() == 14
    assert set(Program.objects.values_list("blocks__id", flat=True)) == set(
        Block.objects.values_list("id", flat=True)
    )
    places = Program.objects.annotate(
        taken=Count("registrations", filter=Q(registrations__status=Registration.Status.CONFIRMED))
    )
    assert {program.taken <= program.capacity for program in places} == {True}
    confirmed = Registration.objects.filter(status=Registration.Status.CONFIRMED)
    assert Payment.objects.filter(registration__isnull=False).count() == confirmed.count() > 0
    assert not Registration.objects.filter(
        status=Registration.Status.WAITING, program__starts_at__lte=NOW
    ).exists()


def test_one_court_in_eight_keeps_its_last_slot_for_weekly_series_each_a_quarter_long():
    seed(days=120)
    court = Court.objects.order_by("id")[1]
    dated = Booking.objects.filter(series__isnull=False)
    assert {(court_id, tuple(slots)) for court_id, slots in dated.values_list("court", "slots")} == {
        (court.pk, tuple(court.slots[-1:]))
    }
    assert set(dated.values_list("status", flat=True)) == {Booking.Status.CONFIRMED}
    for series in Series.objects.all():
        dates = list(series.occurrences.values_list("date", flat=True))
        assert dates == series.dates  # weekly, none left out
        assert len(dates) <= 13
        assert {booking.user_id for booking in series.occurrences.all()} == {series.user_id}
    assert Series.objects.count() == 7 * 2  # 120 days: a quarter and a part, on each weekday
    assert not Booking.objects.filter(court=court, series=None, slots__contains=court.slots[-1:]).exists()


def test_payments_match_the_confirmed_bookings():
    seed()
    confirmed = Booking.objects.filter(status=Booking.Status.CONFIRMED)
    payments = Payment.objects.filter(booking__isnull=False).select_related("booking")
    assert sorted(payments.values_list("booking_id", flat=True)) == sorted(
        confirmed.values_list("id", flat=True)
    )
    for payment in payments:
        assert payment.status == Payment.Status.SUCCEEDED
        assert payment.amount == payment.booking.price
        assert payment.user_id == payment.booking.user_id
        assert payment.currency == settings.CURRENCY
        assert payment.booking.approved_at < payment.paid_at <= NOW
    for person in User.objects.all():
        assert person.firebase_uid is None
        assert not person.has_usable_password()


def test_a_fifth_of_the_people_are_members_who_hold_a_plan_and_pay_for_bookings():
    seed()
    in_force = Membership.objects.filter(Membership.in_force(NOW))
    members = User.objects.filter(role=User.Role.MEMBER)
    assert members.count() == 12  # a fifth of the people
    assert set(in_force.values_list("user", "started_at")) == set(members.values_list("pk", "member_since"))
    assert not in_force.filter(user__role=User.Role.ADMIN).exists()
    paying = set(Payment.objects.filter(booking__isnull=False).values_list("user", flat=True))
    assert paying == set(members.values_list("pk", flat=True))
    # The two plans of the demo club, on sale; the monthly one most held.
    assert set(MembershipPlan.objects.values_list("name", "period", "on_sale")) == {
        ("Club", "monthly", True),
        ("Premium", "yearly", True),
    }
    held = Counter(in_force.values_list("plan__period", flat=True))
    assert held["monthly"] > held["yearly"]


def test_each_membership_period_paid_is_one_payment_of_its_invoice_and_its_history_follows_the_rules():
    seed(people=500, days=120)
    grace = timedelta(days=policy_get().membership_grace_days)
    memberships = Membership.objects.select_related("plan", "user").prefetch_related("history", "payments")
    for membership in memberships:
        payments = sorted(membership.payments.all(), key=lambda payment: payment.period_start)
        assert payments
        # One period after the other, from its start, each paid once, by its invoice, for the plan's price.
        assert payments[0].period_start == membership.started_at
        for earlier, later in itertools.pairwise(payments):
            assert earlier.period_end == later.period_start
        assert (membership.period_start, membership.period_end) == (
            payments[-1].period_start,
            payments[-1].period_end,
        )
        for payment in payments:
            assert (payment.booking, payment.user, payment.amount) == (
                None,
                membership.user,
                membership.price,
            )
            assert (payment.status, payment.currency) == (Payment.Status.SUCCEEDED, settings.CURRENCY)
            assert payment.stripe_invoice_id.startswith("in_")
            assert payment.period_start <= payment.paid_at <= NOW
        assert membership.stripe_subscription_id.startswith("sub_")
        history = list(membership.history.all())
        assert history[0].from_status == Membership.Status.PENDING
        assert history[0].at == membership.started_at
        assert history[-1].to_status == membership.status
        assert all(a.to_status == b.from_status for a, b in itertools.pairwise(history))
        assert all(a.at <= b.at <= NOW for a, b in itertools.pairwise(history))
        assert all(b.to_status in Membership.TRANSITIONS[a.to_status] for a, b in itertools.pairwise(history))
        assert membership.price == membership.plan.price
        paid_here = {f"Paid ${membership.price} (payment #{payment.pk})." for payment in payments}
        assert {step.reason for step in history if step.to_status == "active"} <= paid_here
        if membership.status == Membership.Status.ACTIVE:
            assert membership.period_start <= NOW < membership.period_end
            assert membership.user.role == User.Role.MEMBER
        elif membership.status == Membership.Status.PAST_DUE:
            assert membership.period_end <= NOW < membership.grace_until == membership.period_end + grace
            assert membership.user.role == User.Role.MEMBER
        else:
            assert membership.ended_at <= NOW
            assert membership.user.role == User.Role.USER
            if membership.status == Membership.Status.EXPIRED:
                assert membership.ended_at == membership.period_end + grace
            else:
                assert (membership.ended_at, membership.cancel_at_period_end) == (membership.period_end, True)
    states = Counter(memberships.values_list("status", flat=True))
    assert set(states) == {"active", "past_due", "cancelled", "expired"}
    # Some renewal was declined and paid days later with another card.
    assert Payment.objects.filter(membership__isnull=False, card_last4="4444").exists()
    invoices = Payment.objects.filter(membership__isnull=False).values_list("stripe_invoice_id", flat=True)
    assert len(invoices) == len(set(invoices))


def test_the_same_seed_makes_the_same_club_and_another_seed_another():
    def club() -> list[tuple]:
        bookings = Booking.objects.order_by("id").values_list(
            "user__email", "court__name", "date", "slots", "status", "price", "created_at", "approved_at"
        )
        memberships = Membership.objects.order_by("id").values_list(
            "user__email", "plan__name", "status", "started_at", "period_end"
        )
        return [*bookings, *memberships]

    def empty() -> None:
        filled = (Payment, MembershipChange, Membership, MembershipPlan, BookingStatusChange, BookedSlot)
        filled += (Registration, Program, Block, Booking, Series, Court, User, Announcement, Coupon)
        for model in filled:
            model.objects.all().delete()

    first_output = seed()
    first = club()
    empty()
    assert seed() == first_output
    assert club() == first
    empty()
    seed(seed=8)
    assert club() != first


def test_it_fills_only_an_empty_database():
    seed()
    with pytest.raises(CommandError, match="empty database"):
        seed()


def test_some_bookings_ahead_are_open_matches_as_the_product_opens_them():
    counts = printed(seed())

    matches = Match.objects.select_related("booking")
    assert matches.count() == counts["open matches"] > 0
    for match in matches:
        assert match.booking.status in Booking.HOLDING
        assert NOW < match.deadline < match.booking.starts_at
        assert match.level_min <= match.level_max
        assert match.places <= Court.objects.get(pk=match.booking.court_id).places
