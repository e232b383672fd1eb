"""Memberships' states as the calendar and the club's rules move them, without Stripe: who may start
one, how long a period lasts, what ends one, the renewal reminder, and a plan kept while in use."""

import re
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from accounts.models import User
from kernel.days import add_months
from kernel.errors import Conflict
from memberships.models import Membership, Plan
from memberships.notices import remind_renewals
from memberships.selectors import plan_in_force
from memberships.services import (
    PLAN_IN_USE,
    membership_end,
    membership_open,
    membership_period_paid,
    memberships_end_lapsed,
    plan_delete,
)
from memberships.tests.factories import make_membership, make_plan
from notifications.models import Notification

pytestmark = pytest.mark.django_db
Status = Membership.Status


@pytest.fixture
def ada():
    return User.objects.create_user("ada@example.com", name="Ada")


@pytest.mark.parametrize(
    ("start", "months", "end"),
    [
        (datetime(2026, 1, 31, 10, tzinfo=UTC), 1, datetime(2026, 2, 28, 10, tzinfo=UTC)),
        (datetime(2028, 1, 31, 10, tzinfo=UTC), 1, datetime(2028, 2, 29, 10, tzinfo=UTC)),
        (datetime(2026, 12, 15, 10, tzinfo=UTC), 1, datetime(2027, 1, 15, 10, tzinfo=UTC)),
        (datetime(2028, 2, 29, 10, tzinfo=UTC), 12, datetime(2029, 2, 28, 10, tzinfo=UTC)),
    ],
)
def test_a_month_and_a_year_end_on_the_same_day_or_the_months_last(start, months, end):
    assert add_months(start, months) == end


def test_a_season_is_paid_from_its_first_day_or_from_when_it_is_bought_once_begun():
    season = make_plan(
        period="season",
        renews_automatically=False,
        season_starts_on=date(2027, 4, 1),
        season_ends_on=date(2027, 9, 30),
    )
    before = timezone.make_aware(datetime(2027, 3, 1, 12))
    during = timezone.make_aware(datetime(2027, 5, 1, 12))
    first = timezone.make_aware(datetime(2027, 4, 1))
    after = timezone.make_aware(datetime(2027, 10, 1))

    assert season.period_from(before) == (first, after)
    assert season.period_from(during) == (during, after)


def test_a_plan_off_sale_is_not_started(ada):
    with pytest.raises(Conflict, match=r"The Old plan is not on sale\."):
        membership_open(user=ada, plan=make_plan(name="Old", on_sale=False))


def test_starting_another_plan_before_paying_gives_up_the_first(ada):
    first = membership_open(user=ada, plan=make_plan(name="Club"))
    second = membership_open(user=ada, plan=make_plan(name="Premium"))

    first.refresh_from_db()
    assert (first.status, second.status) == (Status.EXPIRED, Status.PENDING)
    assert membership_open(user=ada, plan=second.plan) == second


def test_a_holder_cannot_start_another_membership(ada):
    make_membership(user=ada, plan=make_plan(name="Club"))

    with pytest.raises(Conflict, match=r"You hold the Club membership already \(active\)."):
        membership_open(user=ada, plan=make_plan(name="Premium"))


def test_a_payment_for_an_ended_membership_is_refused_and_an_old_one_moves_nothing_back(ada):
    membership = make_membership(user=ada, plan=make_plan(), days=30)
    end = membership.period_end
    membership_period_paid(
        membership_id=membership.pk,
        period_start=end - timedelta(days=60),
        period_end=end - timedelta(days=30),
        reason="An old period told late.",
    )
    membership.refresh_from_db()
    assert membership.period_end == end

    membership_end(membership_id=membership.pk, reason="Ended.")
    with pytest.raises(Conflict, match=r"This membership is expired: its payment is refunded\."):
        membership_period_paid(membership_id=membership.pk, period_start=end, period_end=end, reason="Late.")


def test_benefits_hold_while_in_force_and_the_role_follows_the_membership(ada):
    plan = make_plan(renews_automatically=False)
    membership = make_membership(user=ada, plan=plan, days=30)
    ada.refresh_from_db()
    assert (ada.role, plan_in_force(user=ada)) == (User.Role.MEMBER, plan)

    later = membership.period_end + timedelta(seconds=1)
    assert plan_in_force(user=ada, now=later) is None
    assert memberships_end_lapsed(now=later) == 1
    ada.refresh_from_db()
    assert ada.role == User.Role.USER
    membership.refresh_from_db()
    assert membership.status == Status.EXPIRED
    assert Notification.objects.filter(event="membership_ended", recipient=ada).count() == 1


def test_an_admin_holding_a_membership_stays_an_admin(ada):
    ada.role = User.Role.ADMIN
    ada.save()
    membership = make_membership(user=ada, plan=make_plan())
    membership_end(membership_id=membership.pk, reason="Ended.")

    ada.refresh_from_db()
    assert ada.role == User.Role.ADMIN


def test_a_membership_never_paid_is_given_up_after_a_day_without_a_message(ada):
    membership = membership_open(user=ada, plan=make_plan())

    assert memberships_end_lapsed(now=timezone.now() + timedelta(hours=23)) == 0
    assert memberships_end_lapsed(now=timezone.now() + timedelta(days=1, minutes=1)) == 1
    membership.refresh_from_db()
    assert membership.status == Status.EXPIRED
    assert not Notification.objects.filter(event="membership_ended").exists()


@pytest.mark.parametrize(
    ("period", "days_left", "reminded"),
    [("yearly", 8, False), ("yearly", 7, True), ("yearly", 1, True), ("monthly", 5, False)],
)
def test_a_yearly_renewal_is_announced_a_week_before_once(ada, period, days_left, reminded):
    make_membership(user=ada, plan=make_plan(period=period, renews_automatically=True), days=days_left)
    now = timezone.now() + timedelta(minutes=1)

    told = [remind_renewals(now=now), remind_renewals(now=now)]

    assert told == ([1, 0] if reminded else [0, 0])
    subjects = Notification.objects.filter(event="membership_renewal").values_list("subject", flat=True)
    assert len(subjects) == int(reminded)


def test_a_plan_someone_holds_or_held_is_kept_and_one_nobody_bought_is_deleted(ada):
    held, unsold = make_plan(name="Club"), make_plan(name="Unsold")
    membership_end(membership_id=make_membership(user=ada, plan=held).pk, reason="Ended.")

    with pytest.raises(Conflict, match=re.escape(PLAN_IN_USE)):
        plan_delete(plan=held)
    plan_delete(plan=unsold)

    assert list(Plan.objects.values_list("name", flat=True)) == ["Club"]


def test_a_plan_in_use_is_a_409_for_the_api_and_stays(people):
    plan = make_plan(name="Club", price=Decimal("30"))
    make_membership(user=User.objects.get(email="ada@example.com"), plan=plan)

    response = people["admin"].delete(f"/api/plans/{plan.pk}")

    assert (response.status_code, response.json()) == (409, {"detail": PLAN_IN_USE})
    assert Plan.objects.filter(pk=plan.pk).exists()
