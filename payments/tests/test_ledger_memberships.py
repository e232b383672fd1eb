"""Memberships in the ledger: their payments and refunds beside the bookings', named by plan and
period, kept or left out by the kind filter, totalled by kind, and written to the CSV with their plan
and period where a booking's columns are."""

import csv
import io
import re
from datetime import UTC, datetime
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from bookings.tests.factories import make_booking
from courts.tests.factories import CourtFactory
from memberships.tests.factories import make_membership, make_plan
from payments.tests.helpers import paid, paid_period, refunded

pytestmark = pytest.mark.django_db


def october(day: int) -> datetime:
    return datetime(2026, 10, day, 15, tzinfo=UTC)


@pytest.fixture
def books(people, settings):
    """In October 2026 (a club in UTC): Ada pays $20 for a booking at Centre on the 3rd; Bob pays
    $30 for a month of the Club plan on the 5th, $10 of it refunded on the 8th; Mia's Premium year
    renews for $480 on the 12th."""
    settings.TIME_ZONE = "UTC"
    ada, bob, mia = (User.objects.get(email=f"{name}@example.com") for name in ("ada", "bob", "mia"))
    centre = CourtFactory(name="Centre", price=Decimal("20.00"), slots=["08:00-09:00"])
    booking = make_booking(user=ada, court=centre)
    paid(booking, "20.00", october(3))
    club = make_plan(name="Club", period="monthly", price=Decimal("30.00"))
    premium = make_plan(name="Premium", price=Decimal("480.00"))
    refunded(paid_period(make_membership(user=bob, plan=club), "30.00", october(5)), "10.00", october(8))
    paid_period(make_membership(user=mia, plan=premium), "480.00", october(12))
    return {"booking": booking, "club": club}


def page(client, query: str = "") -> str:
    return client.get(f"/dashboard/ledger?date_from=2026-10-01{query}").content.decode()


def totals(html: str) -> dict[str, str]:
    block = re.search(r'data-testid="ledger-totals".*?</dl>', html, re.S).group(0)
    return dict(re.findall(r"<dt[^>]*>([^<]+)</dt><dd[^>]*>([^<]+)</dd>", block))


def kind_totals(html: str) -> dict[str, str]:
    """Each kind's totals, as read, when the page shows them apart."""
    found = re.search(r'data-testid="ledger-kind-totals".*?</dl>', html, re.S)
    return dict(re.findall(r"<dt[^>]*>([^<]+)</dt><dd>([^<]+)</dd>", found.group(0))) if found else {}


def csv_rows(client, query: str) -> list[dict[str, str]]:
    response = client.get(f"/dashboard/ledger.csv?date_from=2026-10-01{query}")
    return list(csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode())))


def test_the_ledger_holds_membership_payments_and_refunds_beside_the_bookings(people, books):
    assert totals(page(people["admin"])) == {
        "Payments": "3",
        "Gross": "$530.00",  # 20 + 30 + 480
        "Discounts": "$0.00",
        "Refunds": "$10.00",
        "Net": "$520.00",
    }


@pytest.mark.parametrize(
    ("kind", "shown"),
    [
        ("booking", {"Payments": "1", "Gross": "$20.00", "Refunds": "$0.00", "Net": "$20.00"}),
        ("membership", {"Payments": "2", "Gross": "$510.00", "Refunds": "$10.00", "Net": "$500.00"}),
    ],
)
def test_the_kind_filter_keeps_the_payments_of_that_kind_and_their_refunds(people, books, kind, shown):
    html = page(people["admin"], f"&kind={kind}")

    assert totals(html).items() >= shown.items()
    assert kind_totals(html) == {}  # one kind: its totals are the page's


def test_each_kind_s_totals_are_shown_apart_when_money_moved_for_both(people, books):
    assert kind_totals(page(people["admin"])) == {
        "Bookings": "1 payment · gross $20.00 · refunds $0.00 · net $20.00",
        "Memberships": "2 payments · gross $510.00 · refunds $10.00 · net $500.00",
    }


def test_days_with_one_kind_s_money_show_no_totals_apart(people, books):
    """A club that sells no memberships reads its ledger as before."""
    assert kind_totals(page(people["admin"], "&date_to=2026-10-04")) == {}  # Ada's booking alone


