import re
from decimal import Decimal
from itertools import pairwise

from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator, URLValidator
from django.db import models

from club.staticfiles import static_url_for

# ASCII digits only: Python's \d would also take the digits of other scripts.
SLOT_PATTERN = re.compile(r"^([01]\d|2[0-3]):[0-5]\d-([01]\d|2[0-3]):[0-5]\d$", re.ASCII)


def validate_image_location(value: str) -> None:
    """An image is an absolute http(s) URL or a path on this site (the shipped images)."""
    if value.startswith("/") and not value.startswith("//"):
        return
    URLValidator(schemes=["http", "https"], message="Enter a valid image URL.")(value)


def validate_slots(value: list) -> None:
    """Slots are 'HH:MM-HH:MM' strings, each ending after it starts, none overlapping."""
    if not isinstance(value, list) or not all(isinstance(slot, str) for slot in value):
        raise ValidationError("Slots must be a list of 'HH:MM-HH:MM' strings.")
    for slot in value:
        if not SLOT_PATTERN.match(slot) or slot[:5] >= slot[6:]:
            raise ValidationError(f"'{slot}' is not a time range like '08:00-09:00'.")
    ranges = sorted((slot[:5], slot[6:]) for slot in value)
    for (_, end), (start, _) in pairwise(ranges):
        if start < end:
            raise ValidationError("Slots must not overlap.")


class Court(models.Model):
    name = models.CharField(max_length=100)
    type = models.CharField(max_length=50)
    price = models.DecimalField(
        "price per session", max_digits=10, decimal_places=2, validators=[MinValueValidator(Decimal("0.01"))]
    )
    image = models.CharField(max_length=500, validators=[validate_image_location])
    slots = models.JSONField(default=list, blank=True, validators=[validate_slots])
    # A court with bookings is archived rather than deleted, so no booking or payment loses it.
    is_archived = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["type", "name", "id"]
        constraints = [
            models.CheckConstraint(condition=models.Q(price__gt=0), name="court_price_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.type})"

    @property
    def image_url(self) -> str:
        return static_url_for(self.image)


class CourtListVersion(models.Model):
    """One row: the version of the list of open courts, replaced in the same transaction as every
    change to a court (courts.receivers), so each app process knows from one read whether the list
    it serialised is still the current one (courts.selectors.court_list_slice)."""

    # "<the change's time in nanoseconds since the epoch>-<random>": never the same twice.
    version = models.CharField(max_length=64)

    def __str__(self) -> str:
        return self.version
