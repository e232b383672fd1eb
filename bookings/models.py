from datetime import date as Date
from datetime import datetime
from typing import TYPE_CHECKING

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone

from accounts.models import level_field
from kernel.bounds import BOOKINGS_AT_ONCE, DAYS_AHEAD, HOURS_A_DAY, HOURS_A_WEEK
from kernel.days import weekly
from kernel.slots import slots_label
from kernel.states import StatusMachine
from kernel.text import validate_one_line

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser

    from accounts.models import User


class Series(models.Model):
    """The same slots of one court booked every week, or every few weeks, from one date to another
    (bookings/series.py). Each date is a booking of its own, its occurrence."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="series")
    court = models.ForeignKey("courts.Court", on_delete=models.PROTECT, related_name="series")
    slots = models.JSONField(help_text="The slots booked on each date, in the court's order.")
    first_date = models.DateField()
    last_date = models.DateField(help_text="No occurrence comes after it.")
    every_weeks = models.PositiveSmallIntegerField(
        default=1, validators=[MinValueValidator(1), MaxValueValidator(4)], help_text="1: weekly."
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        verbose_name_plural = "series"
        ordering = ["first_date", "id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(last_date__gte=models.F("first_date")), name="series_ends_after_it_begins"
            ),
            models.CheckConstraint(
                condition=models.Q(every_weeks__gte=1, every_weeks__lte=4), name="series_every_1_to_4_weeks"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.repeats}: {self.court} at {slots_label(self.slots)} from {self.first_date}"

    @property
    def repeats(self) -> str:
        """How often it comes back, as shown: "Weekly", "Every 2 weeks"."""
        return "Weekly" if self.every_weeks == 1 else f"Every {self.every_weeks} weeks"

    @property
    def on(self) -> str:
        """Which days, as shown: "every Tuesday", "every 2 weeks on Tuesday"."""
        weekday = f"{self.first_date:%A}"
        return f"every {weekday}" if self.every_weeks == 1 else f"every {self.every_weeks} weeks on {weekday}"

    @property
    def dates(self) -> list[Date]:
        """Every date it repeats on, those that were skipped or cancelled included."""
        return weekly(self.first_date, self.last_date, every_weeks=self.every_weeks)


class Booking(StatusMachine):
    """A request for one court, on one date, for one or more of its slots; perhaps one occurrence
    of a series."""

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        APPROVED = "approved", "Approved"
        CONFIRMED = "confirmed", "Confirmed"
        REJECTED = "rejected", "Rejected"
        CANCELLED = "cancelled", "Cancelled"
        EXPIRED = "expired", "Expired"

    TRANSITIONS = {
        Status.PENDING: {Status.APPROVED, Status.REJECTED, Status.CANCELLED, Status.EXPIRED},
        Status.APPROVED: {Status.CONFIRMED, Status.CANCELLED, Status.EXPIRED},
        # Before it starts, with the refund the policy gives (bookings.services.booking_cancel).
        Status.CONFIRMED: {Status.CANCELLED},
        # A payment that succeeds just after its booking expired keeps the booking if its slots are
        # still free (payments.services.payment_confirm refunds it otherwise).
        Status.EXPIRED: {Status.CONFIRMED},
    }
    # The statuses in which a booking holds its slots; any other releases them.
    HOLDING = (Status.PENDING, Status.APPROVED, Status.CONFIRMED)

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="bookings")
    court = models.ForeignKey("courts.Court", on_delete=models.PROTECT, related_name="bookings")
    court_name = models.CharField(max_length=100, help_text="The court's name (else its type) when booked.")
    series = models.ForeignKey(
        Series, on_delete=models.PROTECT, null=True, blank=True, related_name="occurrences"
    )
    date = models.DateField()
    slots = models.JSONField(help_text="The booked slots, in the court's order.")
    starts_at = models.DateTimeField(help_text="When its first slot begins.")
    price = models.DecimalField(
        max_digits=10, decimal_places=2, help_text="What it costs, its guests' fees included."
    )
    guest_fees = models.DecimalField(
        max_digits=10,
        decimal_places=2,
        default=0,
        help_text="The part of the price that is the policy's guest fee, for each guest playing.",
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    # Shared payment: when the organiser was asked to pay what the players left unpaid (once).
    rest_asked_at = models.DateTimeField(null=True, blank=True, editable=False)
    approved_at = models.DateTimeField(null=True, blank=True)
    payment_due_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When an approved booking expires unless it is paid: the payment window after an "
        "admin's approval, or the checkout hold of an instant booking.",
    )

    class Meta:
        ordering = ["date", "id"]
        # The booking lists: one status in date order, or one person's. The day sheet: one day's.
        indexes = [
            models.Index(fields=["status", "date", "id"], name="booking_list"),
            models.Index(fields=["user", "status", "date", "id"], name="booking_list_by_user"),
            # The total of everyone's in a status (the admins' lists), counted from this index alone:
            # a tenth of booking_list's pages, as each status is one entry with its rows.
            models.Index(fields=["status"], name="booking_list_total"),
            models.Index(fields=["date"], name="booking_by_date"),
            models.Index(fields=["series", "date"], name="booking_by_series"),
        ]
        constraints = [models.CheckConstraint(condition=models.Q(price__gt=0), name="booking_price_positive")]

    def __str__(self) -> str:
        return f"{self.court_name} on {self.date} ({self.slots_label}) for {self.user}"

    # The note that bookings.services.booking_move gives its moves (the base takes any).
    def moved(  # type: ignore[override]
        self, from_status: str, *, by: "User | None", at: datetime, reason: str = ""
    ) -> None:
        self.history.create(from_status=from_status, to_status=self.status, by=by, at=at, reason=reason)

    @property
    def slots_label(self) -> str:
        return slots_label(self.slots)

    @property
    def payment_deadline(self) -> datetime | None:
        """When an approved booking expires unless it is paid (docs/rules.md)."""
        return self.payment_due_at if self.status == self.Status.APPROVED else None


class Player(StatusMachine):
    """Someone who plays in a booking besides the person who made it (its organiser,
    `Booking.user`): a person of the club the organiser chose by name, someone they invited by
    e-mail (playing once they accept), or a guest they named (bookings/players.py)."""

    class Kind(models.TextChoices):
        PERSON = "person", "Person of the club"
        INVITED = "invited", "Invited by e-mail"
        GUEST = "guest", "Guest"

    class Status(models.TextChoices):
        INVITED = "invited", "Invited"
        PLAYING = "playing", "Playing"

    # An invitation declined is deleted (its organiser is told), as is a player taken off the list.
    TRANSITIONS = {Status.INVITED: {Status.PLAYING}}

    booking = models.ForeignKey(Booking, on_delete=models.CASCADE, related_name="players")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLAYING)
    # The person playing: chosen by name, or who accepted an invitation; none for a guest, or an
    # invitation not yet answered.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="playing"
    )
    # The address an invitation went to.
    email = models.EmailField(blank=True)
    # A guest's name, as the organiser gave it.
    name = models.CharField(max_length=100, blank=True, validators=[validate_one_line])
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["created_at", "id"]
        # The bookings a person plays in (their lists, their calendar, the limits on their hours).
        indexes = [models.Index(fields=["user", "status"], name="player_by_user")]
        constraints = [
            models.UniqueConstraint(
                fields=["booking", "user"],
                condition=models.Q(user__isnull=False),
                name="one_place_per_person",
            ),
            models.UniqueConstraint(
                fields=["booking", "email"], condition=~models.Q(email=""), name="one_invitation_per_address"
            ),
            models.CheckConstraint(
                condition=(
                    models.Q(kind="person", user__isnull=False, status="playing")
                    | models.Q(kind="invited", status="invited", user__isnull=True)
                    | models.Q(kind="invited", status="playing", user__isnull=False)
                    | models.Q(kind="guest", user__isnull=True, status="playing")
                ),
                name="player_kind_matches",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.shown_name} in {self.booking}"

    @property
    def shown_name(self) -> str:
        """What the other players see: a person's name, a guest's, or the address invited."""
        if self.user is not None:
            return self.user.public_name
        return self.name or self.email

    @property
    def listed_name(self) -> str:
        """The shown name in a list of who plays, a guest's marked as one."""
        return f"{self.shown_name} (guest)" if self.kind == self.Kind.GUEST else self.shown_name


