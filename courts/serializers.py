from typing import TypedDict

from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from kernel.slots import SLOT_PATTERN

from .models import Court, PriceBand, validate_image_location, validate_slots
from .pricing import band_refusal


class _TimeFormat(TypedDict):
    format: str
    input_formats: list[str]


_TIME: _TimeFormat = {"format": "%H:%M", "input_formats": ["%H:%M"]}
# The model's price, with its own message and without its label ("price per session") in the
# schema. On an input, coerce_to_string changes nothing but the schema: it then says what clients
# send, a number (a string such as "25.50" is accepted too).
_PRICE = {
    "price": {
        "label": None,
        "error_messages": {"min_value": "The price must be a positive number."},
        "coerce_to_string": False,
    }
}


_MEMBERS_ONLY = (
    "Whether its slots are kept for the holders of a plan with the members-only hours (and admins)."
)


class PriceBandOutput(serializers.ModelSerializer):
    weekdays = serializers.ListField(
        child=serializers.IntegerField(), help_text="The days it applies: Monday 0 to Sunday 6."
    )
    starts = serializers.TimeField(**_TIME, help_text="A slot starting then or later takes the price.")
    ends = serializers.TimeField(**_TIME, help_text="A slot starting then or later no longer does.")
    membersOnly = serializers.BooleanField(source="members_only", help_text=_MEMBERS_ONLY)

    class Meta:
        model = PriceBand
        fields = ["weekdays", "starts", "ends", "price", "membersOnly"]


class CourtOutput(serializers.ModelSerializer):
    image = serializers.CharField(source="image_url")
    slots = serializers.ListField(
        child=serializers.CharField(), help_text="The court's slots, like 08:00-09:00."
    )
    url = serializers.SerializerMethodField(help_text="Where to change or delete this court.")
    priceBands = PriceBandOutput(
        source="bands",
        many=True,
        read_only=True,
        help_text="The prices of some times of the week; a slot starting in none of them costs `price`.",
    )

    class Meta:
        model = Court
        fields = ["id", "name", "type", "price", "image", "slots", "places", "priceBands", "url"]

    def get_url(self, court: Court) -> str:
        return reverse("api-court", args=[court.pk])


class CourtAdminOutput(CourtOutput):
    """A court as Manage Courts lists it (courts.selectors.courts_for_admin)."""

    hasBookings = serializers.BooleanField(
        source="has_bookings",
        read_only=True,
        help_text="Whether deleting the court archives it, since bookings point at it.",
    )
    restoreUrl = serializers.SerializerMethodField(help_text="Where to open this court again once archived.")

    class Meta(CourtOutput.Meta):
        fields = [*CourtOutput.Meta.fields, "hasBookings", "restoreUrl"]

    def get_restoreUrl(self, court: Court) -> str:
        return reverse("api-court-restore", args=[court.pk])


# The schema states the shape of an image and a slot, so that clients, and the examples schemathesis
# generates, send values the validators can accept; the validators still decide.
@extend_schema_field(
    {
        "type": "string",
        "pattern": "^(/|https?://)",
        "description": "A path on this site, or an http(s) URL.",
        "example": "https://images.example.com/court.jpg",
    }
)
class ImageLocationField(serializers.CharField):
    def __init__(self, **kwargs):
        super().__init__(max_length=500, validators=[validate_image_location], **kwargs)


@extend_schema_field({"type": "string", "pattern": SLOT_PATTERN.pattern, "example": "08:00-09:00"})
class SlotField(serializers.CharField):
    def __init__(self, **kwargs):
        super().__init__(max_length=11, **kwargs)


def slot_list(help_text: str) -> serializers.ListField:
    return serializers.ListField(
        child=SlotField(), required=False, validators=[validate_slots], help_text=help_text
    )


class PriceBandInput(serializers.ModelSerializer):
    weekdays = serializers.ListField(
        child=serializers.IntegerField(min_value=0, max_value=6),
        min_length=1,
        max_length=7,
        help_text="The days it applies: Monday 0 to Sunday 6.",
    )
    starts = serializers.TimeField(**_TIME, help_text="HH:MM: a slot starting then or later takes the price.")
    ends = serializers.TimeField(**_TIME, help_text="HH:MM: a slot starting then or later no longer does.")
    membersOnly = serializers.BooleanField(
        source="members_only", required=False, default=False, help_text=f"{_MEMBERS_ONLY} False if left out."
    )

    class Meta:
        model = PriceBand
        fields = ["weekdays", "starts", "ends", "price", "membersOnly"]
        extra_kwargs = _PRICE


class PriceBandsField(serializers.ListField):
    """A court's price bands. A refusal is one message per band at fault ("Band 2: ends: …"), under
    priceBands, as for any other field, rather than DRF's nested shape."""

    def __init__(self, **kwargs):
        super().__init__(child=PriceBandInput(), max_length=50, **kwargs)

    def to_internal_value(self, data):
        try:
            return super().to_internal_value(data)
        except serializers.ValidationError as error:
            if not isinstance(error.detail, dict):
                raise
            raise serializers.ValidationError(
                [band_refusal(int(index) + 1, detail) for index, detail in error.detail.items()]
            ) from error


class CourtInput(serializers.ModelSerializer):
    image = ImageLocationField()
    slots = slot_list(
        "The times the court can be booked, like '08:00-09:00'. Without them it can't be booked yet."
    )
    availableSlots = slot_list("Another name for slots, accepted from clients that send availableSlots.")
    priceBands = PriceBandsField(
        source="price_bands",
        required=False,
        help_text="The prices of some times of the week, replacing the court's bands; no two may overlap.",
    )

    class Meta:
        model = Court
        fields = ["name", "type", "price", "image", "slots", "availableSlots", "places", "priceBands"]
        extra_kwargs = _PRICE

    def validate(self, data):
        if "availableSlots" in data and "slots" in data:
            raise serializers.ValidationError({"availableSlots": "Send slots or availableSlots, not both."})
        if "availableSlots" in data:
            data["slots"] = data.pop("availableSlots")
        return data
