from decimal import Decimal
from itertools import pairwise

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator, URLValidator
from django.db import models
from django.utils.functional import cached_property

from kernel.slots import Slot
from kernel.staticfiles import static_url_for
from kernel.text import validate_one_line


def validate_image_location(value: str) -> None:
    """An image is an absolute http(s) URL or a path on this site (the shipped images)."""
    if not value.startswith("/") or value.startswith("//"):
        URLValidator(schemes=["http", "https"], message="Enter a valid image URL.")(value)


def validate_slots(value: object) -> None:
    if not isinstance(value, list) or not all(isinstance(slot, str) for slot in value):
        raise ValidationError("Slots must be a list of 'HH:MM-HH:MM' strings.")
    try:
        slots = sorted(map(Slot.parse, value))
    except ValueError as error:
        raise ValidationError(str(error)) from error
    if any(later.start < earlier.end for earlier, later in pairwise(slots)):
        raise ValidationError("Slots must not overlap.")


# Shown instead of a court's image that fails to load (an address that no longer answers).
COURT_IMAGE_PLACEHOLDER = "img/courts/placeholder.svg"


# A session costs tens of dollars at a club: a price above the upper bound is a slip (a decimal point
# missed, a zero too many) that members would be charged; the column itself holds up to 99,999,999.99.
SESSION_PRICE_BOUNDS = [MinValueValidator(Decimal("0.01")), MaxValueValidator(Decimal("10000"))]


# The most people one booking of a court can bring: a team game's two sides; more is a program's.
PLACES_MOST = 12
# A new court's places, unless said otherwise: doubles.
PLACES_DEFAULT = 4


class Court(models.Model):
    name = models.CharField(max_length=100, validators=[validate_one_line])
    type = models.CharField(max_length=50, validators=[validate_one_line])
    price = models.DecimalField(
        "price per session", max_digits=10, decimal_places=2, validators=SESSION_PRICE_BOUNDS
    )
    image = models.CharField(max_length=500, validators=[validate_image_location])
    slots = models.JSONField(default=list, blank=True, validators=[validate_slots])
    places = models.PositiveSmallIntegerField(
        "players",
        default=PLACES_DEFAULT,
        validators=[MinValueValidator(1), MaxValueValidator(PLACES_MOST)],
        help_text="How many play on it at once, the person who books included: 2 for singles, 4 for doubles.",
    )
    # A court with bookings is archived rather than deleted, so no booking or payment loses it.
    is_archived = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["type", "name", "id"]
        constraints = [models.CheckConstraint(condition=models.Q(price__gt=0), name="court_price_positive")]

    def __str__(self) -> str:
        return f"{self.name} ({self.type})"

    @property
    def label(self) -> str:
        """What the club's pages, e-mails and islands call the court: its name, else its type."""
        return self.name or self.type

    @property
    def image_url(self) -> str:
        return static_url_for(self.image)

    @cached_property
    def bands(self) -> list["PriceBand"]:
        """Read once per instance, or given for many courts at once by courts.selectors."""
        return list(self.price_bands.all())


WEEKDAY_NAMES = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


def validate_weekdays(value: object) -> None:
    # type(day) is int: bool is an int to Python, and true is not a day.
    if not (isinstance(value, list) and value and all(type(day) is int and 0 <= day <= 6 for day in value)):
        raise ValidationError("Choose the days as numbers from 0 (Monday) to 6 (Sunday), one at least.")
    if len(set(value)) != len(value):
        raise ValidationError("Each day can be chosen once.")


class PriceBand(models.Model):
    """A price of a court's slots at some times of the week (docs/rules.md, Prices): a slot starting
    in [starts, ends) on one of its weekdays costs the band's price. A court's bands do not overlap
    (courts.pricing.overlap_message)."""

    court = models.ForeignKey(Court, on_delete=models.CASCADE, related_name="price_bands")
    weekdays = models.JSONField(
        validators=[validate_weekdays],
        help_text="The days it applies: Monday 0 to Sunday 6.",
        error_messages={"blank": "Choose one day at least."},
    )
    starts = models.TimeField(help_text="A slot starting at this time or later takes the band's price.")
    ends = models.TimeField(help_text="A slot starting at this time or later no longer does.")
    price = models.DecimalField(
        "price per session", max_digits=10, decimal_places=2, validators=SESSION_PRICE_BOUNDS
    )
    members_only = models.BooleanField(
        "members only",
        default=False,
        help_text="Its slots are booked only by the holders of a plan with the members-only hours "
        "(and by admins).",
    )

    class Meta:
        # The order in which a slot's price looks for its band: the first that applies wins.
        ordering = ["starts", "id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(price__gt=0),
                name="price_band_price_positive",
                violation_error_message="The price must be a positive number.",
            ),
            models.CheckConstraint(
                condition=models.Q(starts__lt=models.F("ends")),
                name="price_band_ends_after_it_starts",
                violation_error_message="A band ends after it starts.",
            ),
        ]

    def __str__(self) -> str:
        members = " (members only)" if self.members_only else ""
        return f"{self.days_label} {self.starts:%H:%M}-{self.ends:%H:%M}: {self.price}{members}"

    @property
    def days_label(self) -> str:
        """The band's days in a few words: "weekdays", "weekends", "Mon-Thu", "Mon, Wed"."""
        days = sorted(set(self.weekdays))
        named = {(0, 1, 2, 3, 4, 5, 6): "every day", (0, 1, 2, 3, 4): "weekdays", (5, 6): "weekends"}
        if tuple(days) in named:
            return named[tuple(days)]
        short = [WEEKDAY_NAMES[day][:3] for day in days]
        if len(days) >= 3 and days == list(range(days[0], days[-1] + 1)):
            return f"{short[0]}-{short[-1]}"
        return ", ".join(short)

    @property
    def kind(self) -> str:
        """Whether the band's price is "peak" or "off-peak" beside its court's own (price_kind)."""
        return price_kind(self.price, own=self.court.price)


def price_kind(price: Decimal, *, own: Decimal) -> str:
    """What a slot's price other than its court's `own` is called: "peak" above it, else "off-peak"."""
    return "peak" if price > own else "off-peak"
