from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models

from courts.models import SESSION_PRICE_BOUNDS
from kernel.bounds import BOOKINGS_AT_ONCE, DAYS_AHEAD, HOURS_A_DAY, HOURS_A_WEEK
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
PERCENT_RULE = "The percent off is a whole number from 1 to 100."


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
        return {} if whole and 1 <= value <= 100 else {"member_price_value": PERCENT_RULE}