class Match(models.Model):
    """A booking its organiser opened to others (bookings/matches.py): people of the club find it
    on /matches and join it while places are left, until its deadline."""

    booking = models.OneToOneField(Booking, on_delete=models.CASCADE, related_name="match")
    places = models.PositiveSmallIntegerField(help_text="How many play in all, the organiser included.")
    level_min = level_field()
    level_max = level_field()
    deadline = models.DateTimeField(
        help_text="When it must be full, or it is called off (unless played anyway)."
    )
    play_anyway = models.BooleanField(
        default=False, help_text="Played however many have joined by the deadline, rather than called off."
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        verbose_name_plural = "matches"
        # The open matches (/matches), and those whose deadline has come.
        indexes = [models.Index(fields=["deadline"], name="match_by_deadline")]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(level_min__isnull=True)
                | models.Q(level_max__isnull=True)
                | models.Q(level_max__gte=models.F("level_min")),
                name="match_level_range_in_order",
                violation_error_message="The highest level is at least the lowest.",
            ),
            models.CheckConstraint(condition=models.Q(places__gte=2), name="match_for_two_or_more"),
        ]

    def __str__(self) -> str:
        return f"Open match: {self.booking}"

    @property
    def levels(self) -> str:
        """The levels it is for, as shown: "3.0–4.5", "3.0 and up", "up to 4.5", or "any"."""
        low, high = self.level_min, self.level_max
        if low is not None and high is not None:
            return f"{low}–{high}"
        if low is not None:
            return f"{low} and up"
        return f"up to {high}" if high is not None else "any"


