"""Paying together (docs/rules.md, Paying together): the guest fee, each player's share priced by
their own plan, each share paid with its payer's own card, the booking confirmed when every share
is paid, the organiser asked once for the rest, and every share refunded exactly once when the
booking ends unconfirmed or is cancelled. Stripe is localstripe."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.utils import timezone

from accounts.models import User
from bookings.matches import match_open, matches_call_off
from bookings.models import Booking, Match
from bookings.players import players_set
from bookings.services import booking_approve, booking_cancel, bookings_expire, policy_update
from bookings.tests.factories import make_booking
from courts.models import PriceBand
from courts.tests.factories import CourtFactory
from kernel.days import day
from kernel.errors import Conflict
from memberships.tests.factories import make_membership, make_plan
from notifications.models import Notification
from payments.models import Payment, Refund
from payments.services import DUE_CHANGED, PAID_IN_FULL, amount_due, organisers_ask_for_the_rest
from payments.tests.helpers import intent, retries_made_due, save, stripe_refunds
from testing import stripe_stand_in
from testing.concurrency import at_once
from testing.stripe_stand_in import pay
from testing.worker import run_due_tasks

pytestmark = pytest.mark.django_db


@pytest.fixture
def clients(sign_in_as):
    """Ada organises; Mia, a member with a plan 25 % off, plays; Bob does not; Ann is an admin."""
    clients = {
        "anonymous": None,
        "organiser": sign_in_as("ada@example.com", name="Ada Lovelace"),
        "player": sign_in_as("mia@example.com", User.Role.MEMBER, name="Mia Park"),
        "other": sign_in_as("bob@example.com", name="Bob Stone"),
        "member": sign_in_as("max@example.com", User.Role.MEMBER, name="Max Hill"),
        "admin": sign_in_as("ann@example.com", User.Role.ADMIN, name="Ann Admin"),
    }
    make_membership(user=User.objects.get(email="mia@example.com"), plan=make_plan(name="Club"))
    return clients


@pytest.fixture
def ada(clients):
    return User.objects.get(email="ada@example.com")


@pytest.fixture
def mia(clients):
    return User.objects.get(email="mia@example.com")


def doubles(ada, *people: User, guests=("Sam Guest",), status=Booking.Status.APPROVED) -> Booking:
    """Ada's approved booking of a $20 court in five days, with `people` and `guests` playing."""
    court = CourtFactory(name="Clay Court", price=Decimal("20.00"), places=4)
    date = timezone.localdate() + timedelta(days=5)
    booking = make_booking(user=ada, court=court, date=date, status=status)
    players_set(booking=booking, by=ada, people=[p.public_id for p in people], invite=[], guests=list(guests))
    booking.refresh_from_db()
    return booking


def pays(client, booking: Booking) -> dict:
    """The caller pays what they owe of `booking` at localstripe: the save-payment answer."""
    response = intent(client, booking)
    assert response.status_code == 200, response.json()
    secret = response.json()["clientSecret"]
    pay(secret)
    return {"status": save(client, secret).status_code, "secret": secret}


def quote(client, booking: Booking):
    return client.get(f"/api/bookings/{booking.pk}/quote")


# --- What each pays --------------------------------------------------------------------------


def test_by_default_the_organiser_pays_everything_and_each_guest_adds_the_fee(clients, ada, mia):
    policy_update(guest_fee=Decimal("5.00"))

    booking = doubles(ada, mia, guests=["Sam Guest", "Lea Guest"])

    assert (booking.price, booking.guest_fees) == (Decimal("30.00"), Decimal("10.00"))
    body = quote(clients["organiser"], booking).json()
    assert body["sharing"] == "organiser"
    assert [(s["name"], s["amount"], s["guestFee"], s["paidBy"]) for s in body["shares"]] == [
        ("Ada Lovelace", "30.00", "10.00", "Ada Lovelace"),
        ("Mia Park", "0.00", "0.00", "Ada Lovelace"),
        ("Sam Guest (guest)", "0.00", "0.00", "Ada Lovelace"),
        ("Lea Guest (guest)", "0.00", "0.00", "Ada Lovelace"),
    ]
    assert (body["youPay"], body["payUrl"]) == ("30.00", f"/dashboard/payment-page/{booking.pk}")
    assert quote(clients["player"], booking).json()["youPay"] is None
    # A guest taken off takes their fee with them.
    players_set(booking=booking, by=ada, people=[mia.public_id], invite=[], guests=["Sam Guest"])
    booking.refresh_from_db()
    assert (booking.price, booking.guest_fees) == (Decimal("25.00"), Decimal("5.00"))


