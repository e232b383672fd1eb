"""The demo club (`make run`) sells two plans, and a demo member holds each: bought and paid at
localstripe as the membership page does it, so that their renewals happen there as Stripe's do."""

from datetime import timedelta
from decimal import Decimal
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone

from accounts.models import User
from audit.models import AuditEntry
from bookings.matches import open_matches
from bookings.models import Player, Series
from club.management.commands.seed_demo import DEMO_PLANS
from kernel.days import day
from memberships.models import Membership, Plan
from memberships.services import membership_end, plan_create, plan_update
from payments.membership_payments import subscription_sync
from payments.models import Payment
from programs.models import Program
from testing import stripe_stand_in

pytestmark = pytest.mark.django_db

Status = Membership.Status


def seed_demo() -> str:
    """What seed_demo printed."""
    out = StringIO()
    call_command("seed_demo", stdout=out)
    return out.getvalue()


@pytest.fixture
def demo(emulator, localstripe) -> str:
    """The demo club as `make run` makes it, beside the emulator and localstripe."""
    return seed_demo()


def test_the_demo_club_sells_a_monthly_plan_and_a_yearly_one_that_gives_more(demo):
    club, premium = Plan.objects.get(name="Club"), Plan.objects.get(name="Premium")

    assert (club.period, club.price, club.renews_automatically, club.on_sale) == (
        "monthly",
        Decimal("30.00"),
        True,
        True,
    )
    assert (premium.period, premium.price, premium.renews_automatically, premium.on_sale) == (
        "yearly",
        Decimal("300.00"),
        True,
        True,
    )
    assert club.benefits() == [
        "Member price: 10% off the court's price",
        "Up to 6 hours of courts a week",
        "Up to 3 peak hours a week",
    ]
    assert premium.benefits() == [
        "Member price: 25% off the court's price",
        "Book up to 60 days ahead",
        "Up to 6 open bookings at once",
        "Up to 12 hours of courts a week",
        "Up to 6 peak hours a week",
        "Access to the members-only hours",
    ]
    # Added as an admin adds a plan: each change is on the audit trail.
    assert AuditEntry.objects.filter(action="plan.create").count() == 2


def test_each_demo_member_holds_a_plan_paid_at_localstripe(demo):
    now = timezone.now()
    held = {
        membership.user.email: membership
        for membership in Membership.objects.select_related("user", "plan").filter(status=Status.ACTIVE)
    }

    assert {email: membership.plan.name for email, membership in held.items()} == {
        "member@club.example": "Club",
        "premium@club.example": "Premium",
    }
    club, premium = held["member@club.example"], held["premium@club.example"]
    assert timedelta(days=28) < club.period_end - now <= timedelta(days=31)
    assert timedelta(days=364) < premium.period_end - now <= timedelta(days=366)
    for membership in held.values():
        assert membership.stripe_subscription_id.startswith("sub_")
        [payment] = Payment.objects.filter(user=membership.user, membership__isnull=False)
        assert (payment.membership, payment.status, payment.amount, payment.card_last4) == (
            membership,
            Payment.Status.SUCCEEDED,
            membership.plan.price,
            "4242",
        )
        assert payment.stripe_invoice_id.startswith("in_")
        assert membership.user.role == User.Role.MEMBER
    assert not Membership.objects.filter(user__email="user@club.example").exists()
    # make run prints each login with the plan it holds.
    for email, password, plan, membership in [
        ("member@club.example", "demo-member-1", "Club", club),
        ("premium@club.example", "demo-premium-1", "Premium", premium),
    ]:
        paid_until = day(membership.period_end)
        assert f"member  {email} / {password}  ({plan} plan, active, paid until {paid_until})" in demo


def test_a_demo_membership_renews_at_localstripe(demo):
    membership = Membership.objects.get(user__email="member@club.example")

    stripe_stand_in.renew(membership.stripe_subscription_id)
    renewed = subscription_sync(subscription_id=membership.stripe_subscription_id)

    assert (renewed.status, renewed.period_start) == (Status.ACTIVE, membership.period_end)
    assert renewed.payments.filter(status=Payment.Status.SUCCEEDED).count() == 2


