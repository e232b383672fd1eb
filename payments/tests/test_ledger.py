"""The ledger: the payments that took money and the refunds made, filtered, with the totals of the
filtered set (gross, discounts, refunds, net) against hand-computed figures, paginated, and its CSV
streamed."""

import csv
import io
import re
from datetime import UTC, datetime
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import User
from bookings.models import Booking
from bookings.tests.factories import lift_hour_limits, make_booking
from courts.tests.factories import CourtFactory
from payments.models import Coupon, Payment
from payments.tests.helpers import paid as paid_at
from payments.tests.helpers import refunded

pytestmark = pytest.mark.django_db


def october(day: int) -> datetime:
    return datetime(2026, 10, day, 15, tzinfo=UTC)


def paid(booking: Booking, amount: str, day: int, *, status="succeeded", coupon=None, discount=0) -> Payment:
    """A payment made on a day of October 2026."""
    return paid_at(booking, amount, october(day), status, coupon=coupon, discount=discount)


@pytest.fixture
def books(people):
    """Three payments in October: $20 at Centre by Ada on the 3rd (refunded $5 on the 5th, and a
    failed $3), $16 at Centre by Bob with SPRING20 off $20 on the 10th, $30 at Side by Ada on the
    20th refunded in full the same day (not kept). And one intent never paid, which the ledger
    leaves out."""
    ada = User.objects.get(email="ada@example.com")
    bob = User.objects.get(email="bob@example.com")
    centre = CourtFactory(name="Centre", price=Decimal("20.00"), slots=["08:00-09:00", "09:00-10:00"])
    side = CourtFactory(name="Side", price=Decimal("30.00"), slots=["08:00-09:00"])
    spring = Coupon.objects.create(code="SPRING20", discount=20)
    first = paid(make_booking(user=ada, court=centre, slots=["08:00-09:00"]), "20.00", 3)
    refunded(first, "5.00", october(5))
    refunded(first, "3.00", None, status="failed")
    paid(make_booking(user=bob, court=centre, slots=["09:00-10:00"]), "16.00", 10, coupon=spring, discount=20)
    lost = paid(make_booking(user=ada, court=side), "30.00", 20, status="refunded")
    refunded(lost, "30.00", october(20))
    Payment.objects.create(
        booking=lost.booking,
        user=ada,
        amount=Decimal("30.00"),
        currency="usd",
        status="cancelled",
    )
    return {"centre": centre, "side": side, "spring": spring}


def totals(client, query: str = "") -> dict[str, str]:
    """The totals shown for the filters `query`, from 1 October 2026 unless it gives days."""
    if "date_" not in query:
        query = (query or "?") + ("&" if query else "") + "date_from=2026-10-01"
    html = client.get(f"/dashboard/ledger{query}").content.decode()
    block = re.search(r'data-testid="ledger-totals".*?</dl>', html, re.S).group(0)
    return dict(re.findall(r"<dt[^>]*>([^<]+)</dt><dd[^>]*>([^<]+)</dd>", block))


def test_the_totals_are_those_of_the_filtered_set(people, books):
    assert totals(people["admin"]) == {
        "Payments": "3",
        "Gross": "$66.00",  # 20 + 16 + 30
        "Discounts": "$4.00",  # SPRING20 on $20
        "Refunds": "$35.00",  # 5 + 30; the failed 3 was not made
        "Net": "$31.00",
    }
    assert totals(people["admin"], f"?court={books['centre'].pk}")["Net"] == "$31.00"  # 20 - 5 + 16
    assert totals(people["admin"], f"?coupon={books['spring'].pk}")["Gross"] == "$16.00"
    assert totals(people["admin"], "?email=ada")["Refunds"] == "$35.00"
    assert totals(people["admin"], "?status=refunded")["Payments"] == "1"
    assert totals(people["admin"], "?date_from=2026-10-04&date_to=2026-10-19")["Gross"] == "$16.00"


def test_without_days_the_ledger_is_this_months_and_an_emptied_day_is_every_month(people, books, monkeypatch):
    monkeypatch.setattr(timezone, "now", lambda: datetime(2026, 11, 15, 12, tzinfo=UTC))

    page = people["admin"].get("/dashboard/ledger").content.decode()

    assert 'name="date_from" value="2026-11-01"' in page
    assert "No payments or refunds found." in page  # November has none yet
    assert "$66.00" in people["admin"].get("/dashboard/ledger?date_from=").content.decode()


def test_a_malformed_filter_is_said_under_its_field_and_filters_nothing(people, books):
    response = people["admin"].get("/dashboard/ledger?date_from=2026-10-20&date_to=2026-10-01")

    assert response.status_code == 200
    assert "The last day comes on or after the first" in response.content.decode()
    assert totals(people["admin"], "?date_from=2026-10-20&date_to=2026-10-01")["Payments"] == "3"


