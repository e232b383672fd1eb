"""GET /api/memberships/me: each signed-in person reads their own membership (its plan, state, dates
and benefits) and nobody else's; someone who holds none reads null."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.test import Client
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from accounts.models import User
from kernel.days import day
from memberships.services import (
    membership_cancel_at_period_end,
    membership_end,
    membership_open,
    membership_renewal_failed,
)
from memberships.tests.factories import make_membership, make_plan

pytestmark = pytest.mark.django_db

ME = "/api/memberships/me"


def person(email: str) -> User:
    return User.objects.get(email=email)


@pytest.fixture
def plans():
    """The club's two plans: a monthly "Club" plan that keeps the club's rules but for its hours a
    week, and a yearly "Premium" one with a benefit of each kind."""
    club = make_plan(
        name="Club",
        price=Decimal("30.00"),
        period="monthly",
        member_price_kind="none",
        member_price_value=None,
        booking_window_days=None,
        hours_per_week=6,
        peak_hours_per_week=None,
        members_only_hours=False,
    )
    return {"club": club, "premium": make_plan(name="Premium")}


@pytest.fixture
def callers(sign_in_as, plans):
    """Ada and Mia hold the Club and the Premium plan; Bob holds none; Ann is an admin."""
    clients = {
        "club member": sign_in_as("ada@example.com", User.Role.MEMBER),
        "premium member": sign_in_as("mia@example.com", User.Role.MEMBER),
        "user": sign_in_as("bob@example.com"),
        "admin": sign_in_as("ann@example.com", User.Role.ADMIN),
    }
    make_membership(user=person("ada@example.com"), plan=plans["club"], days=30)
    make_membership(user=person("mia@example.com"), plan=plans["premium"], days=365)
    return clients


def test_a_visitor_is_answered_401():
    response = Client().get(ME)

    assert response.status_code == 401
    assert response.json()["detail"]


@pytest.mark.parametrize("caller", ["user", "admin"])
def test_someone_holding_no_membership_reads_null_though_others_hold_one(callers, caller):
    response = callers[caller].get(ME)

    assert response.status_code == 200
    assert response.json() == {"membership": None}


def test_a_member_of_the_monthly_plan_reads_its_state_dates_and_the_one_benefit_it_gives(callers, plans):
    membership = person("ada@example.com").memberships.get()

    body = callers["club member"].get(ME).json()

    assert parse_datetime(body["membership"].pop("periodEnd")) == membership.period_end
    assert body == {
        "membership": {
            "id": membership.pk,
            "plan": {
                "id": plans["club"].pk,
                "name": "Club",
                "price": "30.00",
                "period": "monthly",
                "periodLabel": "a month",
            },
            "status": "active",
            "statusLabel": "Active",
            "renews": True,
            "price": "30.00",
            "cancelAtPeriodEnd": False,
            "periodEndLabel": day(membership.period_end),
            "graceUntil": None,
            "graceUntilLabel": None,
            "benefits": {
                "lines": ["Up to 6 hours of courts a week"],
                "memberPriceKind": "none",
                "memberPriceValue": None,
                "bookingWindowDays": None,
                "openBookingsLimit": None,
                "hoursPerDay": None,
                "hoursPerWeek": 6,
                "peakHoursPerWeek": None,
                "membersOnlyHours": False,
            },
        }
    }


def test_a_member_of_the_yearly_plan_reads_its_benefits_and_their_limits(callers, plans):
    membership = callers["premium member"].get(ME).json()["membership"]

    assert (membership["plan"]["name"], membership["plan"]["period"]) == ("Premium", "yearly")
    assert membership["benefits"] == {
        "lines": [
            "Member price: 25% off the court's price",
            "Book up to 60 days ahead",
            "Up to 10 hours of courts a week",
            "Up to 4 peak hours a week",
            "Access to the members-only hours",
        ],
        "memberPriceKind": "percent",
        "memberPriceValue": "25.00",
        "bookingWindowDays": 60,
        "openBookingsLimit": None,
        "hoursPerDay": None,
        "hoursPerWeek": 10,
        "peakHoursPerWeek": 4,
        "membersOnlyHours": True,
    }


def test_a_person_reads_only_their_own_membership(callers):
    """The call names nobody: whoever asks, and whatever they add to it, reads their own."""
    ada, mia = person("ada@example.com"), person("mia@example.com")

    as_ada = callers["club member"].get(ME, {"email": "mia@example.com", "user": mia.pk}).json()
    as_bob = callers["user"].get(ME, {"email": "ada@example.com"}).json()

    assert as_ada["membership"]["id"] == ada.memberships.get().pk
    assert as_bob == {"membership": None}


def test_an_admin_reads_their_own_membership(callers, plans):
    make_membership(user=person("ann@example.com"), plan=plans["club"])

    membership = callers["admin"].get(ME).json()["membership"]

    assert membership["id"] == person("ann@example.com").memberships.get().pk
    assert membership["plan"]["name"] == "Club"


def test_a_past_due_membership_says_until_when_its_benefits_last(callers):
    grace = timezone.now() + timedelta(days=7)
    membership_renewal_failed(
        membership_id=person("ada@example.com").memberships.get().pk, grace_until=grace, reason="Declined."
    )

    membership = callers["club member"].get(ME).json()["membership"]

    assert (membership["status"], membership["statusLabel"]) == ("past_due", "Past due")
    assert membership["graceUntilLabel"] == day(grace)


def test_a_membership_cancelled_at_its_periods_end_says_so(callers):
    membership_cancel_at_period_end(membership_id=person("mia@example.com").memberships.get().pk)

    membership = callers["premium member"].get(ME).json()["membership"]

    assert (membership["status"], membership["renews"], membership["cancelAtPeriodEnd"]) == (
        "active",
        True,
        True,
    )


def test_a_membership_awaiting_its_first_payment_is_answered_with_no_dates(callers, plans):
    membership_open(user=person("bob@example.com"), plan=plans["premium"])

    membership = callers["user"].get(ME).json()["membership"]

    assert (membership["status"], membership["statusLabel"]) == ("pending", "Awaiting payment")
    assert (membership["periodEnd"], membership["periodEndLabel"]) == (None, None)


def test_an_ended_membership_is_no_longer_answered(callers):
    membership_end(membership_id=person("ada@example.com").memberships.get().pk, reason="Over.")

    assert callers["club member"].get(ME).json() == {"membership": None}


def test_reading_it_takes_two_queries(callers, django_assert_num_queries):
    # the caller's record (with whether their cookie was signed out), their membership with its plan
    with django_assert_num_queries(2):
        assert callers["premium member"].get(ME).status_code == 200
