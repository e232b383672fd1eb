from datetime import datetime
from decimal import Decimal
from typing import Any, cast

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone

from courts.models import SESSION_PRICE_BOUNDS
from kernel.bounds import BOOKINGS_AT_ONCE, DAYS_AHEAD, HOURS_A_DAY, HOURS_A_WEEK
from kernel.days import add_months, moments
from kernel.money import discounted
from kernel.states import StatusMachine
from kernel.text import validate_one_line

# A plan costs what a club asks for a month, a year or a season, hundreds at most thousands: a price
# above the upper bound is a slip (a decimal point missed, a zero too many) people would be charged.
PLAN_PRICE_BOUNDS = [MinValueValidator(Decimal("0.01")), MaxValueValidator(Decimal("100000"))]

NAME_TAKEN = "There is already a plan with this name."
SEASON_DATES_NEEDED = "A season plan has its first and last day."
SEASON_DATES_ONLY = "Only a season plan has dates: leave them empty."
SEASON_ENDS_AFTER_START = "The season ends after it starts."
SEASON_DOES_NOT_RENEW = "A season plan ends with its season: it does not renew."
MEMBER_PRICE_NEEDED = "Please enter the member price."
MEMBER_PRICE_NOT_USED = "Leave the member price empty when members pay the court's price."
LOWEST_SESSION_PRICE, HIGHEST_SESSION_PRICE = (bound.limit_value for bound in SESSION_PRICE_BOUNDS)
FIXED_PRICE_RULE = f"A member price is from {LOWEST_SESSION_PRICE} to {HIGHEST_SESSION_PRICE}, as a court's."
# A hundred percent off would make bookings free, and a booking is what is paid for.
PERCENT_RULE = "The percent off is a whole number from 1 to 99."


def _limit(bounds: list[Any], what: str) -> models.PositiveSmallIntegerField[int | None, int | None]:
    """A benefit's limit: `what` a holder may do, or, empty, what the club's rules let anyone."""
    return models.PositiveSmallIntegerField(
        null=True, blank=True, validators=bounds, help_text=f"{what}; empty for the club's rule."
    )


