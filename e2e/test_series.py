"""Series in a browser: a member books the same slot weekly for six weeks from the booking modal;
the week somebody else holds is listed first and left out; she books the other five, and later
cancels the rest of the series from its third date, keeping the first two. An admin approves a
series at once, and its organiser pays every date in one payment."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from accounts.models import User
from bookings.models import Booking, Series
from bookings.series import series_book
from bookings.services import policy_update
from bookings.tests.factories import make_booking
from courts.tests.factories import CourtFactory
from e2e.journeys import sign_in
from e2e.test_shares import pay_on_the_page
from kernel.days import day
from payments.models import Payment

pytestmark = pytest.mark.browser
SLOT = "19:00-20:00"


def test_a_member_books_a_weekly_series_skipping_a_taken_week_and_cancels_the_rest_after_two(
    site: str, page: Page
):
    policy_update(advance_days_member=60)
    User.objects.create_user("mia@example.com", role=User.Role.MEMBER, name="Mia Park")
    court = CourtFactory(
        name="Centre Court", type="Tennis", price=Decimal("20.00"), slots=["18:00-19:00", SLOT]
    )
    first = timezone.localdate() + timedelta(days=3)
    dates = [first + timedelta(weeks=week) for week in range(6)]
    taken = dates[3]
    make_booking(user=User.objects.create_user("bob@example.com"), court=court, date=taken, slots=[SLOT])

    sign_in(page, site, "mia@example.com", "/courts", name="Mia Park")
    page.get_by_role("button", name="Book Now").click()
    modal = page.get_by_role("dialog", name="Booking: Centre Court (Tennis)")
    modal.get_by_label("Date").fill(first.isoformat())
    modal.get_by_label(SLOT).check()
    modal.get_by_label("Repeat these slots").check()
    modal.get_by_label("Every").select_option("1")
    modal.get_by_label("Until").fill(dates[-1].isoformat())
    expect(modal.get_by_text("Price per date: $20.00")).to_be_visible()
    modal.get_by_role("button", name="See the dates").click()

    # Every date is listed, the taken one struck out with why, before anything is booked.
    question = page.get_by_role("dialog", name="Book the 5 dates that can be had?")
    expect(question).to_be_visible()
    plan = question.get_by_test_id("series-plan")
    expect(plan.get_by_role("listitem")).to_have_count(6)
    expect(plan.locator("[data-refused]")).to_have_text(f"{day(taken)}: Already taken at 19:00–20:00.")
    expect(question).to_contain_text("5 dates, $100.00 in all.")
    assert not Series.objects.exists()
    question.get_by_role("button", name="Book 5 dates").click()

    # The first date's page shows the series: five bookings, the taken week left out.
    expect(page.get_by_role("heading", name="Weekly series")).to_be_visible()
    rows = page.get_by_test_id("series-dates").locator("tbody tr")
    expect(rows).to_have_count(5)
    expect(rows.filter(has_text=day(taken))).to_have_count(0)
    series = Series.objects.get()
    assert [one.date for one in series.occurrences.order_by("date")] == [d for d in dates if d != taken]

    # After two dates, the rest is cancelled from the third's page.
    rows.nth(2).get_by_role("link").click()
    expect(page.get_by_test_id("series-dates").locator('tr[aria-current="page"]')).to_contain_text(
        f"{day(dates[2])} (this one)"
    )
    page.get_by_role("button", name="Cancel this and the rest").click()
    confirm = page.get_by_role("dialog", name="Cancel the rest of the series?")
    expect(confirm).to_contain_text(f"Cancel the 3 bookings of this series from {day(dates[2])} on?")
    confirm.get_by_role("button", name="Yes, cancel them!").click()
    page.get_by_role("dialog", name="Cancelled!").get_by_role("button", name="OK").click()

    statuses = page.get_by_test_id("series-dates").locator("tbody tr")
    expect(statuses.filter(has_text="Cancelled")).to_have_count(3)
    expect(statuses.filter(has_text="Pending")).to_have_count(2)
    assert (
        list(series.occurrences.order_by("date").values_list("status", flat=True))
        == [Booking.Status.PENDING] * 2 + [Booking.Status.CANCELLED] * 3
    )


def test_an_admin_approves_a_series_at_once_and_its_organiser_pays_it_in_one_payment(
    site: str, page: Page, new_context, localstripe
):
    policy_update(advance_days_member=60)
    mia = User.objects.create_user("mia@example.com", role=User.Role.MEMBER, name="Mia Park")
    User.objects.create_user("ann@example.com", role=User.Role.ADMIN, name="Ann Admin")
    court = CourtFactory(name="Centre Court", price=Decimal("20.00"), slots=[SLOT])
    first = timezone.localdate() + timedelta(days=3)
    series = series_book(
        user=mia,
        court=court,
        slots=[SLOT],
        first_date=first,
        every_weeks=2,
        last_date=first + timedelta(weeks=4),
    )
    date_page = f"/dashboard/bookings/{series.occurrences.order_by('date').first().pk}"

    admins = new_context().new_page()
    sign_in(admins, site, "ann@example.com", date_page, name="Ann Admin")
    expect(admins.get_by_role("heading", name="Every 2 weeks series")).to_be_visible()
    admins.get_by_role("button", name="Approve the 3 waiting").click()
    expect(admins.get_by_role("dialog", name="Approved!")).to_be_visible()
    assert set(series.occurrences.values_list("status", flat=True)) == {Booking.Status.APPROVED}

    sign_in(page, site, "mia@example.com", date_page, name="Mia Park")
    page.get_by_role("link", name="Pay for the series").click()
    expect(page.get_by_test_id("series-due").locator("tbody tr")).to_have_count(3)
    expect(page.get_by_test_id("series-total")).to_have_text("$60.00")
    pay_on_the_page(page, "$60.00")

    assert set(series.occurrences.values_list("status", flat=True)) == {Booking.Status.CONFIRMED}
    assert Payment.objects.filter(series=series, status=Payment.Status.SUCCEEDED).count() == 3
