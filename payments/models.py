from datetime import date

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone

from kernel.money import to_cents
from kernel.states import StatusMachine
from kernel.text import validate_one_line

DISCOUNT_RULE = "The discount is a whole percent from 1 to 100."
MAX_USES_RULE = "A coupon is used at least once: leave this empty for no limit."
NOT_ON_OFFER = "There is no coupon {code} on offer now."


class Coupon(models.Model):
    """A discount code members use at checkout; each limit left empty (or unticked) does not apply."""

    code = models.CharField(
        max_length=40, unique=True, validators=[validate_one_line], help_text="Saved trimmed and upper-case."
    )
    discount = models.PositiveSmallIntegerField(
        validators=[MinValueValidator(1, DISCOUNT_RULE), MaxValueValidator(100, DISCOUNT_RULE)],
        help_text="A whole percent, from 1 to 100.",
    )
    description = models.CharField(max_length=200, blank=True, validators=[validate_one_line])
    is_active = models.BooleanField(default=True)
    once_per_person = models.BooleanField(
        default=False, help_text="Each person may pay with it once (a refunded payment does not count)."
    )
    # A hundred thousand payments are more than a club takes in years: a larger limit is a slip,
    # and "no limit" is said by leaving it empty.
    max_uses = models.PositiveIntegerField(
        null=True,
        blank=True,
        validators=[MinValueValidator(1, MAX_USES_RULE), MaxValueValidator(100_000)],
        help_text="How many payments it may take in all; empty for no limit.",
    )
    valid_from = models.DateField(null=True, blank=True, help_text="The first day it is accepted.")
    valid_until = models.DateField(null=True, blank=True, help_text="The last day it is accepted.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(discount__gte=1, discount__lte=100),
                name="coupon_discount_1_to_100",
                violation_error_message=DISCOUNT_RULE,
            ),
            models.CheckConstraint(
                condition=models.Q(max_uses__isnull=True) | models.Q(max_uses__gte=1),
                name="coupon_max_uses_at_least_1",
                violation_error_message=MAX_USES_RULE,
            ),
            models.CheckConstraint(
                condition=models.Q(valid_from__isnull=True)
                | models.Q(valid_until__isnull=True)
                | models.Q(valid_until__gte=models.F("valid_from")),
                name="coupon_valid_until_on_or_after_valid_from",
                violation_error_message="The last day comes on or after the first.",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.code} ({self.discount}%)"

    def refusal(self, *, today: date, uses: int, uses_by_person: int) -> str:
        """Why the coupon cannot be used on `today` by a person who has paid with it
        `uses_by_person` times, when everyone has `uses` times; "" when it can. A coupon not on
        offer is refused as a code that is no coupon, so that trying codes tells nobody of the
        club's hidden or coming ones."""
        withdrawn = not self.is_active
        out_of_dates = (self.valid_from and today < self.valid_from) or (
            self.valid_until and today > self.valid_until
        )
        used_up = self.max_uses is not None and uses >= self.max_uses
        if withdrawn or out_of_dates or used_up:
            return NOT_ON_OFFER.format(code=self.code)
        if self.once_per_person and uses_by_person:
            return f"The coupon {self.code} is once per person, and you have used it already."
        return ""


