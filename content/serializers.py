from django.urls import reverse
from rest_framework import serializers

from club.text import validate_lines, validate_one_line

from .models import DISCOUNT_RULE, MAX_USES_RULE, Announcement, Coupon


class CouponOutput(serializers.ModelSerializer):
    isActive = serializers.BooleanField(source="is_active")
    oncePerPerson = serializers.BooleanField(source="once_per_person")
    maxUses = serializers.IntegerField(source="max_uses", allow_null=True)
    validFrom = serializers.DateField(source="valid_from", allow_null=True)
    validUntil = serializers.DateField(source="valid_until", allow_null=True)
    url = serializers.SerializerMethodField(help_text="Where to change or delete this coupon.")

    class Meta:
        model = Coupon
        fields = [
            "id",
            "code",
            "discount",
            "description",
            "isActive",
            "oncePerPerson",
            "maxUses",
            "validFrom",
            "validUntil",
            "url",
        ]

    def get_url(self, coupon: Coupon) -> str:
        return reverse("api-coupon", args=[coupon.pk])


class CouponInput(serializers.Serializer):
    code = serializers.CharField(max_length=40, validators=[validate_one_line])
    discount = serializers.IntegerField(
        min_value=1,
        max_value=100,
        error_messages={"invalid": DISCOUNT_RULE, "min_value": DISCOUNT_RULE, "max_value": DISCOUNT_RULE},
    )
    description = serializers.CharField(
        max_length=200, required=False, allow_blank=True, validators=[validate_one_line]
    )
    isActive = serializers.BooleanField(source="is_active", required=False)
    oncePerPerson = serializers.BooleanField(
        source="once_per_person", required=False, help_text="Each person may pay with it once."
    )
    maxUses = serializers.IntegerField(
        source="max_uses",
        required=False,
        allow_null=True,
        min_value=1,
        max_value=2**31 - 1,  # the database column's largest
        error_messages={"min_value": MAX_USES_RULE},
        help_text="How many payments it may take in all; null for no limit.",
    )
    validFrom = serializers.DateField(
        source="valid_from", required=False, allow_null=True, help_text="The first day it is accepted."
    )
    validUntil = serializers.DateField(
        source="valid_until", required=False, allow_null=True, help_text="The last day it is accepted."
    )


class AnnouncementOutput(serializers.ModelSerializer):
    createdAt = serializers.DateTimeField(source="created_at")
    url = serializers.SerializerMethodField(help_text="Where to change or delete this announcement.")

    class Meta:
        model = Announcement
        fields = ["id", "text", "createdAt", "url"]

    def get_url(self, announcement: Announcement) -> str:
        return reverse("api-announcement", args=[announcement.pk])


class AnnouncementInput(serializers.Serializer):
    text = serializers.CharField(
        max_length=2000, trim_whitespace=False, allow_blank=True, validators=[validate_lines]
    )
