from django.conf import settings
from django.db import models
from django.utils import timezone


class Payment(models.Model):
    """One attempt to pay for a booking by card: a Stripe PaymentIntent, and what became of it."""

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"  # the PaymentIntent exists; no money has moved
        SUCCEEDED = "succeeded", "Succeeded"
        REFUNDED = "refunded", "Refunded"  # paid, but the booking could not be kept

    booking = models.ForeignKey("bookings.Booking", on_delete=models.PROTECT, related_name="payments")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="payments")
    amount = models.DecimalField(
        max_digits=10, decimal_places=2, help_text="What is charged, after any discount."
    )
    currency = models.CharField(max_length=3)
    coupon = models.ForeignKey("content.Coupon", on_delete=models.SET_NULL, null=True, blank=True)
    discount = models.PositiveSmallIntegerField(default=0, help_text="The coupon's percent when used.")
    payment_intent_id = models.CharField(max_length=255, unique=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    paid_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.amount} {self.currency.upper()} for booking {self.booking_id} ({self.status})"

    @property
    def amount_cents(self) -> int:
        return int(self.amount * 100)
