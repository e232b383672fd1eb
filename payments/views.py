import csv
import re
from datetime import date
from decimal import Decimal
from itertools import batched, chain
from types import SimpleNamespace

from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpResponseBadRequest, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone

from accounts.guards import admin_required, login_required, member_required
from bookings.models import Booking, Series
from bookings.selectors import own_and_played, policy_get
from bookings.series import pays_with_series
from kernel.bounds import input_bounds
from kernel.errors import Conflict, Forbidden
from kernel.pages import island_page
from kernel.pagination import page_of
from kernel.slots import slots_label
from programs.models import Registration

from .forms import LedgerFilters
from .models import Coupon
from .selectors import Kind, Ledger, PaidStatus, Takings, payment_list
from .serializers import CouponInput, CouponOutput
from .series_payments import NOTHING_DUE, series_due
from .services import amount_due


@login_required
def pay(request, booking_id: int):
    """The payment page of an approved booking: for its organiser, and for its players when each
    pays their share (anyone else: 404)."""
    booking = get_object_or_404(own_and_played(request.user), pk=booking_id, status=Booking.Status.APPROVED)
    if pays_with_series(booking, request.user.pk, policy_get()):
        return redirect("payments:pay-series", booking.series_id)
    try:
        due = amount_due(booking=booking, payer=request.user)
    except Forbidden:
        raise Http404 from None
    except Conflict as done:
        messages.info(request, str(done))
        return redirect("bookings:detail", booking.pk)
    props = {
        **_card_form(request, due),
        "quoteUrl": reverse("api-booking-quote", args=[booking.pk]),
        "intentUrl": reverse("api-create-payment-intent"),
        "intentBody": {"bookingId": booking.pk, "userEmail": request.user.email},
        # A share paid leaves the booking waiting for the others: its page says for whom.
        "doneUrl": reverse("bookings:confirmed")
        if due == booking.price
        else reverse("bookings:detail", args=[booking.pk]),
    }
    context = {"booking": booking, "due": due, "island_props": props, "local_stripe": _local_stripe()}
    return render(request, "payments/pay.html", context)


def _card_form(request, due: Decimal) -> dict[str, object]:
    """The payment island's props that every payment page gives alike."""
    return {
        "price": str(due),
        "userEmail": request.user.email,
        "publishableKey": settings.STRIPE_PUBLISHABLE_KEY,
        "saveUrl": reverse("api-save-payment"),
    }


def _local_stripe() -> str:
    """localstripe's address, whose stand-in of Stripe.js the card form loads in local mode."""
    return settings.STRIPE_API_BASE if settings.LOCAL_MODE else ""


@login_required
def pay_series(request, series_id: int):
    """The payment page of a series paid at once: every approved date still unpaid, for its
    organiser (anyone else: 404); with nothing to pay, its first date's page."""
    series = get_object_or_404(Series.objects.select_related("court"), pk=series_id, user=request.user)
    try:
        due = series_due(series=series, payer=request.user)
    except Conflict as refusal:
        due, reason = [], str(refusal)
    else:
        reason = NOTHING_DUE
    first = series.occurrences.order_by("date", "id").first()
    if not due:
        messages.info(request, reason)
        return redirect("bookings:detail", first.pk) if first else redirect("bookings:mine")
    total = sum((amount for _, amount in due), Decimal(0))
    props = {
        **_card_form(request, total),
        "intentUrl": reverse("api-series-payment-intent", args=[series.pk]),
        "intentBody": {},
        "doneUrl": reverse("bookings:detail", args=[due[0][0].pk]),
    }
    context = {
        "series": series,
        "due": due,
        "total": total,
        "deadline": min(booking.payment_due_at for booking, _ in due if booking.payment_due_at),
        "island_props": props,
        "local_stripe": _local_stripe(),
    }
    return render(request, "payments/pay_series.html", context)


@login_required
def pay_registration(request, registration_id: int):
    """The payment page of the place in a program held for the signed-in person (anyone else's:
    404); once it is no longer held, the program's page."""
    registration = get_object_or_404(request.user.registrations.select_related("program"), pk=registration_id)
    program = registration.program
    held_until = registration.held_until
    if registration.status != Registration.Status.HELD or not held_until or held_until <= timezone.now():
        messages.info(request, "This place is no longer waiting for your payment.")
        return redirect("programs:detail", program.pk)
    props = {
        **_card_form(request, registration.price),
        "intentUrl": reverse("api-registration-payment-intent", args=[registration.pk]),
        "intentBody": {},
        "doneUrl": reverse("programs:detail", args=[program.pk]),
    }
    context = {
        "registration": registration,
        "program": program,
        "island_props": props,
        "local_stripe": _local_stripe(),
    }
    return render(request, "payments/pay_registration.html", context)


@member_required
def history(request):
    page = page_of(request, payment_list(viewer=request.user, email=request.user.email))
    return render(request, "payments/history.html", {"page": page})


