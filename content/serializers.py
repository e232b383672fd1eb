from django.urls import reverse
from rest_framework import serializers

from .models import Announcement, Coupon

DISCOUNT_RULE = "The discount is a whole percent from 1 to 100."


class CouponOutput(serializers.ModelSerializer):
    isActive = serializers.BooleanField(source="is_active")
    url = serializers.SerializerMethodField(help_text="Where to change or delete this coupon.")

    class Meta:
        model = Coupon
        fields = ["id", "code", "discount", "description", "isActive", "url"]

    def get_url(self, coupon: Coupon) -> str:
        return reverse("api-coupon", args=[coupon.pk])


class CouponInput(serializers.Serializer):
    code = serializers.CharField(max_length=40)
    discount = serializers.IntegerField(
        min_value=1,
        max_value=100,
        error_messages={"invalid": DISCOUNT_RULE, "min_value": DISCOUNT_RULE, "max_value": DISCOUNT_RULE},
    )
    description = serializers.CharField(max_length=200, required=False, allow_blank=True)
    isActive = serializers.BooleanField(source="is_active", required=False)


class AnnouncementOutput(serializers.ModelSerializer):
    createdAt = serializers.DateTimeField(source="created_at")
    url = serializers.SerializerMethodField(help_text="Where to change or delete this announcement.")

    class Meta:
        model = Announcement
        fields = ["id", "text", "createdAt", "url"]

    def get_url(self, announcement: Announcement) -> str:
        return reverse("api-announcement", args=[announcement.pk])


class AnnouncementInput(serializers.Serializer):
    text = serializers.CharField(max_length=2000, trim_whitespace=False, allow_blank=True)
