"""Memberships in the reports, against hand-counted fixtures in the club's calendar: the members of
each plan in force in each month, the memberships begun and ended in each, and the money taken for
memberships beside the bookings', net of refunds; in the same queries whatever the data."""

import re
from datetime import date, datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from bookings.tests.factories import make_booking
from kernel.days import moments
from memberships.models import Membership, Plan
from memberships.reports import members_by_month
from memberships.services import membership_open
from memberships.tests.factories import make_membership, make_plan
from payments.selectors import takings_by_month_and_kind
from payments.tests.helpers import paid, paid_period, refunded

pytestmark = pytest.mark.django_db
NEW_YORK = ZoneInfo("America/New_York")


def at(*parts: int) -> datetime:
    return datetime(*parts, tzinfo=NEW_YORK)


def table(html: str, testid: str) -> list[list[str]]:
    body = re.search(rf'data-testid="{testid}".*?</table>', html, re.S).group(0)
    return [
        [
            " ".join(re.sub(r"<[^>]+>", " ", cell).split())
            for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row)
        ]
        for row in re.findall(r"<tr>(.*?)</tr>", body, re.S)
    ]


def held(plan: Plan, started: datetime, ended: datetime | None = None) -> Membership:
    """Someone's membership of `plan`, its first period paid at `started`, ended at `ended` if given."""
    membership = make_membership(
        user=User.objects.create_user(f"holder{Membership.objects.count()}@x.org"), plan=plan
    )
    status = Membership.Status.CANCELLED if ended else Membership.Status.ACTIVE
    Membership.objects.filter(pk=membership.pk).update(started_at=started, ended_at=ended, status=status)
    return membership


@pytest.fixture
def plans(settings):
    """A club in New York with a Club plan and a Premium one. Club: one membership from 20 August to
    the first moment of October, one from the last evening of September (October by UTC) on, one in
    July alone. Premium: one from 15 October to 20 November, and one bought on 2 October but never
    paid (given up)."""
    settings.TIME_ZONE = "America/New_York"
    club = make_plan(name="Club", period="monthly", price=Decimal("30.00"))
    premium = make_plan(name="Premium", price=Decimal("480.00"))
    held(club, at(2026, 8, 20, 10), at(2026, 10, 1))
    held(club, at(2026, 9, 30, 23, 30))
    held(club, at(2026, 7, 1, 10), at(2026, 7, 31, 10))
    held(premium, at(2026, 10, 15, 10), at(2026, 11, 20, 10))
    never_paid = membership_open(user=User.objects.create_user("never@x.org"), plan=premium)
    Membership.objects.filter(pk=never_paid.pk).update(
        status=Membership.Status.EXPIRED, ended_at=at(2026, 10, 3)
    )
    return {"club": club, "premium": premium}


def test_a_membership_counts_in_each_month_it_was_in_force_at_any_moment_of(plans):
    members = members_by_month(date_from=date(2026, 8, 1), date_to=date(2026, 11, 30))

    assert members.plans == ["Club", "Premium"]
    assert {month.isoformat(): figures.by_plan for month, figures in members.months.items()} == {
        "2026-08-01": [1, 0],
        "2026-09-01": [2, 0],
        "2026-10-01": [1, 1],  # the first ended as October began: not in force in it
        "2026-11-01": [1, 1],
    }


def test_new_and_ended_memberships_are_counted_in_the_month_they_began_or_ended(plans):
    members = members_by_month(date_from=date(2026, 8, 1), date_to=date(2026, 11, 30))

    assert {month.isoformat(): (m.new, m.ended) for month, m in members.months.items()} == {
        "2026-08-01": (1, 0),
        "2026-09-01": (1, 0),  # the club's evening of 30 September
        "2026-10-01": (1, 1),  # the membership never paid neither began nor ended
        "2026-11-01": (0, 1),
    }


def test_a_month_counts_only_its_days_in_the_period(plans):
    members = members_by_month(date_from=date(2026, 10, 2), date_to=date(2026, 11, 19))

    october, november = members.months.values()
    assert (october.by_plan, october.new, october.ended) == ([1, 1], 1, 0)
    assert (november.by_plan, november.new, november.ended) == ([1, 1], 0, 0)  # ended on the 20th


