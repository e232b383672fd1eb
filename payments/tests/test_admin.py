"""Payments and refunds in Django admin are to read: amounts, statuses and Stripe's ids are never
edited there, nor are the records added or deleted (a refund comes from cancelling its booking,
a failed one is retried with the Refunds' action: payments/tests/test_cancellation_refunds.py)."""

from decimal import Decimal

import pytest

from accounts.models import User
from audit.models import AuditEntry
from bookings.tests.factories import make_booking
from payments.models import Payment, Refund

pytestmark = pytest.mark.django_db


@pytest.fixture
def refunded(people):
    ada = User.objects.get(email="ada@example.com")
    payment = Payment.objects.create(
        booking=make_booking(user=ada),
        user=ada,
        amount=Decimal("20.00"),
        currency="usd",
        payment_intent_id="pi_123",
        status=Payment.Status.REFUNDED,
    )
    Refund.objects.create(
        payment=payment,
        amount=Decimal("20.00"),
        reason="Cancelled",
        status=Refund.Status.SUCCEEDED,
        stripe_refund_id="re_123",
    )
    return payment


@pytest.mark.parametrize(
    ("page", "value"),
    [("payments/payment/{payment}", "pi_123"), ("payments/refund/{refund}", "re_123")],
    ids=["payment", "refund"],
)
def test_amounts_statuses_and_stripe_ids_are_shown_and_not_editable(people, refunded, page, value):
    path = "/admin/" + page.format(payment=refunded.pk, refund=refunded.refunds.get().pk) + "/change/"

    shown = people["admin"].get(path).content.decode()
    edited = people["admin"].post(path, {"amount": "1.00", "status": "pending", "payment_intent_id": "pi_x"})

    assert value in shown
    assert "20.00" in shown
    assert not any(f'name="{field}"' in shown for field in ("amount", "status", "payment_intent_id"))
    assert edited.status_code == 403
    assert (Payment.objects.get().amount, Payment.objects.get().status) == (Decimal("20.00"), "refunded")
    assert Refund.objects.get().amount == Decimal("20.00")


@pytest.mark.parametrize("model", ["payment", "refund"])
def test_payments_and_refunds_are_neither_added_nor_deleted(people, refunded, model):
    pk = refunded.pk if model == "payment" else refunded.refunds.get().pk

    added = people["admin"].get(f"/admin/payments/{model}/add/")
    deleted = people["admin"].post(f"/admin/payments/{model}/{pk}/delete/", {"post": "yes"})

    assert (added.status_code, deleted.status_code) == (403, 403)
    assert (Payment.objects.count(), Refund.objects.count()) == (1, 1)
    assert not AuditEntry.objects.exists()


def test_admins_find_a_payment_by_its_intent_and_refunds_by_status(people, refunded):
    found = people["admin"].get("/admin/payments/payment/?q=pi_123").content.decode()
    failed = people["admin"].get("/admin/payments/refund/?status__exact=failed").content.decode()

    assert f"/admin/payments/payment/{refunded.pk}/change/" in found
    assert "0 refunds" in failed