class Payment(StatusMachine):
    """One attempt to pay by card, for a booking, a period of a membership or a place in a program: a Stripe
    PaymentIntent (a renewal's: its invoice's), and what became of it (written before Stripe is asked:
    payments.services; a renewal Stripe charged by itself, when Stripe tells of it: payments.renewals)."""

    class Status(models.TextChoices):
        # Its PaymentIntent can be paid, or is being made (no intent id yet); no money has moved.
        PENDING = "pending", "Pending"
        SUCCEEDED = "succeeded", "Succeeded"
        # Paid, but the booking could not be kept or the coupon no longer held: the refund is due.
        REFUNDING = "refunding", "Refunding"
        REFUNDED = "refunded", "Refunded"
        # Replaced by an intent for other terms (a coupon), or its coupon changed: never paid.
        CANCELLED = "cancelled", "Cancelled"

    # From each status, where a payment may go. A cancelled intent that Stripe says was paid anyway
    # is judged like a pending one.
    TRANSITIONS = {
        Status.PENDING: {Status.SUCCEEDED, Status.REFUNDING, Status.CANCELLED},
        Status.CANCELLED: {Status.SUCCEEDED, Status.REFUNDING},
        Status.REFUNDING: {Status.REFUNDED},
    }
    AWAITING_PAYMENT = {Status.PENDING, Status.CANCELLED}
    # Paid but not kept: its refund is made, or being made.
    GIVEN_BACK = {Status.REFUNDING, Status.REFUNDED}

    booking = models.ForeignKey(
        "bookings.Booking", on_delete=models.PROTECT, null=True, blank=True, related_name="payments"
    )
    membership = models.ForeignKey(
        "memberships.Membership", on_delete=models.PROTECT, null=True, blank=True, related_name="payments"
    )
    # A series paid at once (payments/series_payments.py): one row for each of its dates, all paid
    # by one PaymentIntent; each row is its date's payment, refunded on its own.
    series = models.ForeignKey(
        "bookings.Series", on_delete=models.PROTECT, null=True, blank=True, related_name="payments"
    )
    registration = models.ForeignKey(
        "programs.Registration", on_delete=models.PROTECT, null=True, blank=True, related_name="payments"
    )
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="payments")
    amount = models.DecimalField(
        max_digits=10, decimal_places=2, help_text="What is charged, after any discount."
    )
    currency = models.CharField(max_length=3)
    coupon = models.ForeignKey(Coupon, on_delete=models.SET_NULL, null=True, blank=True)
    discount = models.PositiveSmallIntegerField(default=0, help_text="The coupon's percent when used.")
    # Null until Stripe has answered with the intent, so that the constraints below let several rows
    # wait at once. One row per intent, but for a series paid at once: one row per date.
    payment_intent_id = models.CharField(max_length=255, null=True, blank=True)  # noqa: DJ001
    # A membership's period billed by its Stripe subscription: the invoice, recorded once.
    stripe_invoice_id = models.CharField(max_length=255, unique=True, null=True, blank=True)
    # The membership period a membership's payment pays for.
    period_start = models.DateTimeField(null=True, blank=True)
    period_end = models.DateTimeField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    refund_reason = models.CharField(max_length=300, blank=True, help_text="Why the money was given back.")
    card_last4 = models.CharField(
        max_length=4, blank=True, help_text="The card's last four digits, as Stripe gives them."
    )
    paid_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    # When a pending payment was last compared with its PaymentIntent at Stripe (payment_reconcile).
    stripe_checked_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["-created_at", "-id"]
        # The payment lists, newest first (read backwards): everyone's, or one person's.
        indexes = [
            models.Index(fields=["created_at", "id"], name="payment_list"),
            models.Index(fields=["user", "created_at", "id"], name="payment_list_by_user"),
            # The total of everyone's (payments.selectors.payment_list), counted from this index
            # alone: a twentieth of the table's pages, each status one entry with its rows.
            models.Index(
                fields=["status"],
                condition=~models.Q(status__in=["pending", "cancelled"]),
                name="payment_list_total",
            ),
            # The ledger and the dashboard's money: the payments of some days.
            models.Index(fields=["paid_at"], name="payment_by_paid_at"),
            # The few payments still pending among many, for their reconciliation with Stripe.
            models.Index(fields=["created_at"], condition=models.Q(status="pending"), name="payment_pending"),
            models.Index(fields=["payment_intent_id"], name="payment_by_intent"),
        ]
        constraints = [
            # One for each person paying a booking: its organiser, or each player their share.
            models.UniqueConstraint(
                fields=["booking", "user"],
                condition=models.Q(status="pending"),
                name="one_pending_payment_per_payer",
            ),
            models.UniqueConstraint(
                fields=["membership"],
                condition=models.Q(status="pending"),
                name="one_pending_payment_per_membership",
            ),
            models.CheckConstraint(
                condition=models.Q(booking__isnull=False, membership=None, registration=None)
                | models.Q(booking=None, membership__isnull=False, series=None, registration=None)
                | models.Q(booking=None, membership=None, series=None, registration__isnull=False),
                name="payment_for_a_booking_a_membership_or_a_registration",
            ),
            models.UniqueConstraint(
                fields=["registration"],
                condition=models.Q(status="pending"),
                name="one_pending_payment_per_registration",
            ),
            models.UniqueConstraint(
                fields=["payment_intent_id"], condition=models.Q(series=None), name="one_payment_per_intent"
            ),
            models.UniqueConstraint(fields=["payment_intent_id", "booking"], name="one_date_per_intent"),
        ]

    def __str__(self) -> str:
        what = f"booking {self.booking_id}" if self.booking_id else f"membership {self.membership_id}"
        return f"{self.amount} {self.currency.upper()} for {what} ({self.status})"

    @property
    def amount_cents(self) -> int:
        return to_cents(self.amount)


class Refund(StatusMachine):
    """Money given back on a payment, in full or in part: for a booking cancelled after it was paid
    (the policy's share), or for a payment that could not be kept (payments.services.refund_send)."""

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        # Claimed by the one caller asking Stripe; after REFUND_STALL_SECONDS, pending again.
        SENDING = "sending", "Sending"
        SUCCEEDED = "succeeded", "Succeeded"
        # Stripe refused it: an admin tries it again. One Stripe did not answer is pending again.
        FAILED = "failed", "Failed"

    TRANSITIONS = {
        Status.PENDING: {Status.SENDING},
        Status.SENDING: {Status.SUCCEEDED, Status.PENDING, Status.FAILED},
        Status.FAILED: {Status.PENDING},
    }

    payment = models.ForeignKey(Payment, on_delete=models.PROTECT, related_name="refunds")
    amount = models.DecimalField(max_digits=10, decimal_places=2)
    reason = models.CharField(max_length=300)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    stripe_refund_id = models.CharField(max_length=255, blank=True)
    error = models.CharField(max_length=500, blank=True, help_text="Why the last try failed.")
    attempts = models.PositiveSmallIntegerField(default=0)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    # When a pending refund is next tried: later after each try Stripe did not answer.
    next_attempt_at = models.DateTimeField(default=timezone.now, editable=False)
    claimed_at = models.DateTimeField(null=True, blank=True, editable=False)
    refunded_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [
            models.Index(fields=["status", "created_at"], name="refund_by_status"),
            # The ledger's and the books' refunds: those made on some days.
            models.Index(fields=["status", "refunded_at"], name="refund_by_refunded_at"),
        ]
        constraints = [
            models.CheckConstraint(condition=models.Q(amount__gt=0), name="refund_amount_positive")
        ]

    def __str__(self) -> str:
        return f"Refund of {self.amount} on payment {self.payment_id} ({self.status})"

    @property
    def amount_cents(self) -> int:
        return to_cents(self.amount)