class Block(models.Model):
    """Slots of a court the club keeps for itself, on one day or weekly until `until`."""

    court = models.ForeignKey("courts.Court", on_delete=models.PROTECT, related_name="blocks")
    date = models.DateField(help_text="The first (or only) day.")
    until = models.DateField(null=True, blank=True, help_text="Weekly until this day; empty for one day.")
    slots = models.JSONField(help_text="The blocked slots, in the court's order.")
    reason = models.CharField(
        max_length=200,
        validators=[validate_one_line],
        help_text="Shown in the day sheet: why the court is closed.",
    )
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["date", "id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(until__isnull=True) | models.Q(until__gte=models.F("date")),
                name="block_until_after_date",
            )
        ]

    def __str__(self) -> str:
        weekly = f", weekly until {self.until}" if self.until else ""
        return f"{self.reason}: {slots_label(self.slots)} on {self.date}{weekly}"

    @property
    def dates(self) -> list[Date]:
        return weekly(self.date, self.until)


class WaitlistEntry(StatusMachine):
    """A person waiting for one taken slot of a court on a day (bookings/waitlist.py)."""

    class Status(models.TextChoices):
        WAITING = "waiting", "Waiting"
        OFFERED = "offered", "Offered"
        BOOKED = "booked", "Booked"
        # The offer ran out unanswered, or the slot was never freed before it began.
        LAPSED = "lapsed", "Lapsed"
        LEFT = "left", "Left"

    TRANSITIONS = {
        Status.WAITING: {Status.OFFERED, Status.LAPSED, Status.LEFT},
        Status.OFFERED: {Status.BOOKED, Status.LAPSED, Status.LEFT},
    }
    ACTIVE = (Status.WAITING, Status.OFFERED)

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="waitlist")
    court = models.ForeignKey("courts.Court", on_delete=models.CASCADE, related_name="waitlist")
    date = models.DateField()
    slot = models.CharField(max_length=11)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    offered_at = models.DateTimeField(null=True, blank=True)
    offer_expires_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "id"]
        verbose_name_plural = "waitlist entries"
        indexes = [models.Index(fields=["court", "date", "slot", "status"], name="waitlist_line")]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "court", "date", "slot"],
                condition=models.Q(status__in=["waiting", "offered"]),
                name="one_waitlist_place_per_person",
            )
        ]

    def __str__(self) -> str:
        return f"{self.user} waiting for {self.slot} on {self.date}"


