"""What the payments tell people by e-mail, in the transaction of the change they tell of."""

from django.urls import reverse

from bookings.calendar import booking_ics
from kernel.days import day
from kernel.money import money
from notifications.services import Attachment, absolute_url, notify

from .models import Payment, Refund


def paid(payment: Payment) -> None:
    """The receipt, with the booking as a calendar event to add."""
    booking = payment.booking
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


def refunded(refund: Refund) -> None:
    """Money given back: how much, on which card, and why."""
    booking = refund.payment.booking
    notify(
        event="refund",
        recipient=refund.payment.user,
        about=f"refund:{refund.pk}",
        subject=f"Refund of ${money(refund.amount)}: {booking.court_name} on {day(booking.date)}",
        template="refund",
        context={
            "refund": refund,
            "payment": refund.payment,
            "booking": booking,
            "receipt_url": absolute_url(reverse("payments:receipt", args=[refund.payment_id])),
        },
    )