def test_with_shared_payment_each_pays_their_share_at_their_own_plans_price(clients, ada, mia):
    policy_update(price_sharing="shared", guest_fee=Decimal("5.00"))

    booking = doubles(ada, mia)

    body = quote(clients["player"], booking).json()
    # $20 among three: Ada's third at the full price, Mia's at her plan's 25 % off, and the guest's
    # third with the fee, paid by Ada.
    assert [(s["name"], s["amount"], s["guestFee"], s["paidBy"], s["paid"]) for s in body["shares"]] == [
        ("Ada Lovelace", "6.67", "0.00", "Ada Lovelace", False),
        ("Mia Park", "5.00", "0.00", "Mia Park", False),
        ("Sam Guest (guest)", "11.67", "5.00", "Ada Lovelace", False),
    ]
    assert body["youPay"] == "5.00"
    assert amount_due(booking=booking, payer=ada) == Decimal("18.34")


def test_members_only_hours_refuse_guests(clients, ada):
    court = CourtFactory(name="Clay Court", price=Decimal("20.00"), places=4)
    date = timezone.localdate() + timedelta(days=5)
    PriceBand.objects.create(
        court=court, weekdays=[date.weekday()], starts="00:00", ends="23:59", price="20.00", members_only=True
    )
    make_membership(user=ada, plan=make_plan(name="Members Only"))
    court.refresh_from_db()
    booking = make_booking(user=ada, court=court, date=date)

    with pytest.raises(ValidationError) as refused:
        players_set(booking=booking, by=ada, people=[], invite=[], guests=["Sam Guest"])

    assert "guests cannot play then" in refused.value.message_dict["guests"][0]
    assert not booking.players.exists()


@pytest.mark.parametrize(
    ("kind", "status_code"),
    [
        ("anonymous", 401),
        ("organiser", 200),
        ("player", 200),
        ("other", 404),
        ("member", 404),
        ("admin", 200),
    ],
)
def test_the_shares_are_seen_by_those_who_may_see_the_booking(clients, ada, mia, kind, status_code):
    booking = doubles(ada, mia)
    client = clients[kind] or Client()

    assert quote(client, booking).status_code == status_code


@pytest.mark.parametrize(("kind", "status_code"), [("other", 404), ("member", 404), ("player", 403)])
def test_nobody_but_the_organiser_pays_when_the_organiser_pays_all(clients, ada, mia, kind, status_code):
    booking = doubles(ada, mia)

    response = intent(clients[kind], booking)

    assert response.status_code == status_code
    assert not Payment.objects.exists()


# --- Paying the shares -----------------------------------------------------------------------


def test_two_players_each_pay_their_share_and_the_booking_is_confirmed(
    clients, ada, mia, localstripe, mailbox
):
    policy_update(price_sharing="shared", guest_fee=Decimal("5.00"))
    booking = doubles(ada, mia)

    assert pays(clients["organiser"], booking)["status"] == 200
    booking.refresh_from_db()
    assert booking.status == Booking.Status.APPROVED  # Mia's share is still to come
    assert [s["paid"] for s in quote(clients["player"], booking).json()["shares"]] == [True, False, True]

    assert pays(clients["player"], booking)["status"] == 200

    booking.refresh_from_db()
    assert booking.status == Booking.Status.CONFIRMED
    assert sorted(Payment.objects.values_list("user__email", "amount", "status")) == [
        ("ada@example.com", Decimal("18.34"), "succeeded"),
        ("mia@example.com", Decimal("5.00"), "succeeded"),
    ]
    # Each has their own receipt, and sees only their own payment.
    run_due_tasks()
    receipts = [mail.to for mail in mailbox.messages() if mail.subject.startswith("Receipt")]
    assert sorted(receipts) == ["ada@example.com", "mia@example.com"]
    assert [p["amount"] for p in clients["player"].get("/api/payments").json()] == ["5.00"]