@pytest.mark.parametrize("query", ["date_to=9999-12-31", "date_from=0001-01-01"])
def test_a_day_at_the_calendars_ends_is_said_under_its_field_on_the_page_and_refused_by_the_csv(
    people, books, query
):
    page = people["admin"].get(f"/dashboard/ledger?{query}")
    csv_file = people["admin"].get(f"/dashboard/ledger.csv?{query}")

    assert page.status_code == 200
    assert "Choose a day from 1900 to 2999." in page.content.decode()
    assert (csv_file.status_code, csv_file["Content-Type"]) == (400, "text/plain; charset=utf-8")
    assert "Choose a day from 1900 to 2999." in csv_file.content.decode()


@pytest.mark.parametrize(
    ("kind", "lands_on"),
    [("anonymous", "/login?next=/dashboard/ledger"), ("owner", "/forbidden"), ("member", "/forbidden")],
)
def test_only_admins_read_the_ledger_and_its_csv(people, books, kind, lands_on):
    assert people[kind].get("/dashboard/ledger")["Location"] == lands_on
    assert people[kind].get("/dashboard/ledger.csv").status_code == 302


def test_the_csv_streams_the_filtered_set_with_its_figures(people, books):
    response = people["admin"].get(f"/dashboard/ledger.csv?court={books['centre'].pk}&date_from=")

    assert response.streaming
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    rows = list(csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode())))
    assert [
        (r["Entry"], r["Person"], r["Amount"], r["Coupon"], r["Discount"], r["Status"]) for r in rows
    ] == [
        ("Payment", "bob@example.com", "16.00", "SPRING20", "4.00", "Succeeded"),
        ("Refund", "ada@example.com", "-5.00", "", "", "Partially refunded"),
        ("Payment", "ada@example.com", "20.00", "", "0.00", "Partially refunded"),
    ]


def test_the_page_names_each_person_beside_their_e_mail_and_each_bookings_slot_ranges(people, books):
    User.objects.filter(email="bob@example.com").update(name="Bob Builder")

    html = people["admin"].get("/dashboard/ledger?date_from=2026-10-01").content.decode()

    people_shown = [
        re.sub(r"<[^>]+>", " ", cell.replace("<wbr>", "")).split()  # as read: <wbr> only lets it break
        for cell in re.findall(r'<td data-label="Person">(.*?)</td>', html)
    ]
    assert ["Bob", "Builder", "bob@example.com"] in people_shown
    assert '<span style="white-space:nowrap">09:00–10:00</span>' in html


def test_the_csv_writes_a_bookings_slots_as_the_ranges_people_read(people):
    court = CourtFactory(name="Long", slots=["08:00-09:00", "09:00-10:00", "11:00-12:00"])
    lift_hour_limits()
    paid(make_booking(court=court, slots=court.slots), "60.00", 3)

    body = b"".join(people["admin"].get("/dashboard/ledger.csv?date_from=").streaming_content).decode()

    [row] = csv.DictReader(io.StringIO(body))
    assert row["Slots"] == "08:00–10:00, 11:00–12:00"


def test_a_value_that_looks_like_a_formula_is_written_as_text(people, books):
    User.objects.filter(email="ada@example.com").update(email="=cmd@example.com")

    body = b"".join(people["admin"].get("/dashboard/ledger.csv?date_from=").streaming_content).decode()

    assert "'=cmd@example.com" in body


FORMULA_START = ("=", "+", "-", "@")


def test_a_formula_after_a_separator_inside_a_value_is_written_as_text(people, books):
    """A spreadsheet that splits on ";" (or "," or a tab) reads each part of a value as a cell of
    its own: none of them starts a formula."""
    Booking.objects.filter(court=books["centre"]).update(court_name="x;=3+3;y,+1, @SUM(A1)\t-2")
    Coupon.objects.filter(pk=books["spring"].pk).update(code="SPRING;=HYPERLINK(1)")

    body = b"".join(people["admin"].get("/dashboard/ledger.csv?date_from=").streaming_content).decode()

    rows = list(csv.DictReader(io.StringIO(body)))
    assert {row["Court"] for row in rows} >= {"x;'=3+3;y,'+1,' @SUM(A1)\t'-2"}
    assert {row["Coupon"] for row in rows} >= {"SPRING;'=HYPERLINK(1)"}
    parts = re.split(r"[;,\t\r\n]", body)
    # A refund's amount is a number below zero, which a spreadsheet reads as the number it is.
    formulas = [
        p for p in parts if p.lstrip().startswith(FORMULA_START) and not re.fullmatch(r"-\d+\.\d\d", p)
    ]
    assert formulas == []


def test_the_page_costs_the_same_queries_however_many_payments(people, books):
    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert people["admin"].get("/dashboard/ledger").status_code == 200
        return len(captured)

    few = queries()
    court = CourtFactory(slots=[f"{h:02d}:00-{h + 1:02d}:00" for h in range(8, 20)])
    for slot in court.slots:
        paid(make_booking(court=court, slots=[slot]), "20.00", 25)

    assert queries() == few
