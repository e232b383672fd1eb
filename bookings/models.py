from datetime import datetime, timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone


class Booking(models.Model):
    """A request for one court, on one date, for one or more of its slots."""

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        APPROVED = "approved", "Approved"
        CONFIRMED = "confirmed", "Confirmed"
        REJECTED = "rejected", "Rejected"
        CANCELLED = "cancelled", "Cancelled"
        EXPIRED = "expired", "Expired"

    # The statuses in which a booking holds its slots; any other releases them.
    HOLDING = (Status.PENDING, Status.APPROVED, Status.CONFIRMED)

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="bookings")
    court = models.ForeignKey("courts.Court", on_delete=models.PROTECT, related_name="bookings")
    court_name = models.CharField(max_length=100, help_text="The court's name (else its type) when booked.")
    date = models.DateField()
    slots = models.JSONField(help_text="The booked slots, in the court's order.")
    starts_at = models.DateTimeField(help_text="When its first slot begins.")
    price = models.DecimalField(max_digits=10, decimal_places=2)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    approved_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["date", "id"]
        # The booking lists: one status in date order (filtered by dates too), or one person's.
        # (One court's are read from the foreign key's own index.)
        indexes = [
            models.Index(fields=["status", "date", "id"], name="booking_list"),
            models.Index(fields=["user", "status", "date", "id"], name="booking_list_by_user"),
        ]
        constraints = [models.CheckConstraint(condition=models.Q(price__gt=0), name="booking_price_positive")]

    def __str__(self) -> str:
        return f"{self.court_name} on {self.date} ({', '.join(self.slots)}) for {self.user}"

    @property
    def slots_label(self) -> str:
        return ", ".join(self.slots) if self.slots else "N/A"

    @property
    def payment_deadline(self) -> datetime | None:
        """When an approved booking expires unless it is paid (docs/rules.md)."""
        if self.status != self.Status.APPROVED or self.approved_at is None:
            return None
        return self.approved_at + timedelta(hours=settings.BOOKING_PAYMENT_WINDOW_HOURS)


class BookedSlot(models.Model):
    """One slot a booking holds. A row exists only while its booking holds the slot, and the
    database allows one row per court, date and slot: two bookings can never hold the same slot,
    however many app processes race for it."""

    booking = models.ForeignKey(Booking, on_delete=models.CASCADE, related_name="held_slots")
    court = models.ForeignKey("courts.Court", on_delete=models.PROTECT)
    date = models.DateField()
    slot = models.CharField(max_length=11)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["court", "date", "slot"], name="one_booking_per_slot")]

    def __str__(self) -> str:
        return f"{self.slot} on {self.date}"


class BookingStatusChange(models.Model):
    """The history of a booking: one row per transition (who, when, from, to)."""

    booking = models.ForeignKey(Booking, on_delete=models.CASCADE, related_name="history")
    from_status = models.CharField(max_length=10, blank=True)
    to_status = models.CharField(max_length=10)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True)
    at = models.DateTimeField(default=timezone.now)
    reason = models.CharField(max_length=500, blank=True, help_text="Why, as the admin told the owner.")

    class Meta:
        ordering = ["at", "id"]

    def __str__(self) -> str:
        return f"{self.from_status or 'new'} → {self.to_status}"


class CalendarFeed(models.Model):
    """A person's private calendar feed. Calendar apps fetch it without a session, so the secret in
    its address is the only key to it; replacing the secret retires the old address."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="calendar_feed"
    )
    secret = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    def __str__(self) -> str:
        return f"Calendar feed of {self.user}"
