"""The reports page: for admins only; revenue per month net of refunds and new members per month by
the club's calendar, against hand-counted fixtures; occupancy heat maps, the busiest courts and the
funnel as tables; the period and days chosen by links and a form; the same queries whatever the data."""

import re
from datetime import date, datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import User
from accounts.selectors import new_members_by_month
from bookings.models import Booking
from bookings.tests.factories import make_booking, tomorrow
from courts.models import Court
from courts.tests.factories import CourtFactory
from kernel.days import moments
from payments.selectors import takings_by_month
from payments.tests.helpers import paid, refunded

pytestmark = pytest.mark.django_db
NEW_YORK = ZoneInfo("America/New_York")
SLOTS = ["08:00-09:00", "09:00-10:00"]


def table(html: str, testid: str) -> list[list[str]]:
    """The rows of the table `testid`, each as its cells' texts."""
    body = re.search(rf'data-testid="{testid}".*?</table>', html, re.S).group(0)
    rows = re.findall(r"<tr>(.*?)</tr>", body, re.S)
    return [
        [
            " ".join(re.sub(r"<[^>]+>", " ", cell).split())
            for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)
        ]
        for row in rows
    ]


def at(*parts: int) -> datetime:
    return datetime(*parts, tzinfo=NEW_YORK)


@pytest.fixture
def books(settings):
    """A club in New York: $10 paid on the last evening of September (October by UTC), $30 and $20 in
    October, $40 just after midnight on the first of November; $5 of the $20 refunded in November,
    a $7 refund that failed; three people who became members (one in August)."""
    settings.TIME_ZONE = "America/New_York"
    court = CourtFactory(name="Centre", slots=SLOTS)
    booking = make_booking(court=court, slots=SLOTS[:1])
    paid(booking, "10.00", at(2026, 9, 30, 23, 30))
    paid(booking, "30.00", at(2026, 10, 15, 12))
    refunded(paid(booking, "20.00", at(2026, 10, 20, 12)), "5.00", at(2026, 11, 2, 9))
    refunded(paid(booking, "40.00", at(2026, 11, 1, 0, 30)), "7.00", None, status="failed")
    for email, since in [
        ("a@x.org", at(2026, 8, 31, 23)),
        ("b@x.org", at(2026, 10, 1)),
        ("c@x.org", at(2026, 11, 30, 23)),
    ]:
        User.objects.create_user(email, role=User.Role.MEMBER, member_since=since)
    return court


def test_revenue_is_summed_by_the_clubs_months_net_of_the_refunds_made_in_each(books):
    start, end = moments(date(2026, 9, 1), date(2026, 11, 30))
    months = takings_by_month(start=start, end=end)

    assert {month.isoformat(): figures.net for month, figures in months.items()} == {
        "2026-09-01": Decimal("10.00"),
        "2026-10-01": Decimal("50.00"),
        "2026-11-01": Decimal("35.00"),
    }
    assert months[date(2026, 11, 1)].refunds == Decimal("5.00")


def test_new_members_are_counted_by_the_month_they_joined(books):
    joined = new_members_by_month(date_from=date(2026, 9, 1), date_to=date(2026, 11, 30))

    assert {month.isoformat(): count for month, count in joined.items()} == {"2026-10-01": 1, "2026-11-01": 1}


def test_the_page_shows_each_month_of_the_period_with_its_figures(people, books):
    html = people["admin"].get("/dashboard/reports?date_from=2026-08-01&date_to=2026-11-30").content.decode()

    # Every payment is a booking's: the memberships' and the registrations' columns are nought.
    assert table(html, "revenue")[1:] == [
        ["August 2026", "$0.00", "$0.00", "$0.00", "$0.00", "$0.00", "$0.00"],
        ["September 2026", "$10.00", "$0.00", "$10.00", "$10.00", "$0.00", "$0.00"],
        ["October 2026", "$50.00", "$0.00", "$50.00", "$50.00", "$0.00", "$0.00"],
        ["November 2026", "$40.00", "$5.00", "$35.00", "$35.00", "$0.00", "$0.00"],
        ["Total", "$100.00", "$5.00", "$95.00", "$95.00", "$0.00", "$0.00"],
    ]
    assert table(html, "members")[1:] == [
        ["August 2026", "1"],
        ["September 2026", "0"],
        ["October 2026", "1"],
        ["November 2026", "1"],
        ["Total", "3"],
    ]
    # The columns are named by month and figure, for the eye; the table is the chart's text.
    assert "<title>Nov 2026: $35.00</title>" in html