class Plan(models.Model):
    """A membership a club sells, and what its holders get: each limit left empty is the club's own
    rule (the booking policy's) for its holders."""

    class Period(models.TextChoices):
        MONTHLY = "monthly", "Monthly"
        YEARLY = "yearly", "Yearly"
        SEASON = "season", "Season"

    class MemberPriceKind(models.TextChoices):
        NONE = "none", "The court's price"
        FIXED = "fixed", "A fixed price per slot"
        PERCENT = "percent", "A percent off the court's price"

    name = models.CharField(
        max_length=100, unique=True, validators=[validate_one_line], error_messages={"unique": NAME_TAKEN}
    )
    description = models.CharField(max_length=500, blank=True, validators=[validate_one_line])
    price = models.DecimalField(
        "price per period", max_digits=10, decimal_places=2, validators=PLAN_PRICE_BOUNDS
    )
    period = models.CharField(max_length=10, choices=Period.choices)
    season_starts_on = models.DateField(null=True, blank=True, help_text="A season plan's first day.")
    season_ends_on = models.DateField(null=True, blank=True, help_text="A season plan's last day.")
    renews_automatically = models.BooleanField(
        default=False, help_text="Charged again at each period's end until cancelled (not a season plan)."
    )
    on_sale = models.BooleanField(default=True, help_text="Offered to people; a plan off sale is kept.")
    member_price_kind = models.CharField(
        max_length=10, choices=MemberPriceKind.choices, default=MemberPriceKind.NONE
    )
    member_price_value = models.DecimalField(
        max_digits=10,
        decimal_places=2,
        null=True,
        blank=True,
        help_text="The price per slot (fixed) or the percent off (percent); empty for the court's price.",
    )
    # The limits bounded as the club's rules are (bookings.Policy), each empty for the club's rule.
    booking_window_days = _limit(DAYS_AHEAD, "How many days ahead a holder may book")
    open_bookings_limit = _limit(BOOKINGS_AT_ONCE, "How many open bookings a holder may hold")
    hours_per_day = _limit(HOURS_A_DAY, "How many hours of courts a holder may hold on one day")
    hours_per_week = _limit(HOURS_A_WEEK, "How many hours of courts a holder may hold in one week")
    peak_hours_per_week = _limit(HOURS_A_WEEK, "How many peak hours a holder may hold in one week")
    members_only_hours = models.BooleanField(
        default=False, help_text="Whether its holders may book the members-only hours."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]
        constraints = [
            models.CheckConstraint(condition=models.Q(price__gt=0), name="plan_price_positive"),
            models.CheckConstraint(
                condition=models.Q(period="season", season_starts_on__lt=models.F("season_ends_on"))
                | models.Q(~models.Q(period="season"), season_starts_on=None, season_ends_on=None),
                name="plan_season_dates",
                violation_error_message=SEASON_DATES_NEEDED,
            ),
            models.CheckConstraint(
                condition=~models.Q(period="season", renews_automatically=True),
                name="plan_season_does_not_renew",
                violation_error_message=SEASON_DOES_NOT_RENEW,
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def period_label(self) -> str:
        """How long a period lasts, as people read it: "a month", "a year", or the season's dates."""
        if self.period == self.Period.SEASON:
            return f"the season {self.season_starts_on:%-d %b %Y} to {self.season_ends_on:%-d %b %Y}"
        return "a month" if self.period == self.Period.MONTHLY else "a year"

    def period_from(self, start: datetime) -> tuple[datetime, datetime]:
        """The period a payment made at `start` pays for: a month or a year from then, or the season
        (from its first day's start, or from `start` once it has begun, to its last day's end)."""
        if self.period == self.Period.SEASON:
            # A season plan has both days (Plan.clean, the table's constraint).
            season = moments(self.season_starts_on, self.season_ends_on)
            first, after = cast(tuple[datetime, datetime], season)
            return max(start, first), after
        months = 1 if self.period == self.Period.MONTHLY else 12
        return start, add_months(start, months)

    def benefits(self) -> list[str]:
        """What holding the plan gives, a line each, as the membership page and e-mails list it; a
        limit left to the club's rules is not named."""
        lines = []
        if self.member_price_kind == self.MemberPriceKind.FIXED:
            lines.append(f"Member price: ${self.member_price_value} a slot")
        elif self.member_price_kind == self.MemberPriceKind.PERCENT:
            lines.append(f"Member price: {self.member_price_value:.0f}% off the court's price")
        limits = [
            (self.booking_window_days, "Book up to {} days ahead"),
            (self.open_bookings_limit, "Up to {} open bookings at once"),
            (self.hours_per_day, "Up to {} hours of courts a day"),
            (self.hours_per_week, "Up to {} hours of courts a week"),
            (self.peak_hours_per_week, "Up to {} peak hours a week"),
        ]
        lines += [text.format(value) for value, text in limits if value is not None]
        if self.members_only_hours:
            lines.append("Access to the members-only hours")
        return lines

    def slot_price(self, price: Decimal) -> Decimal:
        """What a holder pays for a slot whose price (the court's own, or its price band's) is
        `price`: the plan's fixed price instead, or its percent off, rounded to the cent."""
        if self.member_price_kind == self.MemberPriceKind.FIXED and self.member_price_value is not None:
            return Decimal(self.member_price_value)
        if self.member_price_kind == self.MemberPriceKind.PERCENT and self.member_price_value is not None:
            return discounted(price, int(self.member_price_value))
        return price

    def clean(self) -> None:
        """The rules between fields, each message under its field (the model's names)."""
        errors = {**self._season_errors(), **self._member_price_errors()}
        if errors:
            raise ValidationError(errors)

    def _season_errors(self) -> dict[str, str]:
        starts, ends = self.season_starts_on, self.season_ends_on
        dates = {"season_starts_on": starts, "season_ends_on": ends}
        if self.period != self.Period.SEASON:
            return {name: SEASON_DATES_ONLY for name, day in dates.items() if day is not None}
        errors = {name: SEASON_DATES_NEEDED for name, day in dates.items() if day is None}
        if starts and ends and ends <= starts:
            errors["season_ends_on"] = SEASON_ENDS_AFTER_START
        if self.renews_automatically:
            errors["renews_automatically"] = SEASON_DOES_NOT_RENEW
        return errors

    def _member_price_errors(self) -> dict[str, str]:
        value, kind = self.member_price_value, self.member_price_kind
        if kind == self.MemberPriceKind.NONE:
            return {"member_price_value": MEMBER_PRICE_NOT_USED} if value is not None else {}
        if value is None:
            return {"member_price_value": MEMBER_PRICE_NEEDED}
        if kind == self.MemberPriceKind.FIXED:
            within = LOWEST_SESSION_PRICE <= value <= HIGHEST_SESSION_PRICE
            return {} if within else {"member_price_value": FIXED_PRICE_RULE}
        whole = value == value.to_integral_value()
        return {} if whole and 1 <= value <= 99 else {"member_price_value": PERCENT_RULE}


class Membership(StatusMachine):
    """A person's membership of one plan: the periods paid for it (payments.Payment), and its state,
    which Stripe's answers and the calendar move (memberships.services), each move kept in its
    history. A person holds one live membership at a time."""

    class Status(models.TextChoices):
        # Bought, its first period not yet paid: it gives nothing yet.
        PENDING = "pending", "Awaiting payment"
        ACTIVE = "active", "Active"
        # A renewal's payment failed: its benefits stay until grace_until, while the card is fixed.
        PAST_DUE = "past_due", "Past due"
        # Ended at the end of a period, as its holder (or an admin) asked.
        CANCELLED = "cancelled", "Cancelled"
        # Ended otherwise: its period over without renewal, its renewal never paid, or never paid at all.
        EXPIRED = "expired", "Expired"

    TRANSITIONS = {
        Status.PENDING: {Status.ACTIVE, Status.EXPIRED},
        Status.ACTIVE: {Status.PAST_DUE, Status.CANCELLED, Status.EXPIRED},
        Status.PAST_DUE: {Status.ACTIVE, Status.CANCELLED, Status.EXPIRED},
    }
    LIVE = (Status.PENDING, Status.ACTIVE, Status.PAST_DUE)

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="memberships")
    # A plan someone holds (or held) is kept: it is taken off sale instead (plan_delete).
    plan = models.ForeignKey(Plan, on_delete=models.PROTECT, related_name="memberships")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    renews = models.BooleanField(help_text="Whether it renews by itself: the plan's rule when it was bought.")
    # What each period costs: the plan's price when it was bought (a renewing one renews at it).
    price = models.DecimalField(max_digits=10, decimal_places=2, validators=PLAN_PRICE_BOUNDS)
    period_start = models.DateTimeField(null=True, blank=True)
    period_end = models.DateTimeField(null=True, blank=True, help_text="Paid until then.")
    grace_until = models.DateTimeField(
        null=True, blank=True, help_text="While past due, its benefits stay until then."
    )
    cancel_at_period_end = models.BooleanField(
        default=False, help_text="Its holder asked to end it when the period ends: it will not renew."
    )
    stripe_customer_id = models.CharField(max_length=255, blank=True)
    stripe_subscription_id = models.CharField(max_length=255, unique=True, null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    started_at = models.DateTimeField(null=True, blank=True, help_text="When its first period was paid.")
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["user", "status"], name="membership_by_user"),
            models.Index(fields=["status", "period_end"], name="membership_by_status"),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["user"],
                condition=models.Q(status__in=["pending", "active", "past_due"]),
                name="one_live_membership_per_person",
                violation_error_message="You already hold a membership.",
            )
        ]

    def __str__(self) -> str:
        return f"{self.plan} for {self.user} ({self.get_status_display().lower()})"

    def moved(self, from_status: str, *, reason: str = "") -> None:  # type: ignore[override]
        self.history.create(from_status=from_status, to_status=self.status, reason=reason)

    @classmethod
    def in_force(cls, now: datetime) -> models.Q:
        """The memberships whose benefits hold at `now`: active and paid for (a renewing one until
        Stripe says its renewal failed), or past due within the grace period."""
        active = models.Q(status=cls.Status.ACTIVE) & (models.Q(renews=True) | models.Q(period_end__gt=now))
        return active | models.Q(status=cls.Status.PAST_DUE, grace_until__gt=now)


class MembershipChange(models.Model):
    """One move of a membership's state, and why."""

    membership = models.ForeignKey(Membership, on_delete=models.CASCADE, related_name="history")
    from_status = models.CharField(max_length=10, choices=Membership.Status.choices)
    to_status = models.CharField(max_length=10, choices=Membership.Status.choices)
    reason = models.CharField(max_length=300, blank=True)
    at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["at", "id"]

    def __str__(self) -> str:
        return f"{self.from_status} → {self.to_status} at {self.at:%Y-%m-%d %H:%M}"