class BookedSlot(models.Model):
    """One slot held by a booking, a block or a waitlist offer, while it holds it. The database
    allows one row per court, date and slot: however many processes race, one holder wins."""

    booking = models.ForeignKey(Booking, on_delete=models.CASCADE, null=True, related_name="held_slots")
    block = models.ForeignKey(Block, on_delete=models.CASCADE, null=True, related_name="held_slots")
    offer = models.ForeignKey(WaitlistEntry, on_delete=models.CASCADE, null=True, related_name="held_slots")
    court = models.ForeignKey("courts.Court", on_delete=models.PROTECT)
    date = models.DateField()
    slot = models.CharField(max_length=11)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["court", "date", "slot"], name="one_booking_per_slot"),
            models.CheckConstraint(
                condition=(
                    models.Q(booking__isnull=False, block__isnull=True, offer__isnull=True)
                    | models.Q(booking__isnull=True, block__isnull=False, offer__isnull=True)
                    | models.Q(booking__isnull=True, block__isnull=True, offer__isnull=False)
                ),
                name="held_slot_one_holder",
            ),
        ]
        # The dashboard's occupancy: every court's held slots on one day.
        indexes = [models.Index(fields=["date"], name="held_slot_by_date")]

    def __str__(self) -> str:
        return f"{self.slot} on {self.date}"


