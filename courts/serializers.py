from decimal import Decimal

from django.urls import reverse
from rest_framework import serializers

from .models import Court, validate_image_location, validate_slots


class CourtOutput(serializers.ModelSerializer):
    image = serializers.CharField(source="image_url")
    url = serializers.SerializerMethodField(help_text="Where to change or delete this court.")

    class Meta:
        model = Court
        fields = ["id", "name", "type", "price", "image", "slots", "url"]

    def get_url(self, court: Court) -> str:
        return reverse("api-court", args=[court.pk])


class CourtInput(serializers.Serializer):
    name = serializers.CharField(max_length=100)
    type = serializers.CharField(max_length=50)
    price = serializers.DecimalField(
        max_digits=10,
        decimal_places=2,
        min_value=Decimal("0.01"),
        error_messages={"min_value": "The price must be a positive number."},
    )
    image = serializers.CharField(max_length=500, validators=[validate_image_location])
    slots = serializers.ListField(
        child=serializers.CharField(max_length=11), allow_empty=True, required=False
    )

    def validate_slots(self, slots):
        validate_slots(slots)
        return slots
