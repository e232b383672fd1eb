import re
import threading
from contextlib import contextmanager
from datetime import timedelta
from decimal import Decimal

import pytest
from django.db import transaction
from django.db.models.signals import post_save
from django.utils import timezone
from playwright.sync_api import Page, expect

from accounts.models import User
from bookings.models import Booking
from bookings.tests.factories import make_booking
from courts.tests.factories import CourtFactory
from e2e.journeys import register, sign_in
from payments.models import Coupon, Payment
from payments.services import payment_intent_create

pytestmark = pytest.mark.browser


@contextmanager
def booking_confirmed():
    """An event set once a booking confirmed by the live server (in a thread of this process) has
    committed, with all the transaction that confirmed it."""
    confirmed = threading.Event()

    def saved(sender, instance: Booking, **kwargs) -> None:
        if instance.status == Booking.Status.CONFIRMED:
            transaction.on_commit(confirmed.set)

    post_save.connect(saved, sender=Booking, weak=False)
    try:
        yield confirmed
    finally:
        post_save.disconnect(saved, sender=Booking)


def fill_card(page: Page, number: str) -> None:
    """localstripe's fake card input: number, month, two-digit year, CVC."""
    fields = page.get_by_role("group", name="Card").locator("input")
    for index, value in enumerate([number, "12", "34", "123"]):
        fields.nth(index).fill(value)


def test_register_book_get_approved_pay_with_a_coupon_and_become_a_member(
    site: str, page: Page, new_context, localstripe
):
    CourtFactory(
        name="Centre Court", type="Tennis", price=Decimal("20.00"), slots=["08:00-09:00", "09:00-10:00"]
    )
    Coupon.objects.create(code="WELCOME20", discount=20)
    User.objects.create_user("ann@example.com", role=User.Role.ADMIN)

    register(page, site, "Ada Lovelace", "ada@example.com")
    expect(page).to_have_url(site + "/")

    page.goto(site + "/courts")
    page.get_by_role("button", name="Book Now").click()
    modal = page.get_by_role("dialog", name="Booking: Centre Court (Tennis)")
    modal.get_by_label("Date").fill((timezone.localdate() + timedelta(days=1)).isoformat())
    modal.get_by_label("08:00-09:00").check()
    modal.get_by_label("09:00-10:00").check()
    modal.get_by_role("button", name="Submit Booking").click()
    expect(page.locator("[data-rht-toaster]")).to_contain_text("Booking request sent.")

    admin = new_context().new_page()
    sign_in(admin, site, "ann@example.com", "/dashboard/manage-bookings-approval")
    admin.get_by_role("button", name="Approve").click()
    expect(admin.get_by_text("No pending bookings available.")).to_be_visible(timeout=10_000)

    page.goto(site + "/dashboard/approved-bookings")
    page.get_by_role("link", name="Pay").click()
    expect(page.get_by_role("heading", name="Pay for: Centre Court")).to_be_visible()
    expect(page.get_by_role("button", name="Pay $40.00")).to_be_enabled()
    page.get_by_label("Coupon code").fill("welcome20")
    page.get_by_role("button", name="Apply").click()
    expect(page.get_by_text("WELCOME20: 20% off. New total $32.00.")).to_be_visible()
    pay = page.get_by_role("button", name="Pay $32.00")
    expect(pay).to_be_enabled()
    fill_card(page, "4242424242424242")
    pay.click()

    expect(page.locator("[data-rht-toaster]")).to_contain_text("🎉 Payment successful!")
    expect(page).to_have_url(site + "/dashboard/confirmed-bookings")
    expect(page.get_by_role("row", name=re.compile("Centre Court"))).to_contain_text("Confirmed")
    page.goto(site + "/dashboard")
    expect(page.get_by_text("Became member on")).to_be_visible()
    page.goto(site + "/dashboard/payment-history")
    expect(page.get_by_role("row", name=re.compile(r"\$32\.00"))).to_contain_text("Succeeded")
    # The intent for the full price, made before the coupon, was cancelled when the coupon came.
    assert list(Payment.objects.order_by("id").values_list("amount", "status")) == [
        (Decimal("40.00"), "cancelled"),
        (Decimal("32.00"), "succeeded"),
    ]
    assert Payment.objects.get(status="succeeded").coupon.code == "WELCOME20"

    admin.goto(site + "/dashboard/manage-members")
    expect(admin.get_by_role("row", name=re.compile("ada@example.com"))).to_be_visible()


def pay_with_a_declined_card(site: str, page: Page) -> Booking:
    """Ada's approved $20 booking, and her payment of it refused: the card was declined."""
    ada = User.objects.create_user("ada@example.com")
    booking = make_booking(user=ada, court=CourtFactory(price=Decimal("20")), status=Booking.Status.APPROVED)
    sign_in(page, site, "ada@example.com", f"/dashboard/payment-page/{booking.pk}")
    pay = page.get_by_role("button", name="Pay $20.00")
    expect(pay).to_be_enabled()
    fill_card(page, "4000000000000341")
    pay.click()
    expect(page.get_by_role("alert")).to_have_text("Your card was declined.")
    return booking


def test_a_declined_card_shows_the_card_error_and_the_booking_stays_approved(
    site: str, page: Page, localstripe
):
    booking = pay_with_a_declined_card(site, page)

    expect(page).to_have_url(site + f"/dashboard/payment-page/{booking.pk}")
    booking.refresh_from_db()
    assert booking.status == Booking.Status.APPROVED