def test_a_membership_s_entries_name_its_plan_and_period(people, books):
    html = page(people["admin"], "&kind=membership")

    what = [
        " ".join(re.sub(r"<[^>]+>", " ", cell).split())
        for cell in re.findall(r'<td data-label="For">(.*?)</td>', html, re.S)
    ]
    assert what == [
        "Premium membership October 12, 2026 – October 12, 2027",
        "Club membership October 5, 2026 – November 5, 2026",  # the refund
        "Club membership October 5, 2026 – November 5, 2026",
    ]
    assert "Refund of the payment of October 5, 2026" in html


def test_a_malformed_kind_is_said_under_its_field_and_refused_by_the_csv(people, books):
    html = page(people["admin"], "&kind=coupons")
    csv_file = people["admin"].get("/dashboard/ledger.csv?kind=coupons")

    assert "Select a valid choice. coupons is not one of the available choices." in html
    assert totals(html)["Payments"] == "3"
    assert csv_file.status_code == 400
    assert "Kind: Select a valid choice." in csv_file.content.decode()


def test_the_csv_writes_each_entry_s_kind_and_a_membership_s_plan_and_period(people, books):
    rows = csv_rows(people["admin"], "")
    booking = books["booking"]

    columns = ("Entry", "Kind", "Court", "Date", "Slots", "Plan", "Period from", "Period to", "Amount")
    assert [tuple(row[column] for column in columns) for row in rows] == [
        (
            "Payment",
            "Membership",
            "",
            "",
            "",
            "Premium",
            "2026-10-12T15:00:00+00:00",
            "2027-10-12T15:00:00+00:00",
            "480.00",
        ),
        (
            "Refund",
            "Membership",
            "",
            "",
            "",
            "Club",
            "2026-10-05T15:00:00+00:00",
            "2026-11-05T15:00:00+00:00",
            "-10.00",
        ),
        (
            "Payment",
            "Membership",
            "",
            "",
            "",
            "Club",
            "2026-10-05T15:00:00+00:00",
            "2026-11-05T15:00:00+00:00",
            "30.00",
        ),
        ("Payment", "Booking", "Centre", f"{booking.date:%Y-%m-%d}", "08:00–09:00", "", "", "", "20.00"),
    ]
    club = rows[2]
    assert (club["Booking"], club["Membership"]) == ("", str(books["club"].memberships.get().pk))
    assert (club["List price"], club["Discount"], club["Coupon"]) == ("30.00", "", "")
    assert club["Stripe invoice"].startswith("in_")
    assert (rows[3]["Booking"], rows[3]["Membership"]) == (str(books["booking"].pk), "")


def test_the_csv_keeps_the_kind_asked_for(people, books):
    assert [row["Kind"] for row in csv_rows(people["admin"], "&kind=booking")] == ["Booking"]
    assert {row["Kind"] for row in csv_rows(people["admin"], "&kind=membership")} == {"Membership"}


@pytest.mark.parametrize(
    ("kind", "lands_on"),
    [
        ("anonymous", "/login?next=/dashboard/ledger%3Fkind%3Dmembership"),
        ("owner", "/forbidden"),
        ("other", "/forbidden"),
        ("member", "/forbidden"),
    ],
)
def test_only_admins_read_the_memberships_in_the_ledger(people, books, kind, lands_on):
    assert people[kind].get("/dashboard/ledger?kind=membership")["Location"] == lands_on
    assert people[kind].get("/dashboard/ledger.csv?kind=membership").status_code == 302
    assert "Club membership" in page(people["admin"], "&kind=membership")


def test_the_page_costs_the_same_queries_however_many_memberships_paid(people, books):
    def queries(query: str) -> int:
        with CaptureQueriesContext(connection) as captured:
            assert people["admin"].get(f"/dashboard/ledger?date_from=2026-10-01{query}").status_code == 200
        return len(captured)

    few = {query: queries(query) for query in ("", "&kind=membership")}
    for index in range(5):
        holder = User.objects.create_user(f"holder{index}@example.com")
        refunded(
            paid_period(make_membership(user=holder, plan=books["club"]), "30.00", october(20)),
            "5.00",
            october(21),
        )

    assert {query: queries(query) for query in few} == few
