from datetime import date as Date

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone

from kernel.days import weekly
from kernel.slots import slots_label
from kernel.states import StatusMachine
from kernel.text import validate_one_line


class Program(StatusMachine):
    """A lesson, clinic, camp or event of the club (programs/services.py): people register for its
    places, and pay for them; its courts' slots are held for it by blocks, on one day or weekly."""

    class Kind(models.TextChoices):
        LESSON = "lesson", "Lesson"
        CLINIC = "clinic", "Clinic"
        CAMP = "camp", "Camp"
        EVENT = "event", "Event"

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        # Called off by the club: every registration was cancelled and refunded, its slots freed.
        CANCELLED = "cancelled", "Cancelled"

    TRANSITIONS = {Status.OPEN: {Status.CANCELLED}}

    kind = models.CharField(max_length=10, choices=Kind.choices)
    title = models.CharField(max_length=100, validators=[validate_one_line])
    description = models.TextField(blank=True, max_length=2000)
    coach = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="coached_programs",
        help_text="A person of the club who coaches it: they see its participants and write to them.",
    )
    coach_name = models.CharField(
        max_length=100, blank=True, validators=[validate_one_line], help_text="A coach from outside the club."
    )
    # One block per court, holding the program's slots on each of its days.
    blocks = models.ManyToManyField("bookings.Block", related_name="programs", blank=True)
    first_date = models.DateField(help_text="Its first (or only) day.")
    until = models.DateField(null=True, blank=True, help_text="Weekly until this day; empty for one day.")
    slots = models.JSONField(help_text="Its slots on each of its days, on each of its courts.")
    starts_at = models.DateTimeField(help_text="When its first slot begins on its first day.")
    capacity = models.PositiveSmallIntegerField(validators=[MinValueValidator(1), MaxValueValidator(500)])
    price = models.DecimalField(
        max_digits=8,
        decimal_places=2,
        validators=[MinValueValidator(0)],
        help_text="Per participant; a plan's percent off applies to its holders. 0: free.",
    )
    registration_opens_at = models.DateTimeField()
    registration_closes_at = models.DateTimeField()
    members_only = models.BooleanField(default=False, help_text="Only members (and admins) may register.")
    cancel_cutoff_hours = models.PositiveSmallIntegerField(
        default=24,
        validators=[MaxValueValidator(720)],
        help_text="A participant who cancels this many hours or more before it begins is refunded in "
        "full; later, nothing.",
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["starts_at", "id"]
        # /programs: the open ones whose registration has not closed, soonest first.
        indexes = [models.Index(fields=["status", "registration_closes_at"], name="program_open")]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(registration_closes_at__gt=models.F("registration_opens_at")),
                name="program_registration_closes_after_it_opens",
            ),
            models.CheckConstraint(
                condition=models.Q(until__isnull=True) | models.Q(until__gte=models.F("first_date")),
                name="program_until_after_first_date",
            ),
            models.CheckConstraint(condition=models.Q(price__gte=0), name="program_price_not_negative"),
            models.CheckConstraint(condition=models.Q(capacity__gte=1), name="program_capacity_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.title}"

    @property
    def coach_shown(self) -> str:
        """The coach as everyone sees them: a person's public name, or the name given."""
        return self.coach.public_name if self.coach is not None else self.coach_name

    @property
    def dates(self) -> list[Date]:
        return weekly(self.first_date, self.until)

    @property
    def slots_label(self) -> str:
        return slots_label(self.slots)


class Registration(StatusMachine):
    """A person's place in a program, or on its waitlist (programs/services.py)."""

    class Status(models.TextChoices):
        WAITING = "waiting", "On the waitlist"
        # A place held for the person until `held_until`, to pay for: on registering, or offered
        # from the waitlist.
        HELD = "held", "Held for payment"
        CONFIRMED = "confirmed", "Registered"
        CANCELLED = "cancelled", "Cancelled"
        # The hold ran out unpaid, or the program began before the waitlist's turn came.
        LAPSED = "lapsed", "Lapsed"

    TRANSITIONS = {
        Status.WAITING: {Status.HELD, Status.CONFIRMED, Status.CANCELLED, Status.LAPSED},
        Status.HELD: {Status.CONFIRMED, Status.CANCELLED, Status.LAPSED},
        Status.CONFIRMED: {Status.CANCELLED},
        # A payment that succeeds just after its hold ran out keeps the place if one is free
        # (payments.services refunds it otherwise).
        Status.LAPSED: {Status.CONFIRMED},
    }
    # The statuses that take a place (a hold only until it runs out).
    TAKING = (Status.HELD, Status.CONFIRMED)
    ACTIVE = (Status.WAITING, Status.HELD, Status.CONFIRMED)

    program = models.ForeignKey(Program, on_delete=models.PROTECT, related_name="registrations")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="registrations")
    status = models.CharField(max_length=10, choices=Status.choices)
    price = models.DecimalField(
        max_digits=8, decimal_places=2, help_text="What the person pays: the program's price to them."
    )
    held_until = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    cancelled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "id"]
        # A program's places and its line, in the order people came.
        indexes = [models.Index(fields=["program", "status", "created_at"], name="registration_line")]
        constraints = [
            models.UniqueConstraint(
                fields=["program", "user"],
                condition=models.Q(status__in=["waiting", "held", "confirmed"]),
                name="one_registration_per_person",
            ),
            models.CheckConstraint(condition=models.Q(price__gte=0), name="registration_price_not_negative"),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.program} ({self.status})"