@login_required
def receipt(request, payment_id: int):
    """A payment's receipt, for its payer and the admins (anyone else: 404)."""
    payment = get_object_or_404(payment_list(viewer=request.user), pk=payment_id)
    return render(request, "payments/receipt.html", {"payment": payment})


@admin_required
def ledger_page(request):
    """The ledger (docs/rules.md, The ledger), with the totals of the whole filtered set."""
    filters = LedgerFilters(request.GET)
    books = Ledger(**filters.filters())
    by_kind = books.totals()
    moved = [(kind, kind_takings) for kind, kind_takings in by_kind.items() if kind_takings != Takings()]
    context = {
        "filters": filters,
        "totals": sum(by_kind.values(), Takings()),
        # Each kind's share, when money moved for more than one.
        "kind_totals": moved if len(moved) > 1 else [],
        "discounts": books.discounts(),
        "page": page_of(request, books),
        "query": filters.data.urlencode(),  # this month's first day included when it was assumed
    }
    return render(request, "payments/ledger.html", context)


CSV_ROWS_PER_PART = 500


def _moment(value) -> str:
    return timezone.localtime(value).isoformat() if value else ""


# The CSV's columns: heading, the ledger entry's field, and how it is written when not as it is.
LEDGER_COLUMNS = [
    ("Entry", "kind", str.capitalize),
    ("Kind", "paid_for", lambda kind: Kind(kind).label),
    ("When", "at", _moment),
    ("Payment", "payment_number", None),
    ("Refund", "refund_number", None),
    ("Paid at", "payment_paid_at", _moment),
    ("Person", "person", None),
    ("Booking", "booking_number", None),
    ("Court", "court_name", None),
    ("Date", "booking_date", date.isoformat),
    ("Slots", "slots", slots_label),
    ("Membership", "membership_number", None),
    ("Plan", "plan_name", None),
    ("Program", "program_title", None),
    ("Period from", "period_from", _moment),
    ("Period to", "period_to", _moment),
    ("List price", "list_price", None),
    ("Coupon", "coupon_code", None),
    ("Discount", "coupon_discount", None),
    ("Amount", "money", None),
    ("Currency", "currency_code", str.upper),
    ("Status", "shown_status", lambda status: PaidStatus(status).label),
    ("Stripe PaymentIntent", "intent_id", None),
    ("Stripe invoice", "invoice_id", None),
    ("Stripe refund", "refund_stripe_id", None),
]


# Where a spreadsheet may start a cell in a text (a ";" is not quoted in a CSV, yet may split cells),
# followed by what starts a formula.
_FORMULA_START = re.compile(r"(^|[;,\t\r\n])(?=\s*[=+\-@])")


def _cell(value):
    """A value as the CSV writes it: money to the cent; text with an apostrophe before each part
    that starts like a formula, so a spreadsheet reads it as text (OWASP, CSV injection)."""
    if value is None:
        return ""
    if isinstance(value, Decimal):
        return f"{value:.2f}"
    if isinstance(value, str):
        return _FORMULA_START.sub(r"\1'", value)
    return value


@admin_required
def ledger_csv(request):
    """The filtered ledger as CSV, streamed, CSV_ROWS_PER_PART rows at a time: the gzip middleware
    compresses and flushes each part, and a row alone compresses badly. A malformed filter is a 400:
    a file without it could pass for the one asked for."""
    filters = LedgerFilters(request.GET)
    if not filters.is_valid():
        refusals = (f"{filters[name].label}: {' '.join(said)}" for name, said in filters.errors.items())
        return HttpResponseBadRequest("\n".join(refusals), content_type="text/plain; charset=utf-8")
    entries = Ledger(**filters.filters()).entries().iterator(chunk_size=2000)
    # A "file" that hands back each row csv.writer writes to it, to be streamed.
    writer = csv.writer(SimpleNamespace(write=lambda row: row))

    def line(entry: dict) -> str:
        # A booking's columns are empty in a membership's row, and a membership's in a booking's.
        values = ((entry[field], write) for _, field, write in LEDGER_COLUMNS)
        return writer.writerow(
            [_cell(write(value) if write and value is not None else value) for value, write in values]
        )

    parts = ("".join(map(line, part)) for part in batched(entries, CSV_ROWS_PER_PART))
    header = writer.writerow([heading for heading, _, _ in LEDGER_COLUMNS])
    response = StreamingHttpResponse(chain([header], parts), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="ledger-{timezone.localdate().isoformat()}.csv"'
    return response


@admin_required
def manage_coupons(request):
    props = {
        "coupons": CouponOutput(Coupon.objects.all(), many=True).data,
        "createUrl": reverse("api-coupons"),
        "bounds": input_bounds(CouponInput()),
    }
    return island_page(request, heading="Manage Coupons", island="coupons-admin", props=props)
