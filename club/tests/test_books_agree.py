"""The books agree: for the same month, the dashboard, the reports, the ledger and its CSV show the
same net (payments by when they were paid, refunds by when they were made), on payments paid in one
month and refunded in the next, partial refunds, refunds of payments not kept and coupons; and a
payment's status says whether it was refunded, in part or in full, wherever it is shown."""

import csv
import io
import re
from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import User
from bookings.models import Booking
from bookings.tests.factories import lift_hour_limits, make_booking, tomorrow
from club.tests.test_reports import table
from courts.tests.factories import CourtFactory
from payments.models import Coupon
from payments.tests.helpers import paid, refunded

pytestmark = pytest.mark.django_db
SLOTS = [f"{hour:02d}:00-{hour + 1:02d}:00" for hour in range(8, 16)]


def on(month: int, day: int) -> datetime:
    return datetime(2026, month, day, 15, tzinfo=UTC)


@pytest.fixture
def books(people, monkeypatch):
    """Seen on 30 November 2026, slots at $5: in October, $20 paid (refunded in full in November),
    $30 paid (refunded $10 in October and $5 in November), $16 paid with SPRING20 (list price $20),
    $25 paid for a booking that could not be kept (refunded the same day), and $10 refunded of a
    payment made in September; in November, $40 paid with a refund that failed and one still on its
    way. October: $91 taken, $45 refunded, $46 net. November: $40 taken, $25 refunded, $15 net."""
    monkeypatch.setattr(timezone, "now", lambda: datetime(2026, 11, 30, 20, tzinfo=UTC))
    ada = User.objects.get(email="ada@example.com")
    court = CourtFactory(name="Centre", price=Decimal("5.00"), slots=SLOTS)
    lift_hour_limits()  # Ada holds several days' bookings at once, to pay them as the story goes

    def booking(day: int, slots: int):
        # Confirmed, as a paid booking is: a pending one would count against Ada's open bookings,
        # or not, by how long ago it was made.
        return make_booking(
            user=ada,
            court=court,
            date=tomorrow() + timedelta(days=day),
            slots=SLOTS[:slots],
            status=Booking.Status.CONFIRMED,
        )

    whole = paid(booking(0, 4), "20.00", on(10, 3))
    refunded(whole, "20.00", on(11, 4))
    part = paid(booking(1, 6), "30.00", on(10, 10))
    refunded(part, "10.00", on(10, 12))
    refunded(part, "5.00", on(11, 5))
    spring = Coupon.objects.create(code="SPRING20", discount=20)
    paid(booking(2, 4), "16.00", on(10, 15), coupon=spring, discount=20)
    refunded(paid(booking(3, 5), "25.00", on(10, 20), status="refunded"), "25.00", on(10, 20))
    refunded(paid(booking(4, 2), "10.00", on(9, 28)), "10.00", on(10, 1))
    later = paid(booking(5, 8), "40.00", on(11, 2))
    refunded(later, "7.00", None, status="failed")
    refunded(later, "3.00", None, status="pending")
    return {"whole": whole, "part": part}


def dashboard_net(client) -> tuple[str, str]:
    """The dashboard's net for this month and for last month's whole."""
    html = client.get("/dashboard").content.decode()
    this = re.search(r"Taken this month, net of refunds</dt>\s*<dd[^>]*>([^<]+)</dd>", html).group(1)
    return this, re.search(r"\(the whole month: ([^)]+)\)", html).group(1)


def reports_net(client) -> dict[str, str]:
    html = client.get("/dashboard/reports?date_from=2026-10-01&date_to=2026-11-30").content.decode()
    return {row[0]: row[3] for row in table(html, "revenue")[1:]}


def ledger_totals(client, query: str) -> dict[str, str]:
    html = client.get(f"/dashboard/ledger?{query}").content.decode()
    block = re.search(r'data-testid="ledger-totals".*?</dl>', html, re.S).group(0)
    return dict(re.findall(r"<dt[^>]*>([^<]+)</dt><dd[^>]*>([^<]+)</dd>", block))


def ledger_csv(client, query: str) -> list[dict[str, str]]:
    response = client.get(f"/dashboard/ledger.csv?{query}")
    return list(csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode())))