def test_the_page_shows_the_members_by_plan_and_those_who_joined_and_left(people, plans):
    html = people["admin"].get("/dashboard/reports?date_from=2026-08-01&date_to=2026-11-30").content.decode()

    assert table(html, "members-by-plan") == [
        ["Month", "Club", "Premium", "All plans"],
        ["August 2026", "1", "0", "1"],
        ["September 2026", "2", "0", "2"],
        ["October 2026", "1", "1", "2"],
        ["November 2026", "1", "1", "2"],
    ]
    assert table(html, "membership-churn") == [
        ["Month", "New", "Ended"],
        ["August 2026", "1", "0"],
        ["September 2026", "1", "0"],
        ["October 2026", "1", "1"],
        ["November 2026", "0", "1"],
        ["Total", "3", "2"],
    ]


def test_a_period_without_memberships_says_so(people, plans):
    html = people["admin"].get("/dashboard/reports?date_from=2026-01-01&date_to=2026-06-30").content.decode()

    assert "No membership was in force in the period." in html
    assert 'data-testid="members-by-plan"' not in html


@pytest.fixture
def takings(people, plans):
    """In New York: a $20 booking and a $30 month of Club paid in October; in November, another $30
    month paid and $10 of October's given back."""
    october = paid_period(Membership.objects.filter(plan=plans["club"]).first(), "30.00", at(2026, 10, 5, 12))
    paid(make_booking(), "20.00", at(2026, 10, 6, 12))
    paid_period(october.membership, "30.00", at(2026, 11, 5, 12))
    refunded(october, "10.00", at(2026, 11, 7, 12))


def test_membership_revenue_is_summed_beside_the_bookings_net_of_its_refunds(takings):
    start, end = moments(date(2026, 10, 1), date(2026, 11, 30))

    months = takings_by_month_and_kind(start=start, end=end)

    assert {
        month.isoformat(): {kind: t.net for kind, t in kinds.items()} for month, kinds in months.items()
    } == {
        "2026-10-01": {
            "booking": Decimal("20.00"),
            "membership": Decimal("30.00"),
            "registration": Decimal(0),
        },
        "2026-11-01": {
            "booking": Decimal("0.00"),
            "membership": Decimal("20.00"),
            "registration": Decimal(0),
        },
    }


def test_the_revenue_table_splits_each_month_s_net_by_kind(people, takings):
    html = people["admin"].get("/dashboard/reports?date_from=2026-10-01&date_to=2026-11-30").content.decode()

    assert table(html, "revenue") == [
        ["Month", "Taken", "Refunded", "Net", "Bookings, net", "Memberships, net", "Registrations, net"],
        ["October 2026", "$50.00", "$0.00", "$50.00", "$20.00", "$30.00", "$0.00"],
        ["November 2026", "$30.00", "$10.00", "$20.00", "$0.00", "$20.00", "$0.00"],
        ["Total", "$80.00", "$10.00", "$70.00", "$20.00", "$50.00", "$0.00"],
    ]


@pytest.mark.parametrize(
    ("kind", "lands_on"),
    [
        ("anonymous", "/login?next=/dashboard/reports"),
        ("owner", "/forbidden"),
        ("other", "/forbidden"),
        ("member", "/forbidden"),
    ],
)
def test_only_admins_read_the_memberships_figures(people, plans, kind, lands_on):
    assert people[kind].get("/dashboard/reports")["Location"] == lands_on


def test_the_page_costs_the_same_queries_however_many_memberships_and_plans(people, plans):
    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert (
                people["admin"].get("/dashboard/reports?date_from=2026-08-01&date_to=2026-11-30").status_code
                == 200
            )
        return len(captured)

    few = queries()
    for index in range(3):
        plan = make_plan(name=f"Plan {index}", period="monthly", price=Decimal("10.00"))
        for day in (3, 4):
            membership = held(plan, at(2026, 9, day, 10), at(2026, 11, day, 10))
            refunded(paid_period(membership, "10.00", at(2026, 9, day, 10)), "1.00", at(2026, 10, day, 10))

    assert queries() == few