def test_after_a_declined_card_another_card_pays_even_after_a_reload(site: str, page: Page, localstripe):
    booking = pay_with_a_declined_card(site, page)
    page.reload()
    pay = page.get_by_role("button", name="Pay $20.00")
    expect(pay).to_be_enabled()

    fill_card(page, "4000000000009995")
    pay.click()
    expect(page.get_by_role("alert")).to_have_text("Your card has insufficient funds.")
    fill_card(page, "4242424242424242")
    pay.click()

    expect(page.locator("[data-rht-toaster]")).to_contain_text("🎉 Payment successful!")
    expect(page).to_have_url(site + "/dashboard/confirmed-bookings")
    booking.refresh_from_db()
    assert booking.status == Booking.Status.CONFIRMED


def test_a_card_that_asks_for_3d_secure_pays_once_the_person_completes_it(site: str, page: Page, localstripe):
    ada = User.objects.create_user("ada@example.com")
    make_booking(user=ada, court=CourtFactory(price=Decimal("20")), status=Booking.Status.APPROVED)
    sign_in(page, site, "ada@example.com", f"/dashboard/payment-page/{Booking.objects.get().pk}")
    pay = page.get_by_role("button", name="Pay $20.00")
    expect(pay).to_be_enabled()
    fill_card(page, "4000002500003155")
    pay.click()

    authentication = page.get_by_role("dialog", name="3D Secure test payment")
    expect(authentication.get_by_role("button", name="Complete authentication")).to_be_focused()
    authentication.get_by_role("button", name="Complete authentication").click()

    expect(page.locator("[data-rht-toaster]")).to_contain_text("🎉 Payment successful!")
    assert Payment.objects.get().status == Payment.Status.SUCCEEDED


@pytest.mark.parametrize("width", [1366, 390])
def test_the_card_fields_fit_the_form(site: str, page: Page, localstripe, width):
    page.set_viewport_size({"width": width, "height": 900})
    ada = User.objects.create_user("ada@example.com")
    booking = make_booking(user=ada, court=CourtFactory(price=Decimal("20")), status=Booking.Status.APPROVED)
    sign_in(page, site, "ada@example.com", f"/dashboard/payment-page/{booking.pk}")
    card = page.get_by_role("group", name="Card")
    expect(card.locator("input:visible")).to_have_count(4)  # no postcode, as Stripe's is set up

    form = card.bounding_box()
    for field in card.locator("input:visible").all():
        box = field.bounding_box()
        assert form["x"] <= box["x"], field
        assert box["x"] + box["width"] <= form["x"] + form["width"], field
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def test_the_card_error_goes_when_a_coupon_changes_the_amount(site: str, page: Page, localstripe):
    Coupon.objects.create(code="SPRING25", discount=25)
    pay_with_a_declined_card(site, page)

    page.get_by_label("Coupon code").fill("spring25")
    page.get_by_role("button", name="Apply").click()

    expect(page.get_by_role("button", name="Pay $15.00")).to_be_enabled()
    expect(page.get_by_role("alert")).to_have_count(0)


def test_a_payment_whose_coupon_was_withdrawn_meanwhile_is_refunded_and_the_person_told_why(
    site: str, page: Page, localstripe
):
    ada = User.objects.create_user("ada@example.com")
    booking = make_booking(user=ada, court=CourtFactory(price=Decimal("20")), status=Booking.Status.APPROVED)
    Coupon.objects.create(code="SPRING25", discount=25)
    sign_in(page, site, "ada@example.com", f"/dashboard/payment-page/{booking.pk}")
    page.get_by_label("Coupon code").fill("spring25")
    page.get_by_role("button", name="Apply").click()
    pay = page.get_by_role("button", name="Pay $15.00")
    expect(pay).to_be_enabled()

    # Withdrawn without its open intents being cancelled (as when that fails): the confirmation checks.
    Coupon.objects.filter(code="SPRING25").update(is_active=False)
    fill_card(page, "4242424242424242")
    pay.click()

    expect(page.locator("[data-rht-toaster]")).to_contain_text(
        "There is no coupon SPRING25 on offer now. Your payment has been refunded"
    )
    booking.refresh_from_db()
    assert booking.status == Booking.Status.APPROVED
    assert Payment.objects.get(status="refunded").refund_reason.startswith("There is no coupon SPRING25")


@pytest.mark.django_db(transaction=True)
def test_the_webhook_alone_confirms_a_paid_booking(live_site: str, localstripe):
    localstripe.register_webhook(f"{live_site}/api/stripe/webhook")
    ada = User.objects.create_user("ada@example.com")
    booking = make_booking(user=ada, court=CourtFactory(price=Decimal("20")), status=Booking.Status.APPROVED)
    secret = payment_intent_create(user=ada, booking=booking)

    with booking_confirmed() as confirmed:
        localstripe.pay(secret)  # nobody calls save-payment: only Stripe's event can confirm it
        confirmed.wait(timeout=15)  # localstripe sends its events a second after they happen

    assert Booking.objects.get(pk=booking.pk).status == Booking.Status.CONFIRMED
    assert Payment.objects.get().status == Payment.Status.SUCCEEDED
    assert User.objects.get(pk=ada.pk).role == User.Role.MEMBER
