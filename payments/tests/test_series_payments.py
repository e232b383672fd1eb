"""A series paid at once (docs/rules.md, Series): its organiser pays every approved date with one
PaymentIntent (localstripe); each date has its own payment row, confirmed on its own; cancelling
the rest refunds each date's part of that one intent, once; a date lost before the payment arrives
is refunded alone. Per date, the policy leaves each to be paid on its own page."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from accounts.models import User
from bookings.models import Booking
from bookings.series import series_approve, series_book, series_cancel
from bookings.services import booking_cancel, policy_update
from courts.tests.factories import CourtFactory
from notifications.models import Notification
from payments.models import Payment, Refund
from payments.services import payments_reconcile
from payments.tests.helpers import intent, retries_made_due, save, stripe_refunds
from testing import stripe_stand_in
from testing.stripe_stand_in import pay
from testing.worker import run_due_tasks

pytestmark = pytest.mark.django_db
Status = Booking.Status
SLOT = "19:00-20:00"


def in_days(days: int):
    return timezone.localdate() + timedelta(days=days)


@pytest.fixture
def series(people):
    """Ada's weekly series of a $20 court, four dates from in two days, approved by Ann."""
    policy_update(advance_days_user=60, refund_percent=100, cancel_cutoff_hours=1)
    ada = User.objects.get(email="ada@example.com")
    court = CourtFactory(name="Centre", price=Decimal("20.00"), slots=[SLOT])
    made = series_book(
        user=ada, court=court, slots=[SLOT], first_date=in_days(2), every_weeks=1, last_date=in_days(23)
    )
    series_approve(series=made, by=User.objects.get(email="ann@example.com"))
    return made


def series_intent(client, series):
    return client.post(f"/api/series/{series.pk}/payment-intent")


def statuses(series) -> list[str]:
    return list(series.occurrences.order_by("date").values_list("status", flat=True))


def test_the_organiser_pays_every_approved_date_with_one_intent(people, series, localstripe):
    response = series_intent(people["owner"], series)
    assert response.status_code == 200
    secret = response.json()["clientSecret"]
    pay(secret)

    saved = save(people["owner"], secret)

    assert saved.status_code == 200
    assert statuses(series) == [Status.CONFIRMED] * 4
    payments = Payment.objects.filter(series=series)
    assert {(p.status, p.amount) for p in payments} == {(Payment.Status.SUCCEEDED, Decimal("20.00"))}
    assert len({p.payment_intent_id for p in payments}) == 1
    assert payments.count() == 4
    # One receipt for the four dates, not four.
    [receipt] = Notification.objects.filter(event="payment_receipt")
    assert receipt.subject == "Receipt: Centre, 4 dates of your series"
    assert "$80.00" in receipt.text


def test_asking_again_reuses_the_open_intent_and_a_new_approval_replaces_it(people, series, localstripe):
    first = series_intent(people["owner"], series).json()["clientSecret"]
    assert series_intent(people["owner"], series).json()["clientSecret"] == first

    booking_cancel(booking=series.occurrences.order_by("date").last(), by=series.user)
    second = series_intent(people["owner"], series).json()["clientSecret"]

    assert second != first
    assert Payment.objects.filter(series=series, status=Payment.Status.CANCELLED).count() == 4
    assert Payment.objects.filter(series=series, status=Payment.Status.PENDING).count() == 3


def test_cancelling_the_rest_refunds_each_dates_part_of_the_one_intent_once(people, series, localstripe):
    secret = series_intent(people["owner"], series).json()["clientSecret"]
    pay(secret)
    save(people["owner"], secret)

    third = series.occurrences.order_by("date")[2]
    series_cancel(series=series, by=series.user, from_date=third.date)
    series_cancel(series=series, by=series.user, from_date=third.date)  # nothing left: no refund again
    run_due_tasks()

    assert statuses(series) == [Status.CONFIRMED] * 2 + [Status.CANCELLED] * 2
    refunds = Refund.objects.order_by("payment__booking__date")
    assert [(r.payment.booking.date, r.amount, r.status) for r in refunds] == [
        (third.date, Decimal("20.00"), Refund.Status.SUCCEEDED),
        (third.date + timedelta(weeks=1), Decimal("20.00"), Refund.Status.SUCCEEDED),
    ]
    assert sorted(refund.amount for refund in stripe_refunds(secret.split("_secret_")[0])) == [2000, 2000]


