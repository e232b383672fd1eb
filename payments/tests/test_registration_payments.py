"""Paying for a place in a program (docs/rules.md, Programs): one PaymentIntent per place
(localstripe), asked again on the same terms it is the same; a participant who cancels before the
program's cut-off is refunded in full, after it nothing; calling the program off refunds every
participant in full, once; a payment arriving after the place was lost is refunded."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import User
from payments.models import Payment, Refund
from payments.tests.helpers import save, stripe_refunds
from programs.models import Program, Registration
from programs.services import program_cancel, program_register, registration_cancel
from programs.tests.factories import make_program
from testing.stripe_stand_in import pay
from testing.worker import run_due_tasks

pytestmark = pytest.mark.django_db
Status = Registration.Status


@pytest.fixture
def program(people):
    return make_program(by=User.objects.get(email="ann@example.com"))


def intent(client: Client, registration: Registration):
    return client.post(f"/api/registrations/{registration.pk}/payment-intent")


def paid_place(client: Client, program: Program, email: str) -> Registration:
    registration = program_register(program=program, user=User.objects.get(email=email))
    secret = intent(client, registration).json()["clientSecret"]
    pay(secret)
    assert save(client, secret).status_code == 200
    registration.refresh_from_db()
    return registration


def test_a_place_is_paid_with_one_intent_and_confirmed(people, program, localstripe):
    registration = program_register(program=program, user=User.objects.get(email="ada@example.com"))
    first = intent(people["owner"], registration).json()["clientSecret"]
    assert intent(people["owner"], registration).json()["clientSecret"] == first

    pay(first)
    saved = save(people["owner"], first)

    assert saved.status_code == 200
    registration.refresh_from_db()
    assert registration.status == Status.CONFIRMED
    payment = Payment.objects.get(registration=registration)
    assert (payment.status, payment.amount) == (Payment.Status.SUCCEEDED, Decimal("20.00"))
    receipt = people["owner"].get(f"/dashboard/payments/{payment.pk}/receipt")
    assert receipt.status_code == 200
    assert "Beginners&#x27; clinic" in receipt.content.decode()


def test_cancelling_before_the_cutoff_refunds_in_full_once(people, program, localstripe):
    registration = paid_place(people["owner"], program, "ada@example.com")

    registration_cancel(registration=registration, by=registration.user)
    run_due_tasks()

    [refund] = Refund.objects.all()
    assert (refund.amount, refund.status) == (Decimal("20.00"), Refund.Status.SUCCEEDED)
    assert refund.reason == "Registration cancelled by you (100% refund)."
    payment = refund.payment
    assert [r.amount for r in stripe_refunds(payment.payment_intent_id)] == [2000]


def test_cancelling_after_the_cutoff_refunds_nothing(people, program, localstripe):
    registration = paid_place(people["owner"], program, "ada@example.com")
    Program.objects.filter(pk=program.pk).update(starts_at=timezone.now() + timedelta(hours=2))

    registration_cancel(registration=registration, by=registration.user)

    assert not Refund.objects.exists()


def test_calling_the_program_off_refunds_every_participant_once(people, program, localstripe):
    places = [
        paid_place(people["owner"], program, "ada@example.com"),
        paid_place(people["member"], program, "mia@example.com"),
    ]
    admin = User.objects.get(email="ann@example.com")

    program_cancel(program=program, by=admin)
    run_due_tasks()

    refunds = Refund.objects.order_by("payment__user__email")
    assert [(r.payment.registration, r.amount, r.status) for r in refunds] == [
        (places[0], Decimal("20.00"), Refund.Status.SUCCEEDED),
        (places[1], Decimal("20.00"), Refund.Status.SUCCEEDED),
    ]


def test_a_payment_after_the_place_was_lost_is_refunded(people, program, localstripe):
    registration = program_register(program=program, user=User.objects.get(email="ada@example.com"))
    secret = intent(people["owner"], registration).json()["clientSecret"]
    pay(secret)
    Registration.objects.filter(pk=registration.pk).update(held_until=timezone.now() - timedelta(minutes=1))
    Program.objects.filter(pk=program.pk).update(capacity=1)
    program_register(program=program, user=User.objects.get(email="bob@example.com"))  # takes the last place

    saved = save(people["owner"], secret)
    run_due_tasks()

    assert saved.status_code == 409
    assert "no longer held" in saved.json()["detail"]
    assert Refund.objects.get().status == Refund.Status.SUCCEEDED


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
def test_who_may_pay_a_place(people, program, localstripe, caller, intent_code, page_code):
    registration = program_register(program=program, user=User.objects.get(email="ada@example.com"))

    assert intent(people[caller], registration).status_code == intent_code
    page = people[caller].get(f"/dashboard/registrations/{registration.pk}/payment-page")
    assert page.status_code == page_code
    if page_code == 200:
        assert "$20.00" in page.content.decode()
