import re
from decimal import Decimal

import pytest
from django.conf import settings as django_settings

from accounts.models import User
from bookings.models import Booking
from bookings.tests.factories import make_booking
from club.tests.test_settings import served_in_production
from courts.tests.factories import CourtFactory
from payments.models import Payment

pytestmark = pytest.mark.django_db


@pytest.fixture
def approved(people):
    court = CourtFactory(name="Centre Court", price=Decimal("20"), slots=["08:00-09:00", "09:00-10:00"])
    return make_booking(
        user=User.objects.get(email="ada@example.com"), court=court, slots=court.slots, status="approved"
    )


@pytest.mark.parametrize(
    ("kind", "status_code"), [("owner", 200), ("other", 404), ("member", 404), ("admin", 404)]
)
def test_the_payment_page_is_only_for_the_owner_of_an_approved_booking(people, approved, kind, status_code):
    assert people[kind].get(f"/dashboard/payment-page/{approved.pk}").status_code == status_code


def test_a_signed_out_visitor_is_asked_to_sign_in_first(people, approved):
    response = people["anonymous"].get(f"/dashboard/payment-page/{approved.pk}")

    assert response.status_code == 302
    assert response["Location"] == f"/login?next=/dashboard/payment-page/{approved.pk}"


@pytest.mark.parametrize("status", ["pending", "confirmed", "cancelled", "expired"])
def test_a_booking_that_is_not_approved_has_no_payment_page(people, approved, status):
    Booking.objects.filter(pk=approved.pk).update(status=status)

    assert people["owner"].get(f"/dashboard/payment-page/{approved.pk}").status_code == 404


def test_the_payment_page_shows_the_booking_and_mounts_the_card_island(people, approved):
    html = people["owner"].get(f"/dashboard/payment-page/{approved.pk}").content.decode()

    assert "Pay for: Centre Court" in html
    assert '<dd><span style="white-space:nowrap">08:00–10:00</span></dd>' in html
    assert "$40.00" in html
    assert 'data-island="payment"' in html
    # Local mode: localstripe's fake Stripe.js and the adapter for what it lacks.
    assert f'<script src="{django_settings.STRIPE_API_BASE}/js.stripe.com/v3/"></script>' in html
    assert '<script src="/local/stripe-adapter.js"></script>' in html


def test_outside_local_mode_the_payment_page_names_no_local_script(people, approved, settings):
    settings.LOCAL_MODE = False

    html = people["owner"].get(f"/dashboard/payment-page/{approved.pk}").content.decode()

    assert "js.stripe.com/v3" not in html
    assert "/local/" not in html


@pytest.mark.integration  # starts the site's own processes
def test_production_never_routes_the_local_stripe_adapter():
    assert served_in_production("/local/stripe-adapter.js", "/local/stripe-confirm") == []


def test_local_mode_serves_the_adapter_as_javascript(client):
    response = client.get("/local/stripe-adapter.js")

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert "confirmCardPayment" in response.content.decode()


def test_payment_history_lists_my_payments_with_both_views(people, approved):
    Payment.objects.create(
        booking=approved,
        user=approved.user,
        amount=Decimal("40"),
        currency="usd",
        payment_intent_id="pi_abc",
        status="succeeded",
    )
    User.objects.filter(pk=approved.user_id).update(role=User.Role.MEMBER)

    html = people["owner"].get("/dashboard/payment-history").content.decode()

    assert 'aria-label="Table View"' in html
    assert 'aria-label="Card View"' in html
    row = re.search(r"<td[^>]*>1</td>\s*<td[^>]*>([^<]+)</td>.*?<td[^>]*>\$40.00</td>", html, re.S)
    assert row
    assert row.group(1) == approved.court_name
    assert "pi_abc" not in html  # the booking is named, not Stripe's id


def test_payment_history_says_when_there_is_none(people):
    assert "No payments found." in people["member"].get("/dashboard/payment-history").content.decode()


def test_manage_members_hands_the_members_to_its_island(people):
    response = people["admin"].get("/dashboard/manage-members")

    members = response.context["island_props"]["rows"]
    assert [m["email"] for m in members] == ["mia@example.com"]
    assert members[0]["url"].startswith("/api/members/")


def test_manage_coupons_hands_its_island_what_the_coupon_api_accepts(people):
    response = people["admin"].get("/dashboard/manage-coupons")

    bounds = response.context["island_props"]["bounds"]
    assert bounds["code"] == {"required": True, "maxLength": 40}
    assert bounds["discount"] == {"required": True, "min": "1", "max": "100", "step": "1"}
    assert bounds["description"] == {"required": False, "maxLength": 200}
    assert bounds["maxUses"] == {"required": False, "min": "1", "max": "100000", "step": "1"}