def test_a_player_who_paid_cannot_pay_twice_and_a_stranger_cannot_pay(clients, ada, mia, localstripe):
    policy_update(price_sharing="shared")
    booking = doubles(ada, mia)
    pays(clients["player"], booking)

    again = intent(clients["player"], booking)
    stranger = intent(clients["other"], booking)

    assert (again.status_code, again.json()["detail"]) == (
        409,
        "You have paid your share of this booking already.",
    )
    assert stranger.status_code == 404
    assert Payment.objects.count() == 1


def test_once_a_share_is_paid_the_players_no_longer_change(clients, ada, mia, localstripe):
    policy_update(price_sharing="shared")
    booking = doubles(ada, mia)
    pays(clients["player"], booking)

    with pytest.raises(Conflict, match="no longer change"):
        players_set(booking=booking, by=ada, people=[mia.public_id], invite=[], guests=[])

    assert booking.players.count() == 2


def test_a_payment_for_an_amount_no_longer_due_is_refunded(clients, ada, mia, localstripe):
    """Ada opens her payment, then adds a guest: what she owes changes, and the old intent paid
    in another tab is given back in full."""
    policy_update(price_sharing="shared", guest_fee=Decimal("5.00"))
    booking = doubles(ada, mia)
    secret = intent(clients["organiser"], booking).json()["clientSecret"]
    players_set(booking=booking, by=ada, people=[mia.public_id], invite=[], guests=["Sam Guest", "Lea Guest"])

    pay(secret)
    response = save(clients["organiser"], secret)

    assert (response.status_code, response.json()["detail"]) == (409, DUE_CHANGED)
    assert list(Refund.objects.values_list("amount", flat=True)) == [Decimal("18.34")]
    booking.refresh_from_db()
    assert booking.status == Booking.Status.APPROVED


def test_the_organiser_is_asked_once_for_the_rest_and_a_share_paid_after_it_is_refunded(
    clients, ada, mia, localstripe, mailbox
):
    policy_update(price_sharing="shared", guest_fee=Decimal("5.00"), payment_window_hours=24)
    booking = doubles(ada, mia)
    mias = intent(clients["player"], booking).json()["clientSecret"]  # opened, not paid yet
    assert organisers_ask_for_the_rest() == 0  # three quarters of the window have not passed
    moment = timezone.now() - timedelta(hours=19)
    Booking.objects.filter(pk=booking.pk).update(
        approved_at=moment, payment_due_at=moment + timedelta(hours=24)
    )

    assert organisers_ask_for_the_rest() == 1
    assert organisers_ask_for_the_rest() == 0
    run_due_tasks()
    [asked] = [mail for mail in mailbox.messages() if mail.subject.startswith("Pay the rest")]
    assert asked.to == "ada@example.com"
    assert "Pay what is left, $23.34" in asked.text  # her third, the guest's, and Mia's unpaid share

    assert pays(clients["organiser"], booking)["status"] == 200
    booking.refresh_from_db()
    assert booking.status == Booking.Status.CONFIRMED

    pay(mias)
    late = save(clients["player"], mias)
    assert (late.status_code, late.json()["status"]) == (200, "refunded")
    assert late.json()["refunds"][0]["reason"] == PAID_IN_FULL
    assert list(Refund.objects.values_list("payment__user__email", "amount")) == [
        ("mia@example.com", Decimal("5.00"))
    ]


