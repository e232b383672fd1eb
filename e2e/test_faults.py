"""Faults: the database, the identity provider or the payment provider fails while the site runs.

Pages and API calls answer a clear 503 (a page with the message, and a toast; `{"detail": ...}`
for the API), nothing is half-written, and the same app process works again once the part is
back. The site, its parts and how they are stopped: testing/outage.py.
"""

import html
import time
from datetime import timedelta
from decimal import Decimal

import httpx
import pytest
from django.db import connection
from django.utils import timezone
from playwright.sync_api import Page, expect

from accounts.models import User
from bookings.models import Booking
from bookings.tests.factories import make_booking
from courts.tests.factories import CourtFactory
from kernel.pages import DATABASE_UNAVAILABLE
from memberships.models import Membership
from memberships.tests.factories import make_plan
from payments.membership_payments import memberships_reconcile
from payments.models import Payment
from payments.services import payments_reconcile
from scripts import local_stack
from testing import emulator, outage, stripe_stand_in

pytestmark = pytest.mark.browser

SIGN_IN_UNAVAILABLE = "Sign-in cannot be checked right now. Please try again in a minute."
PAYMENTS_UNAVAILABLE = "The payment service is not answering."


@pytest.fixture(scope="module")
def _club(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        database = dict(connection.settings_dict)  # the test database, by now
    club = outage.Site(database)
    try:
        club.start()
        yield club
    finally:
        club.stop()


@pytest.fixture
def club(_club, transactional_db, monkeypatch, settings):
    """The site with every part up, and no accounts in its emulator."""
    _club.restore()
    # testing.emulator's helpers speak to the site's own emulator.
    monkeypatch.setenv("FIREBASE_AUTH_EMULATOR_HOST", _club.emulator_host)
    settings.FIREBASE_PROJECT_ID = outage.PROJECT_ID
    emulator.clear_accounts()
    return _club


def browser_client(club: outage.Site) -> httpx.Client:
    """A client that keeps cookies and sends the CSRF token, as the site's own pages do."""
    client = httpx.Client(base_url=club.url, timeout=20)
    client.get("/login")
    client.headers["X-CSRFToken"] = client.cookies["csrftoken"]
    return client


def signed_in(club: outage.Site, email: str) -> httpx.Client:
    client = browser_client(club)
    response = client.post("/api/session", json={"idToken": emulator.sign_up(email)["idToken"]})
    assert response.status_code == 200, response.text
    client.headers["X-CSRFToken"] = client.cookies["csrftoken"]  # rotated at sign-in
    return client


def page_text(response: httpx.Response) -> str:
    return html.unescape(response.text)


def test_the_database_stops_and_comes_back(club):
    court = CourtFactory(slots=["08:00-09:00", "09:00-10:00"])
    ada = signed_in(club, "ada@example.com")
    booking_request = {"courtId": court.pk, "date": str(timezone.localdate() + timedelta(days=2))}
    app = club.app.pid
    assert ada.get("/api/courts").status_code == 200

    club.database.stop()

    page = ada.get("/courts")
    assert page.status_code == 503
    assert DATABASE_UNAVAILABLE in page_text(page)
    for response in (
        ada.get("/api/courts"),
        ada.post("/api/bookings", json={**booking_request, "slots": ["08:00-09:00"]}),
    ):
        assert response.status_code == 503
        assert response.json() == {"detail": DATABASE_UNAVAILABLE}
    health = ada.get("/healthz")
    assert health.status_code == 503
    assert health.json()["checks"]["database"]["ok"] is False
    assert not Booking.objects.exists()

    club.database.start()

    assert ada.get("/courts").status_code == 200
    assert ada.get("/healthz").status_code == 200
    booked = ada.post("/api/bookings", json={**booking_request, "slots": ["08:00-09:00"]})
    assert booked.status_code == 201, booked.text
    assert Booking.objects.get().slots == ["08:00-09:00"]
    assert club.app.pid == app


def test_the_identity_provider_stops_and_comes_back(club):
    ada = signed_in(club, "ada@example.com")
    bob_token = emulator.sign_up("bob@example.com")["idToken"]
    bob = browser_client(club)
    app = club.app.pid
    assert ada.get("/dashboard").status_code == 200

    club.identity.pause()

    # Pages and reads stand on the verified session cookie; sign-in and payments need the provider.
    page = ada.get("/dashboard")
    assert page.status_code == 200
    assert "We can't check your sign-in right now" not in page_text(page)
    assert ada.get("/api/bookings/pending").status_code == 200
    sign_in = bob.post("/api/session", json={"idToken": bob_token})
    assert sign_in.status_code == 503
    assert sign_in.json() == {"detail": SIGN_IN_UNAVAILABLE}
    payment = ada.post("/api/create-payment-intent", json={"bookingId": 1})
    assert payment.status_code == 503
    assert payment.json() == {"detail": SIGN_IN_UNAVAILABLE}
    assert not User.objects.filter(email="bob@example.com").exists()
    # Pages for everyone still open.
    assert ada.get("/courts").status_code == 200

    club.identity.resume()

    # The site calls the provider again once its breaker closes (IDENTITY_BREAKER_SECONDS).
    deadline = time.monotonic() + outage.BREAKER_SECONDS + 5
    while (signed := bob.post("/api/session", json={"idToken": bob_token})).status_code == 503:
        assert time.monotonic() < deadline, "sign-in did not come back"
        time.sleep(0.5)
    assert signed.status_code == 200, signed.text
    assert User.objects.filter(email="bob@example.com").exists()
    assert ada.get("/dashboard").status_code == 200
    assert ada.get("/api/bookings/pending").status_code == 200
    assert club.app.pid == app


def test_the_payment_provider_stops_and_comes_back(club):
    ada = signed_in(club, "ada@example.com")
    user = User.objects.get(email="ada@example.com")
    paid = make_booking(user=user, status=Booking.Status.APPROVED)
    unpaid = make_booking(user=user, status=Booking.Status.APPROVED)
    app = club.app.pid
    intent = ada.post("/api/create-payment-intent", json={"bookingId": paid.pk}).json()
    stripe_stand_in.pay(intent["clientSecret"], api_base=club.payments_base)
    payment = Payment.objects.get(booking=paid)

    club.payments.stop()

    # The card was charged, but nobody can ask Stripe: the booking waits, unconfirmed.
    saved = ada.post("/api/save-payment", json={"paymentIntentId": payment.payment_intent_id})
    assert saved.status_code == 503
    assert saved.json()["detail"].startswith(PAYMENTS_UNAVAILABLE)
    new_intent = ada.post("/api/create-payment-intent", json={"bookingId": unpaid.pk})
    assert new_intent.status_code == 503
    assert new_intent.json()["detail"].startswith(PAYMENTS_UNAVAILABLE)
    paid.refresh_from_db()
    payment.refresh_from_db()
    user.refresh_from_db()
    assert (paid.status, payment.status, user.role) == (
        Booking.Status.APPROVED,
        Payment.Status.PENDING,
        User.Role.USER,
    )
    # Recorded before Stripe was asked, with no intent yet: the next try makes it, under the same key.
    assert list(unpaid.payments.values_list("status", "payment_intent_id")) == [
        (Payment.Status.PENDING, None)
    ]

    club.payments.start()

    saved = ada.post("/api/save-payment", json={"paymentIntentId": payment.payment_intent_id})
    assert saved.status_code == 200, saved.text
    paid.refresh_from_db()
    user.refresh_from_db()
    assert (paid.status, user.role) == (Booking.Status.CONFIRMED, User.Role.MEMBER)
    assert ada.post("/api/create-payment-intent", json={"bookingId": unpaid.pk}).status_code == 200
    assert club.app.pid == app


def test_the_payment_provider_stops_while_a_membership_is_bought(club):
    ada = signed_in(club, "ada@example.com")
    user = User.objects.get(email="ada@example.com")
    plan = make_plan(name="Club", price=Decimal("30"), period="monthly", renews_automatically=True)

    club.payments.stop()
    refused = ada.post("/api/memberships", json={"planId": plan.pk})
    assert refused.status_code == 503
    assert refused.json()["detail"].startswith(PAYMENTS_UNAVAILABLE)
    # Nothing but the membership waiting for its first payment: no customer, no subscription.
    membership = Membership.objects.get()
    assert (membership.status, membership.stripe_customer_id, membership.stripe_subscription_id) == (
        Membership.Status.PENDING,
        "",
        None,
    )
    assert not Payment.objects.exists()

    club.payments.start()
    secret = ada.post("/api/memberships", json={"planId": plan.pk}).json()["clientSecret"]
    stripe_stand_in.pay(secret, api_base=club.payments_base)
    club.payments.stop()
    # The card was charged, but nobody can ask Stripe: the membership waits, unpaid.
    intent_id = secret.split("_secret_")[0]
    saved = ada.post("/api/save-payment", json={"paymentIntentId": intent_id})
    assert saved.status_code == 503
    membership.refresh_from_db()
    user.refresh_from_db()
    assert (membership.status, user.role) == (Membership.Status.PENDING, User.Role.USER)

    club.payments.start()
    assert ada.post("/api/save-payment", json={"paymentIntentId": intent_id}).status_code == 200
    membership.refresh_from_db()
    user.refresh_from_db()
    assert (membership.status, user.role) == (Membership.Status.ACTIVE, User.Role.MEMBER)
    assert list(Payment.objects.values_list("status", flat=True)) == [Payment.Status.SUCCEEDED]


def test_a_card_charged_while_the_database_is_down_is_recorded_once_it_is_back(club, settings):
    ada = signed_in(club, "ada@example.com")
    user = User.objects.get(email="ada@example.com")
    booking = make_booking(user=user, status=Booking.Status.APPROVED)
    intent = ada.post("/api/create-payment-intent", json={"bookingId": booking.pk}).json()
    payment = Payment.objects.get(booking=booking)

    club.database.stop()
    # Stripe takes the money; the browser's save-payment finds no database.
    assert stripe_stand_in.pay(intent["clientSecret"], api_base=club.payments_base).status == "succeeded"
    saved = ada.post("/api/save-payment", json={"paymentIntentId": payment.payment_intent_id})
    assert saved.status_code == 503
    club.database.start()

    payment.refresh_from_db()
    assert payment.status == Payment.Status.PENDING
    # The worker's next comparison with Stripe, a few minutes on, records it.
    later = timezone.now() + timedelta(seconds=settings.PAYMENT_RECONCILE_SECONDS + 1)
    with stripe_stand_in.reached_at(club.payments_base):
        assert payments_reconcile(now=later) == 1
    payment.refresh_from_db()
    booking.refresh_from_db()
    user.refresh_from_db()
    assert (payment.status, booking.status, user.role) == (
        Payment.Status.SUCCEEDED,
        Booking.Status.CONFIRMED,
        User.Role.MEMBER,
    )
    assert booking.pk in [shown["id"] for shown in ada.get("/api/bookings/confirmed").json()]


def test_a_renewal_charged_while_the_database_is_down_is_recorded_once_it_is_back(club, settings):
    local_stack.register_webhook(
        f"{club.url}/api/stripe/webhook", base=club.payments_base, secret=settings.STRIPE_WEBHOOK_SECRET
    )
    ada = signed_in(club, "ada@example.com")
    plan = make_plan(name="Club", price=Decimal("30"), period="monthly", renews_automatically=True)
    secret = ada.post("/api/memberships", json={"planId": plan.pk}).json()["clientSecret"]
    stripe_stand_in.pay(secret, api_base=club.payments_base)
    assert (
        ada.post("/api/save-payment", json={"paymentIntentId": secret.split("_secret_")[0]}).status_code
        == 200
    )
    membership = Membership.objects.get()

    club.database.stop()
    # Stripe charges the renewal and tells the site, which has no database to record it in.
    stripe_stand_in.renew(membership.stripe_subscription_id, api_base=club.payments_base)
    time.sleep(2)  # localstripe sends its event a second after the charge
    club.database.start()

    assert membership.payments.filter(status=Payment.Status.SUCCEEDED).count() == 1
    # The worker compares with Stripe a membership whose renewal it has not heard of.
    later = membership.period_end + timedelta(seconds=settings.PAYMENT_RECONCILE_SECONDS + 1)
    with stripe_stand_in.reached_at(club.payments_base):
        assert memberships_reconcile(now=later) == 1
        assert memberships_reconcile(now=later) == 0
    membership.refresh_from_db()
    assert membership.status == Membership.Status.ACTIVE
    assert membership.period_end > later
    assert membership.payments.filter(status=Payment.Status.SUCCEEDED).count() == 2


def open_as(page: Page, club: outage.Site, email: str, path: str) -> None:
    """Opens `path` in the browser with the session of a new account signed in as `email`."""
    session = signed_in(club, email).cookies["club_session"]
    page.context.add_cookies([{"name": "club_session", "value": session, "url": club.url}])
    page.goto(club.url + path)


def toast(page: Page):
    return page.locator("[data-rht-toaster]")


def test_a_person_is_told_when_the_database_stops_and_carries_on_when_it_is_back(club, page: Page):
    CourtFactory(name="Centre Court", type="Tennis", slots=["08:00-09:00"])
    day = (timezone.localdate() + timedelta(days=2)).isoformat()
    open_as(page, club, "ada@example.com", "/courts")
    page.get_by_role("button", name="Book Now").click()
    modal = page.get_by_role("dialog", name="Booking: Centre Court (Tennis)")
    modal.get_by_label("Date").fill(day)
    modal.get_by_label("08:00-09:00").check()

    club.database.stop()
    modal.get_by_role("button", name="Submit Booking").click()

    expect(toast(page)).to_contain_text(DATABASE_UNAVAILABLE)
    page.goto(club.url + "/dashboard")
    expect(page.get_by_role("heading", level=1)).to_have_text("We can't reach our records right now")
    expect(toast(page)).to_contain_text(DATABASE_UNAVAILABLE)

    club.database.start()
    page.get_by_role("link", name="Try again").click()
    expect(page.get_by_role("heading", name="Welcome", exact=False)).to_be_visible()
    assert not Booking.objects.exists()


def test_a_person_is_told_when_the_payment_provider_stops(club, page: Page):
    user = User.objects.create_user("ada@example.com")
    booking = make_booking(user=user, status=Booking.Status.APPROVED)

    club.payments.stop()
    open_as(page, club, "ada@example.com", f"/dashboard/payment-page/{booking.pk}")

    expect(toast(page)).to_contain_text(f"Failed to initiate payment. {PAYMENTS_UNAVAILABLE}")

    club.payments.start()
    page.reload()
    expect(page.get_by_role("button", name="Pay")).to_be_enabled()


def test_a_person_keeps_their_pages_and_is_told_when_a_payment_cannot_be_checked(club, page: Page):
    session = signed_in(club, "ada@example.com").cookies["club_session"]
    booking = make_booking(user=User.objects.get(email="ada@example.com"), status=Booking.Status.APPROVED)
    page.context.add_cookies([{"name": "club_session", "value": session, "url": club.url}])

    club.identity.pause()
    page.goto(club.url + f"/dashboard/payment-page/{booking.pk}")

    expect(page.get_by_role("heading", level=1)).not_to_have_text("We can't check your sign-in right now")
    expect(toast(page)).to_contain_text(f"Failed to initiate payment. {SIGN_IN_UNAVAILABLE}")

    club.identity.resume()
    time.sleep(outage.BREAKER_SECONDS + 0.5)  # the site calls the provider again
    page.reload()
    expect(page.get_by_role("button", name="Pay")).to_be_enabled()
