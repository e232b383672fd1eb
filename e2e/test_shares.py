"""Paying together in a browser: a doubles booking with two members and a guest shows the guest
fee; with shared payment each member pays their own share with their own card, and the booking
is confirmed once both have."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from accounts.models import User
from bookings.models import Booking
from bookings.selectors import policy_get
from bookings.services import policy_update
from bookings.tests.factories import make_booking
from courts.tests.factories import CourtFactory
from e2e.journeys import requests_under_way, sign_in, wait_until_settled
from e2e.test_payments import fill_card
from payments.models import Payment

pytestmark = pytest.mark.browser


def doubles_with_a_guest(page: Page, site: str) -> Booking:
    """Ada books the clay court, approved, and puts Mia and a guest on it in the browser."""
    ada = User.objects.create_user("ada@example.com", name="Ada Lovelace", role=User.Role.MEMBER)
    User.objects.create_user("mia@example.com", name="Mia Park", role=User.Role.MEMBER)
    court = CourtFactory(name="Clay Court", price=Decimal("20.00"), places=4)
    date = timezone.localdate() + timedelta(days=5)
    booking = make_booking(user=ada, court=court, date=date, status=Booking.Status.APPROVED)

    sign_in(page, site, "ada@example.com", f"/dashboard/bookings/{booking.pk}", name="Ada Lovelace")
    page.get_by_label("Add a person of the club").fill("mia")
    page.get_by_role("button", name="Add Mia Park").click()
    page.get_by_label("Add a guest").fill("Sam Guest")
    page.get_by_role("button", name="Add guest").click()
    expect(page.get_by_test_id("players")).to_contain_text("Sam Guest")
    if policy_get().guest_fee:  # the island says the new price at once
        expect(page.get_by_text("The booking costs $25.00, its guests' fees included.")).to_be_visible()
    page.reload()
    return booking


def pay_on_the_page(page: Page, amount: str) -> None:
    under_way = requests_under_way(page)
    pay = page.get_by_role("button", name=f"Pay {amount}")
    expect(pay).to_be_enabled()
    fill_card(page, "4242424242424242")
    pay.click()
    expect(page.locator("[data-rht-toaster]")).to_contain_text("Payment successful!")
    wait_until_settled(page, under_way)


def test_doubles_with_two_members_and_a_guest_shows_the_guest_fee(site: str, page: Page):
    policy_update(guest_fee=Decimal("5.00"))

    booking = doubles_with_a_guest(page, site)

    expect(page.get_by_text("Each guest adds the club's $5.00 guest fee.")).to_be_visible()
    expect(page.get_by_text("$25.00", exact=True)).to_be_visible()  # the price, with the guest's fee
    shares = page.get_by_role("table", name="Who pays what")
    expect(shares.get_by_role("row", name="Sam Guest (guest)")).to_contain_text("$0.00")
    expect(shares.get_by_role("row", name="Ada Lovelace $25.00")).to_contain_text("guest fee $5.00")
    page.get_by_role("link", name="Pay", exact=True).click()
    expect(page.get_by_role("button", name="Pay $25.00")).to_be_visible()
    assert Booking.objects.get(pk=booking.pk).price == Decimal("25.00")


def test_two_players_each_pay_their_share_and_the_booking_is_confirmed(
    site: str, page: Page, new_context, localstripe
):
    policy_update(price_sharing="shared", guest_fee=Decimal("5.00"))
    booking = doubles_with_a_guest(page, site)

    # Ada pays her third and the guest's ($6.67 + $6.67 + the $5.00 fee).
    page.get_by_role("link", name="Pay", exact=True).click()
    expect(page.get_by_test_id("your-share")).to_contain_text("$18.34")
    pay_on_the_page(page, "$18.34")
    expect(page).to_have_url(f"{site}/dashboard/bookings/{booking.pk}")
    expect(
        page.get_by_role("table", name="Who pays what").get_by_role("row", name="Mia Park")
    ).to_contain_text("Not yet")
    assert Booking.objects.get(pk=booking.pk).status == Booking.Status.APPROVED

    mias = new_context().new_page()
    sign_in(mias, site, "mia@example.com", f"/dashboard/bookings/{booking.pk}", name="Mia Park")
    mias.get_by_role("link", name="Pay your share").click()
    pay_on_the_page(mias, "$6.67")

    expect(mias.get_by_text("Confirmed").first).to_be_visible()
    assert Booking.objects.get(pk=booking.pk).status == Booking.Status.CONFIRMED
    assert sorted(Payment.objects.values_list("user__email", "amount")) == [
        ("ada@example.com", Decimal("18.34")),
        ("mia@example.com", Decimal("6.67")),
    ]