# --- Refunds when the booking ends -----------------------------------------------------------


def test_shares_paid_are_refunded_once_when_the_booking_expires(clients, ada, mia, localstripe):
    policy_update(price_sharing="shared", guest_fee=Decimal("5.00"))
    booking = doubles(ada, mia)
    pays(clients["organiser"], booking)
    Booking.objects.filter(pk=booking.pk).update(payment_due_at=timezone.now() - timedelta(seconds=1))

    assert bookings_expire() == 1
    assert bookings_expire() == 0
    run_due_tasks()

    [refund] = Refund.objects.all()
    assert (refund.amount, refund.status) == (Decimal("18.34"), Refund.Status.SUCCEEDED)
    assert refund.reason == "Booking expired before it was paid in full (100% refund)."
    assert [r.amount for r in stripe_refunds(refund.payment.payment_intent_id)] == [1834]


@pytest.mark.django_db(transaction=True)
def test_each_share_of_a_cancelled_booking_is_refunded_exactly_once(clients, ada, mia, localstripe):
    """The organiser and an admin cancel at the same moment: each payment has one refund."""
    policy_update(price_sharing="shared", guest_fee=Decimal("5.00"))
    booking = doubles(ada, mia)
    pays(clients["organiser"], booking)
    pays(clients["player"], booking)
    admin = User.objects.get(email="ann@example.com")

    answers = at_once(
        [lambda: booking_cancel(booking=booking, by=ada), lambda: booking_cancel(booking=booking, by=admin)]
    )
    run_due_tasks()

    assert sum(not isinstance(answer, Exception) for answer in answers) == 1
    assert sorted(Refund.objects.values_list("payment__user__email", "amount", "status")) == [
        ("ada@example.com", Decimal("18.34"), "succeeded"),
        ("mia@example.com", Decimal("5.00"), "succeeded"),
    ]
    for payment in Payment.objects.all():
        assert len(stripe_refunds(payment.payment_intent_id)) == 1


# --- Open matches ------------------------------------------------------------------------------


def test_a_match_is_shared_between_its_places_and_a_joiner_pays_their_share(clients, ada, mia):
    policy_update(price_sharing="shared")
    booking = doubles(ada, mia, guests=[])
    match = match_open(booking=booking, by=ada, places=4, deadline=timezone.now() + timedelta(days=1))

    body = quote(clients["organiser"], booking).json()
    assert [(s["name"], s["amount"], s["paidBy"]) for s in body["shares"]] == [
        ("Ada Lovelace", "5.00", "Ada Lovelace"),
        ("Mia Park", "3.75", "Mia Park"),
        ("An open place", "5.00", ""),
        ("An open place", "5.00", ""),
    ]
    joined = clients["other"].post(f"/api/matches/{match.pk}/join")
    assert joined.json()["payUrl"] == f"/dashboard/payment-page/{booking.pk}"
    assert quote(clients["other"], booking).json()["youPay"] == "5.00"


def test_a_match_not_full_at_its_deadline_refunds_every_share_and_tells_everyone(
    clients, ada, mia, localstripe, mailbox
):
    policy_update(price_sharing="shared")
    booking = doubles(ada, mia, guests=[])
    match = match_open(booking=booking, by=ada, places=4, deadline=timezone.now() + timedelta(days=1))
    assert pays(clients["organiser"], booking)["status"] == 200
    assert pays(clients["player"], booking)["status"] == 200
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now() - timedelta(seconds=1))

    assert matches_call_off() == 1
    run_due_tasks()

    booking.refresh_from_db()
    assert booking.status == Booking.Status.CANCELLED
    assert sorted(Refund.objects.values_list("payment__user__email", "amount", "status")) == [
        ("ada@example.com", Decimal("5.00"), "succeeded"),
        ("mia@example.com", Decimal("3.75"), "succeeded"),
    ]
    for address, amount in (("ada@example.com", "5.00"), ("mia@example.com", "3.75")):
        subjects = [mail.subject for mail in mailbox.messages(to=address)]
        assert f"Refund of ${amount}: Clay Court on {day(booking.date)}" in subjects
    assert any(
        s.startswith("The game is off") for s in (m.subject for m in mailbox.messages(to="mia@example.com"))
    )


