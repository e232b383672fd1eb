from decimal import Decimal

from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from .models import SLOT_PATTERN, Court, validate_image_location, validate_slots


class CourtOutput(serializers.ModelSerializer):
    image = serializers.CharField(source="image_url")
    slots = serializers.ListField(
        child=serializers.CharField(), help_text="The court's slots, like 08:00-09:00."
    )
    url = serializers.SerializerMethodField(help_text="Where to change or delete this court.")

    class Meta:
        model = Court
        fields = ["id", "name", "type", "price", "image", "slots", "url"]

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
        child=SlotField(),
        required=False,
        validators=[validate_slots],
        help_text=help_text,
    )


class CourtInput(serializers.Serializer):
    name = serializers.CharField(max_length=100)
    type = serializers.CharField(max_length=50)
    price = serializers.DecimalField(
        max_digits=10,
        decimal_places=2,
        min_value=Decimal("0.01"),
        error_messages={"min_value": "The price must be a positive number."},
        # On an input, coerce_to_string changes nothing but the schema: it then says what clients
        # send, a number, with its minimum (a string such as "25.50" is accepted too).
        coerce_to_string=False,
    )
    image = ImageLocationField()
    slots = slot_list(
        "The times the court can be booked, like '08:00-09:00'. Without them it can't be booked yet."
    )
    availableSlots = slot_list("Another name for slots, accepted from clients that send availableSlots.")

    def validate(self, data):
        if "availableSlots" in data:
            if "slots" in data:
                raise serializers.ValidationError(
                    {"availableSlots": "Send slots or availableSlots, not both."}
                )
            data["slots"] = data.pop("availableSlots")
        return data
