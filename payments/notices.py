"""What the payments tell people by e-mail, in the transaction of the change they tell of."""

from decimal import Decimal
from typing import cast

from django.urls import reverse

from bookings.calendar import booking_ics
from bookings.models import Booking
from kernel.days import day, when
from kernel.money import money
from memberships.models import Membership
from notifications.services import Attachment, absolute_url, notify
from programs.models import Registration

from .models import Payment, Refund


def paid(payment: Payment) -> None:
    """The receipt: a booking's with the booking as a calendar event to add; a membership's for the
    period it pays."""
    booking = payment.booking
    if payment.registration is not None:
        _registration_paid(payment)
        return
    if booking is None:
        _membership_paid(payment)
        return
    notify(
        event="payment_receipt",
        recipient=payment.user,
        about=f"payment:{payment.pk}",
        subject=f"Receipt: {booking.court_name} on {day(booking.date)}",
        template="payment_receipt",
        context={
            "payment": payment,
            "booking": booking,
            "receipt_url": absolute_url(reverse("payments:receipt", args=[payment.pk])),
            "booking_url": absolute_url(reverse("bookings:detail", args=[booking.pk])),
        },
        attachments=lambda: (
            Attachment(
                filename=f"booking-{booking.pk}.ics",
                content_type="text/calendar",
                content=booking_ics(booking).decode(),
            ),
        ),
    )


def series_paid(payments: list[Payment]) -> None:
    """The receipt of a series' dates paid together: those kept, each with its own receipt's
    address, and what of it is being refunded (a date cancelled meanwhile). Once per card payment."""
    kept = [payment for payment in payments if payment.status == Payment.Status.SUCCEEDED]
    if not kept:
        return  # each refund is told of when it is made
    first = kept[0]
    booking = cast(Booking, first.booking)
    dates = f"{len(kept)} dates" if len(kept) > 1 else "1 date"
    notify(
        event="payment_receipt",
        recipient=first.user,
        about=f"payment:{first.pk}",
        subject=f"Receipt: {booking.court_name}, {dates} of your series",
        template="series_receipt",
        context={
            "payments": [
                (payment, absolute_url(reverse("payments:receipt", args=[payment.pk]))) for payment in kept
            ],
            "first": first,
            "booking": booking,
            "total": sum((payment.amount for payment in kept), Decimal(0)),
            "given_back": [payment for payment in payments if payment.status != Payment.Status.SUCCEEDED],
            "booking_url": absolute_url(reverse("bookings:detail", args=[booking.pk])),
        },
    )


def rest_due(booking: Booking, *, amount: Decimal) -> None:
    """To the organiser of a booking whose players have not all paid their shares: pay the rest."""
    notify(
        event="rest_due",
        recipient=booking.user,
        about=f"booking:{booking.pk}",
        subject=f"Pay the rest of {booking.court_name} by {when(booking.payment_due_at)}",
        template="rest_due",
        context={
            "booking": booking,
            "amount": amount,
            "pay_url": absolute_url(reverse("payments:pay", args=[booking.pk])),
        },
    )


def _registration_paid(payment: Payment) -> None:
    registration = cast(Registration, payment.registration)
    program = registration.program
    notify(
        event="payment_receipt",
        recipient=payment.user,
        about=f"payment:{payment.pk}",
        subject=f"Receipt: {program.title}, {day(program.first_date)}",
        template="registration_receipt",
        context={
            "payment": payment,
            "program": program,
            "receipt_url": absolute_url(reverse("payments:receipt", args=[payment.pk])),
            "program_url": absolute_url(reverse("programs:detail", args=[program.pk])),
        },
    )


def _membership_paid(payment: Payment) -> None:
    membership = cast(Membership, payment.membership)
    notify(
        event="payment_receipt",
        recipient=payment.user,
        about=f"payment:{payment.pk}",
        subject=f"Receipt: {membership.plan} membership until {day(payment.period_end)}",
        template="membership_receipt",
        context={
            "payment": payment,
            "membership": membership,
            "receipt_url": absolute_url(reverse("payments:receipt", args=[payment.pk])),
            "membership_url": absolute_url(reverse("memberships:membership")),
        },
    )


def renewal_failed(membership: Membership, *, invoice_id: str, amount: Decimal) -> None:
    """A renewal's charge was declined: what to do, and until when the benefits stay."""
    notify(
        event="renewal_failed",
        recipient=membership.user,
        about=f"invoice:{invoice_id}",
        subject=f"Your {membership.plan} membership could not be renewed: please update your card",
        template="renewal_failed",
        context={
            "membership": membership,
            "amount": amount,
            "pay_url": absolute_url(reverse("memberships:renew")),
        },
    )


def _refund_subject(refund: Refund) -> str:
    payment = refund.payment
    if payment.booking is not None:
        return f"{payment.booking.court_name} on {day(payment.booking.date)}"
    if payment.registration is not None:
        return payment.registration.program.title
    return f"{cast(Membership, payment.membership).plan} membership"


def refunded(refund: Refund) -> None:
    """Money given back: how much, on which card, and why."""
    booking = refund.payment.booking
    notify(
        event="refund",
        recipient=refund.payment.user,
        about=f"refund:{refund.pk}",
        subject=f"Refund of ${money(refund.amount)}: {_refund_subject(refund)}",
        template="refund",
        context={
            "refund": refund,
            "payment": refund.payment,
            "booking": booking,
            "receipt_url": absolute_url(reverse("payments:receipt", args=[refund.payment_id])),
        },
    )