class BookingStatusChange(models.Model):
    """The history of a booking: one row per move."""

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
    """A person's private calendar feed: the secret in its address is the only key to it."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="calendar_feed"
    )
    secret = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    def __str__(self) -> str:
        return f"Calendar feed of {self.user}"


class Policy(models.Model):
    """The club's booking rules, in one row that admins edit."""

    advance_days_user = models.PositiveSmallIntegerField(
        default=30,
        validators=DAYS_AHEAD,
        help_text="How many days ahead a user (not a member) may book.",
    )
    advance_days_member = models.PositiveSmallIntegerField(
        default=30,
        validators=DAYS_AHEAD,
        help_text="How many days ahead a member (or an admin) may book.",
    )
    open_bookings_limit = models.PositiveSmallIntegerField(
        default=4,
        validators=BOOKINGS_AT_ONCE,
        help_text="How many open bookings (waiting for a decision or for payment) one person may hold.",
    )
    daily_hours_limit = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        validators=HOURS_A_DAY,
        help_text="How many hours of courts one person may hold on one day; empty for no limit.",
    )
    # Unpaid hours are what one person could sit on without spending anything: three hours a day
    # is a long session or two short ones, and twice that a week leaves room for a second day of
    # play while the first waits for an admin or a payment.
    daily_open_hours_limit = models.PositiveSmallIntegerField(
        default=3,
        null=True,
        blank=True,
        validators=HOURS_A_DAY,
        help_text="How many hours of open bookings (waiting for a decision or for payment) one person "
        "may hold on one day; empty for no limit.",
    )
    weekly_open_hours_limit = models.PositiveSmallIntegerField(
        default=6,
        null=True,
        blank=True,
        validators=HOURS_A_WEEK,
        help_text="How many hours of open bookings one person may hold in one week (Monday to Sunday); "
        "empty for no limit.",
    )
    # As long as the default checkout hold: long enough for someone else (or the waitlist's
    # first) to take slots let go, short enough for a person who changed their mind.
    rerequest_cooldown_minutes = models.PositiveSmallIntegerField(
        default=10,
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(1440)],
        help_text="How long a person waits before requesting again slots they let go (withdrew, "
        "cancelled unpaid, or left unpaid past the payment window or checkout hold); empty for no wait.",
    )
    approval_required = models.BooleanField(
        default=True,
        help_text="Whether an admin approves each request before it is paid; if not, a booking is "
        "paid as it is made (instant booking) and its slots are held while the person pays.",
    )
    # A week is long enough to notice the e-mail and find another card, short enough that an unpaid
    # membership does not run on for long.
    membership_grace_days = models.PositiveSmallIntegerField(
        default=7,
        validators=[MinValueValidator(0), MaxValueValidator(60)],
        help_text="How many days a membership whose renewal could not be charged keeps its benefits "
        "while its holder pays with another card.",
    )
    decision_window_hours = models.PositiveSmallIntegerField(
        default=48,
        validators=[MinValueValidator(1), MaxValueValidator(720)],
        help_text="How many hours a request waits for an admin's decision before it expires (sooner if "
        "its first slot begins).",
    )
    payment_window_hours = models.PositiveSmallIntegerField(
        default=24,
        validators=[MinValueValidator(1), MaxValueValidator(720)],
        help_text="How many hours an approved booking waits for its payment before it expires.",
    )
    checkout_hold_minutes = models.PositiveSmallIntegerField(
        default=10,
        validators=[MinValueValidator(2), MaxValueValidator(120)],
        help_text="Instant booking: how long the slots are held for the payment.",
    )
    cancel_cutoff_hours = models.PositiveSmallIntegerField(
        default=24,
        validators=[MaxValueValidator(720)],
        help_text="How many hours before its start a paid booking may be cancelled for the full refund "
        "below; later, for the late refund.",
    )
    refund_percent = models.PositiveSmallIntegerField(
        default=100,
        validators=[MaxValueValidator(100)],
        help_text="The share of the payment given back to a person who cancels before the cut-off.",
    )
    late_refund_percent = models.PositiveSmallIntegerField(
        default=0,
        validators=[MaxValueValidator(100)],
        help_text="The share given back to a person who cancels after the cut-off (until it starts).",
    )

    class PriceSharing(models.TextChoices):
        ORGANISER = "organiser", "The organiser pays the whole price"
        SHARED = "shared", "Each player pays their share"

    price_sharing = models.CharField(
        max_length=10,
        choices=PriceSharing.choices,
        default=PriceSharing.ORGANISER,
        help_text="Who pays for a booking with players: its organiser, or each player their share "
        "(the organiser their guests').",
    )
    guest_fee = models.DecimalField(
        max_digits=6,
        decimal_places=2,
        default=0,
        validators=[MinValueValidator(0), MaxValueValidator(999)],
        help_text="What each guest adds to the price of a booking they play in; 0 for nothing.",
    )

    class SeriesPayment(models.TextChoices):
        PER_DATE = "per_date", "Each date of a series is paid on its own"
        AT_ONCE = "at_once", "Every approved date of a series is paid at once"

    series_payment = models.CharField(
        max_length=10,
        choices=SeriesPayment.choices,
        default=SeriesPayment.AT_ONCE,
        help_text="How a series is paid: each date on its own, as any booking, or every approved date "
        "in one card payment, from the series' section of a date's page.",
    )
    waitlist_hold_minutes = models.PositiveSmallIntegerField(
        default=30,
        validators=[MinValueValidator(5), MaxValueValidator(1440)],
        help_text="How long a freed slot is held for the first person on its waitlist.",
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "policy"
        constraints = [models.CheckConstraint(condition=models.Q(pk=1), name="policy_one_row")]

    def __str__(self) -> str:
        return "The club's booking policy"

    def advance_days(self, user: "User | AnonymousUser") -> int:
        """A member's (and an admin's) window, or a user's (shown to a visitor too)."""
        member = getattr(user, "role", None) in ("member", "admin")
        return self.advance_days_member if member else self.advance_days_user
