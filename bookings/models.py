from datetime import datetime, timedelta

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
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


class Policy(models.Model):
    """The club's booking rules, in one row that admins edit (GET/PATCH /api/policy, Django admin).
    The booking services read it on every request; a new club's row takes the settings' values."""

    advance_days_user = models.PositiveSmallIntegerField(
        validators=[MaxValueValidator(365)], help_text="How many days ahead a user (not a member) may book."
    )
    advance_days_member = models.PositiveSmallIntegerField(
        validators=[MaxValueValidator(365)], help_text="How many days ahead a member (or an admin) may book."
    )
    open_bookings_limit = models.PositiveSmallIntegerField(
        validators=[MinValueValidator(1), MaxValueValidator(100)],
        help_text="How many open bookings (waiting for a decision or for payment) one person may hold.",
    )
    daily_hours_limit = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(24)],
        help_text="How many hours of courts one person may hold on one day; empty for no limit.",
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "policy"
        constraints = [models.CheckConstraint(condition=models.Q(pk=1), name="policy_one_row")]

    def __str__(self) -> str:
        return "The club's booking policy"

    def advance_days(self, user) -> int:
        """A member books further ahead than a user; an admin as far as a member; a visitor (who
        must sign in to book) is shown a user's window."""
        return (
            self.advance_days_member
            if getattr(user, "role", None) in ("member", "admin")
            else self.advance_days_user
        )