OCTOBER, NOVEMBER = "date_from=2026-10-01&date_to=2026-10-31", "date_from=2026-11-01&date_to=2026-11-30"


def test_the_dashboard_reports_ledger_and_csv_show_the_same_net_for_a_month(people, books):
    admin = people["admin"]

    assert dashboard_net(admin) == ("$15.00", "$46.00")
    assert reports_net(admin) == {"October 2026": "$46.00", "November 2026": "$15.00", "Total": "$61.00"}
    assert ledger_totals(admin, OCTOBER) == {
        "Payments": "4",
        "Gross": "$91.00",
        "Discounts": "$4.00",
        "Refunds": "$45.00",
        "Net": "$46.00",
    }
    assert ledger_totals(admin, NOVEMBER)["Net"] == "$15.00"
    for month, net in ((OCTOBER, Decimal("46.00")), (NOVEMBER, Decimal("15.00"))):
        assert sum(Decimal(row["Amount"]) for row in ledger_csv(admin, month)) == net


def statuses(html: str) -> list[tuple[str, str]]:
    """The (amount, status) of each row of a page's payments table."""
    return re.findall(
        r'data-label="(?:Amount|Charged)">\$([\d.,]+)</td>.*?data-label="Status"><span[^>]*>([^<]+)</span>',
        html,
        re.S,
    )


def test_a_payments_status_says_whether_it_was_refunded_in_part_or_in_full(people, books):
    User.objects.filter(email="ada@example.com").update(role=User.Role.MEMBER)
    every_month = "date_from=2026-09-01"
    shown = [
        ("20.00", "Refunded"),
        ("30.00", "Partially refunded"),
        ("16.00", "Succeeded"),
        ("25.00", "Refunded"),
        ("10.00", "Refunded"),
        ("40.00", "Succeeded"),
    ]

    assert sorted(statuses(people["owner"].get("/dashboard/payment-history").content.decode())) == sorted(
        shown
    )
    ledger = people["admin"].get(f"/dashboard/ledger?{every_month}").content.decode()
    assert sorted(statuses(ledger)) == sorted(shown)
    assert {(row["Amount"], row["Status"]) for row in ledger_csv(people["admin"], every_month)} >= {
        ("20.00", "Refunded"),
        ("-20.00", "Refunded"),
        ("30.00", "Partially refunded"),
    }
    receipt = people["owner"].get(f"/dashboard/payments/{books['whole'].pk}/receipt").content.decode()
    assert re.search(r"<dt[^>]*>Status</dt><dd><span[^>]*>Refunded</span>", receipt)


@pytest.mark.parametrize(
    ("status", "payments", "gross"),
    [("refunded", "3", "$55.00"), ("partially_refunded", "1", "$30.00"), ("succeeded", "2", "$56.00")],
)
def test_the_ledgers_status_filter_finds_payments_by_their_refunds(people, books, status, payments, gross):
    totals = ledger_totals(people["admin"], f"date_from=2026-09-01&status={status}")

    assert (totals["Payments"], totals["Gross"]) == (payments, gross)


def test_the_pages_showing_statuses_cost_the_same_queries_however_many_payments_and_refunds(people, books):
    User.objects.filter(email="ada@example.com").update(role=User.Role.MEMBER)
    pages = [
        (people["owner"], "/dashboard/payment-history"),
        (people["owner"], f"/dashboard/payments/{books['part'].pk}/receipt"),
        (people["admin"], "/dashboard/ledger?date_from=2026-09-01"),
        (people["admin"], "/dashboard/ledger?date_from=2026-09-01&status=partially_refunded"),
    ]

    def queries() -> list[int]:
        counts = []
        for client, url in pages:
            with CaptureQueriesContext(connection) as captured:
                assert client.get(url).status_code == 200
            counts.append(len(captured))
        return counts

    few = queries()
    ada = User.objects.get(email="ada@example.com")
    for day in range(1, 6):
        booking = make_booking(user=ada, status=Booking.Status.CONFIRMED)
        payment = paid(booking, "20.00", on(10, day))
        refunded(payment, "5.00", on(10, day + 1))
        refunded(books["part"], "1.00", on(11, day))

    assert queries() == few