def test_the_heat_maps_busiest_courts_and_funnel_are_tables_of_figures(people, books):
    Court.objects.update(created_at=timezone.now() - timedelta(days=30))
    side = CourtFactory(name="Side", slots=SLOTS)
    Court.objects.filter(pk=side.pk).update(created_at=timezone.now() - timedelta(days=30))
    day = tomorrow()
    make_booking(court=side, date=day, slots=SLOTS, status=Booking.Status.CONFIRMED)
    query = f"date_from={day:%Y-%m-%d}&date_to={day:%Y-%m-%d}"

    html = people["admin"].get(f"/dashboard/reports?{query}").content.decode()

    # Centre's 08:00 is held by the fixture's pending request (made for tomorrow too).
    assert table(html, "by-court") == [
        ["Court", "08:00", "09:00"],
        ["Centre", "100%", "0%"],
        ["Side", "100%", "100%"],
    ]
    weekday = day.strftime("%A")
    assert table(html, "by-weekday") == [["Weekday", "08:00", "09:00"], [weekday, "100%", "50%"]]
    assert table(html, "busiest") == [
        ["Court", "Slots booked", "Of which by series", "Program slots", "Occupancy", "Bar"],
        ["Side", "2", "0", "0", "100%", ""],
        ["Centre", "1", "0", "0", "50%", ""],
    ]
    # The period's bookings were made today: none of them in it.
    assert table(html, "funnel")[1] == ["Requested", "0", "0%", ""]


def test_the_days_links_keep_the_period_and_count_those_days_only(people, books):
    day = tomorrow()
    query = f"date_from={day:%Y-%m-%d}&date_to={day:%Y-%m-%d}"
    weekend = day.isoweekday() >= 6
    other = "weekdays" if weekend else "weekends"

    html = people["admin"].get(f"/dashboard/reports?{query}&days={other}").content.decode()

    assert f'href="?{query.replace("&", "&amp;")}&amp;days={other}" aria-current="page"' in html
    assert table(html, "by-weekday") == [["Weekday", "08:00", "09:00"]]  # that day is not counted


def test_by_default_the_period_is_the_last_twelve_months_and_links_name_others(people, books):
    today = timezone.localdate()
    months = today.year * 12 + today.month - 1 - 11
    first = date(months // 12, months % 12 + 1, 1)

    html = people["admin"].get("/dashboard/reports").content.decode()

    assert f'value="{first:%Y-%m-%d}"' in html
    assert f'value="{today:%Y-%m-%d}"' in html
    assert len(table(html, "revenue")) == 1 + 12 + 1
    last_month_end = today.replace(day=1) - timedelta(days=1)
    assert f"date_from={last_month_end.replace(day=1):%Y-%m-%d}&amp;date_to={last_month_end:%Y-%m-%d}" in html


@pytest.mark.parametrize(
    ("query", "error"),
    [
        ("date_from=2026-10-20&date_to=2026-10-01", "The last day comes on or after the first (2026-10-20)."),
        ("date_from=2020-01-01&date_to=2026-10-01", "At most three years at a time."),
        ("date_from=2026-13-01&date_to=2020-01-01", "Enter a valid date."),
        ("date_from=9999-12-30&date_to=9999-12-31", "Choose a day from 1900 to 2999."),
        ("date_from=0001-01-01&date_to=0001-01-02", "Choose a day from 1900 to 2999."),
    ],
)
def test_a_period_that_is_not_one_is_said_under_its_field_and_the_default_shown(people, books, query, error):
    response = people["admin"].get(f"/dashboard/reports?{query}")

    assert response.status_code == 200
    html = response.content.decode()
    assert error in html
    assert len(table(html, "revenue")) == 1 + 12 + 1


@pytest.mark.parametrize(
    ("kind", "lands_on"),
    [
        ("anonymous", "/login?next=/dashboard/reports"),
        ("owner", "/forbidden"),
        ("other", "/forbidden"),
        ("member", "/forbidden"),
    ],
)
def test_only_admins_read_the_reports(people, kind, lands_on):
    assert people[kind].get("/dashboard/reports")["Location"] == lands_on


def test_admins_find_the_reports_in_their_menu(people):
    assert 'href="/dashboard/reports"' in people["admin"].get("/dashboard").content.decode()


def test_the_page_costs_the_same_queries_however_many_bookings_and_payments(people, books):
    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert people["admin"].get("/dashboard/reports").status_code == 200
        return len(captured)

    few = queries()
    court = CourtFactory(slots=[f"{h:02d}:00-{h + 1:02d}:00" for h in range(8, 20)])
    for slot in court.slots:
        paid(
            make_booking(court=court, slots=[slot], status=Booking.Status.CONFIRMED), "20.00", timezone.now()
        )
        User.objects.create_user(f"{slot[:2]}@x.org", role=User.Role.MEMBER)

    assert queries() == few