# --- Telling the players -----------------------------------------------------------------------


def test_each_player_is_asked_for_their_share_once_the_booking_is_approved(clients, ada, mia):
    policy_update(price_sharing="shared", guest_fee=Decimal("5.00"))
    booking = doubles(ada, mia, status=Booking.Status.PENDING)
    assert not Notification.objects.filter(event="share_due").exists()  # nothing to pay yet

    booking_approve(booking=booking, by=User.objects.get(email="ann@example.com"))
    players_set(booking=booking, by=ada, people=[mia.public_id], invite=[], guests=["Sam Guest"])  # again

    [asked] = Notification.objects.filter(event="share_due")
    assert asked.recipient.email == "mia@example.com"
    assert asked.subject.startswith("Pay your share of Clay Court on")
    assert "Yours is $5.00" in asked.text


def test_nobody_but_the_organiser_is_asked_to_pay_when_the_organiser_pays_all(clients, ada, mia):
    doubles(ada, mia)

    assert not Notification.objects.filter(event="share_due").exists()


def test_a_share_paid_gives_an_instant_booking_the_payment_window_for_the_others(
    clients, ada, mia, localstripe
):
    policy_update(
        price_sharing="shared", approval_required=False, checkout_hold_minutes=10, payment_window_hours=24
    )
    booking = doubles(ada, mia, status=Booking.Status.PENDING)  # instant: approved as it is made
    assert booking.payment_due_at - booking.approved_at == timedelta(minutes=10)

    assert pays(clients["organiser"], booking)["status"] == 200

    booking.refresh_from_db()
    assert booking.payment_due_at - booking.approved_at == timedelta(hours=24)


def test_a_player_cannot_read_another_players_payment(clients, ada, mia, localstripe):
    policy_update(price_sharing="shared")
    booking = doubles(ada, mia, guests=[])
    pays(clients["organiser"], booking)
    pays(clients["player"], booking)
    adas, mias = (Payment.objects.get(user__email=email) for email in ("ada@example.com", "mia@example.com"))

    assert clients["player"].get(f"/dashboard/payments/{adas.pk}/receipt").status_code == 404
    assert clients["organiser"].get(f"/dashboard/payments/{mias.pk}/receipt").status_code == 404
    assert clients["player"].get(f"/dashboard/payments/{mias.pk}/receipt").status_code == 200
    assert [p["id"] for p in clients["organiser"].get("/api/payments").json()] == [adas.pk]
    assert clients["player"].get(f"/api/payments?email={ada.email}").status_code == 403


def test_shares_refunded_while_stripe_is_down_are_made_once_it_is_back(clients, ada, mia, localstripe):
    """The match is called off during a Stripe outage: each refund is recorded, tried and kept
    pending, then made once when Stripe answers again."""
    policy_update(price_sharing="shared")
    booking = doubles(ada, mia, guests=[])
    match = match_open(booking=booking, by=ada, places=4, deadline=timezone.now() + timedelta(days=1))
    pays(clients["organiser"], booking)
    pays(clients["player"], booking)
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now() - timedelta(seconds=1))

    with stripe_stand_in.unreachable():
        assert matches_call_off() == 1
        run_due_tasks()
        assert sorted(Refund.objects.values_list("amount", "status", "attempts")) == [
            (Decimal("3.75"), "pending", 1),
            (Decimal("5.00"), "pending", 1),
        ]
    retries_made_due()

    assert set(Refund.objects.values_list("status", flat=True)) == {"succeeded"}
    for payment in Payment.objects.all():
        assert [refund.amount for refund in stripe_refunds(payment.payment_intent_id)] == [
            payment.amount_cents
        ]