def test_a_date_cancelled_before_the_payment_arrives_is_refunded_alone(people, series, localstripe):
    secret = series_intent(people["owner"], series).json()["clientSecret"]
    pay(secret)
    first = series.occurrences.order_by("date").first()
    booking_cancel(booking=first, by=series.user)  # while the card form was open

    saved = save(people["owner"], secret)
    run_due_tasks()

    assert saved.status_code == 200
    assert statuses(series) == [Status.CANCELLED] + [Status.CONFIRMED] * 3
    [refund] = Refund.objects.all()
    assert (refund.payment.booking, refund.amount, refund.status) == (first, Decimal("20.00"), "succeeded")
    assert [r.amount for r in stripe_refunds(secret.split("_secret_")[0])] == [2000]


def test_a_date_of_a_series_paid_at_once_is_not_paid_on_its_own(people, series, localstripe):
    date = series.occurrences.order_by("date").first()

    refused = intent(people["owner"], date)

    assert refused.status_code == 409
    assert "paid with the rest of its series" in refused.json()["detail"]
    page = people["owner"].get(f"/dashboard/payment-page/{date.pk}")
    assert page.status_code == 302
    assert page.url == f"/dashboard/series/{series.pk}/payment-page"


def test_per_date_each_is_paid_on_its_own_page(people, series, localstripe):
    policy_update(series_payment="per_date")
    date = series.occurrences.order_by("date").first()

    assert series_intent(people["owner"], series).status_code == 409
    secret = intent(people["owner"], date).json()["clientSecret"]
    pay(secret)
    assert save(people["owner"], secret).status_code == 200

    assert statuses(series) == [Status.CONFIRMED] + [Status.APPROVED] * 3


@pytest.mark.parametrize(
    ("caller", "intent_code", "page_code"),
    [
        ("anonymous", 401, 302),
        ("owner", 200, 200),
        ("other", 404, 404),
        ("member", 404, 404),
        ("admin", 404, 404),
    ],
)
def test_who_may_pay_a_series(people, series, localstripe, caller, intent_code, page_code):
    assert series_intent(people[caller], series).status_code == intent_code
    page = people[caller].get(f"/dashboard/series/{series.pk}/payment-page")
    assert page.status_code == page_code
    if page_code == 200:
        assert "$80.00" in page.content.decode()


def test_a_series_paid_while_the_site_heard_nothing_is_confirmed_by_the_reconciliation(
    people, series, localstripe, settings
):
    """The card was charged, and the browser's save never came (the site or the worker was down): the
    reconciliation finds the one intent and confirms every date, with one receipt."""
    secret = series_intent(people["owner"], series).json()["clientSecret"]
    pay(secret)
    old = timezone.now() - timedelta(seconds=settings.PAYMENT_RECONCILE_SECONDS + 60)
    Payment.objects.filter(series=series).update(created_at=old)

    payments_reconcile()

    assert statuses(series) == [Status.CONFIRMED] * 4
    assert set(Payment.objects.filter(series=series).values_list("status", flat=True)) == {"succeeded"}
    assert Notification.objects.filter(event="payment_receipt").count() == 1
    payments_reconcile()  # nothing pending: nothing more
    assert Notification.objects.filter(event="payment_receipt").count() == 1


def test_refunds_of_a_series_stripe_did_not_answer_are_made_once_each_when_it_does(
    people, series, localstripe
):
    secret = series_intent(people["owner"], series).json()["clientSecret"]
    pay(secret)
    save(people["owner"], secret)
    third = series.occurrences.order_by("date")[2]

    with stripe_stand_in.unreachable():
        series_cancel(series=series, by=series.user, from_date=third.date)
        run_due_tasks()
    assert set(Refund.objects.values_list("status", flat=True)) == {Refund.Status.PENDING}
    retries_made_due()

    assert [r.status for r in Refund.objects.all()] == [Refund.Status.SUCCEEDED] * 2
    assert sorted(r.amount for r in stripe_refunds(secret.split("_secret_")[0])) == [2000, 2000]