def test_seeding_again_buys_nothing_and_leaves_what_people_and_staff_made_of_it(demo):
    ended = Membership.objects.get(user__email="member@club.example")
    membership_end(membership_id=ended.pk, reason="Ended by its holder.")
    plan_update(plan=Plan.objects.get(name="Premium"), price=Decimal("280.00"))
    before = [
        list(model.objects.order_by("pk").values_list("pk", "status")) for model in (Membership, Payment)
    ]

    again = seed_demo()

    after = [
        list(model.objects.order_by("pk").values_list("pk", "status")) for model in (Membership, Payment)
    ]
    assert after == before
    assert Plan.objects.get(name="Premium").price == Decimal("280.00")
    assert Plan.objects.count() == 2
    assert "Demo plans: 0 added, 2 already there." in again
    assert "Demo memberships: 0 bought and paid, 2 already there." in again
    assert "user    member@club.example / demo-member-1\n" in again


def test_without_localstripe_the_demo_members_are_users_until_they_buy_a_plan(emulator):
    with stripe_stand_in.unreachable():
        out = seed_demo()

    assert "Demo memberships: skipped (they are paid at localstripe, which does not answer)" in out
    assert not Membership.objects.exists()
    assert Plan.objects.filter(on_sale=True).count() == 2
    member = User.objects.get(email="member@club.example")
    assert (member.role, member.member_since) == (User.Role.USER, None)


def test_a_plan_staff_took_off_sale_is_not_bought(emulator, localstripe):
    premium = next(plan for plan in DEMO_PLANS if plan["name"] == "Premium")
    plan_create(**{**premium, "on_sale": False})

    out = seed_demo()

    assert "Demo memberships: premium@club.example bought none (The Premium plan is not on sale.)" in out
    assert "Demo memberships: 1 bought and paid, 0 already there." in out
    assert not Membership.objects.filter(user__email="premium@club.example").exists()


def test_the_demo_member_organises_doubles_with_the_premium_member_a_guest_and_an_open_place(demo):
    players = Player.objects.select_related("booking__user", "user").order_by("pk")

    assert [(player.booking.user.email, player.shown_name, player.kind) for player in players] == [
        ("member@club.example", "Pia Premium", "person"),
        ("member@club.example", "Sam Guest", "guest"),
    ]
    assert (
        "Demo doubles: Mia Member with Pia Premium and a guest on Clay Court, its last place an open match."
        in demo
    )
    assert players[0].booking.guest_fees == Decimal("5.00")  # the demo rules' fee for the guest
    [match] = open_matches()
    assert (match.booking.user.email, match.places, match.taken, match.play_anyway) == (
        "member@club.example",
        4,
        3,
        True,
    )
    assert "Demo doubles: kept (the demo member has chosen players already)." in seed_demo()
    assert Player.objects.count() == 2


def test_the_demo_has_a_series_to_pay_at_once_and_a_clinic_with_a_paid_place(demo):
    [series] = Series.objects.all()
    dates = list(series.occurrences.order_by("date"))
    assert (series.user.email, series.court.name, series.slots) == (
        "premium@club.example",
        "Centre Court",
        ["07:00-08:00"],
    )
    assert dates
    assert {booking.status for booking in dates} == {"approved"}
    assert "Demo series: Pia Premium's weekly game on Centre Court at 07:00" in demo
    [clinic] = Program.objects.all()
    assert (clinic.title, clinic.capacity, len(clinic.dates)) == ("Beginners' clinic", 8, 4)
    [place] = clinic.registrations.all()
    assert (place.user.email, place.status) == ("member@club.example", "confirmed")
    assert Payment.objects.get(registration=place).status == "succeeded"
    assert "Mia Member's place paid" in demo
    again = seed_demo()
    assert "Demo series: kept" in again
    assert "Demo programs: kept" in again
