from django.conf import settings
from django.shortcuts import get_object_or_404, render
from django.urls import reverse

from accounts.guards import login_required, member_required
from bookings.models import Booking
from bookings.selectors import own_bookings
from club.pagination import page_of

from .selectors import payment_list


@login_required
def pay(request, booking_id: int):
    """The payment page: only for the owner of an approved booking (anyone else: 404)."""
    booking = get_object_or_404(
        own_bookings(request.user),
        pk=booking_id,
        status=Booking.Status.APPROVED,
    )
    props = {
        "bookingId": booking.pk,
        "price": str(booking.price),
        "userEmail": request.user.email,
        "publishableKey": settings.STRIPE_PUBLISHABLE_KEY,
        "quoteUrl": reverse("api-booking-quote", args=[booking.pk]),
        "intentUrl": reverse("api-create-payment-intent"),
        "saveUrl": reverse("api-save-payment"),
        "doneUrl": reverse("bookings:confirmed"),
    }
    local_stripe = settings.LOCAL_MODE and settings.STRIPE_API_BASE
    return render(
        request,
        "payments/pay.html",
        {"booking": booking, "island_props": props, "local_stripe": local_stripe},
    )


@member_required
def history(request):
    page = page_of(request, payment_list(viewer=request.user, email=request.user.email))
    return render(request, "payments/history.html", {"page": page})


@login_required
def receipt(request, payment_id: int):
    """A payment's receipt, for its payer and the admins (anyone else: 404)."""
    payments = payment_list(viewer=request.user).select_related("booking")
    return render(request, "payments/receipt.html", {"payment": get_object_or_404(payments, pk=payment_id)})
