from rest_framework import serializers

from accounts.serializers import NormalisedEmailField

from .models import Booking


class BookingOutput(serializers.ModelSerializer):
    courtId = serializers.IntegerField(source="court_id")
    courtName = serializers.CharField(source="court_name")
    userEmail = serializers.EmailField(source="user.email")
    createdAt = serializers.DateTimeField(source="created_at")
    slots = serializers.ListField(
        child=serializers.CharField(), help_text="The booked slots, in the court's order."
    )

    class Meta:
        model = Booking
        fields = ["id", "courtId", "courtName", "date", "slots", "userEmail", "price", "status", "createdAt"]


class BookingRequestInput(serializers.Serializer):
    """`courtName` is ignored (the court's own is used); `price`, if sent, must
    be the server's; `userEmail`, if sent, must be the caller's."""

    userEmail = NormalisedEmailField(required=False)
    courtId = serializers.IntegerField(min_value=1)
    courtName = serializers.CharField(required=False, allow_blank=True)
    price = serializers.DecimalField(max_digits=10, decimal_places=2, required=False)
    slots = serializers.ListField(child=serializers.CharField(max_length=11), allow_empty=True, max_length=48)
    date = serializers.DateField()


class BookingRejectInput(serializers.Serializer):
    reason = serializers.CharField(
        required=False, allow_blank=True, max_length=500, help_text="Why, for the booking's owner."
    )


class BookingListQuery(serializers.Serializer):
    email = NormalisedEmailField(required=False)
    title = serializers.CharField(required=False, allow_blank=True, max_length=100)
    dateFrom = serializers.DateField(required=False, source="date_from", help_text="The first day.")
    dateTo = serializers.DateField(required=False, source="date_to", help_text="The last day.")

    def validate(self, data):
        if data.get("date_from") and data.get("date_to") and data["date_to"] < data["date_from"]:
            raise serializers.ValidationError({"dateTo": "The last day comes on or after the first."})
        return data


class AvailabilityQuery(serializers.Serializer):
    date = serializers.DateField()


class CalendarFeedOutput(serializers.Serializer):
    url = serializers.URLField(help_text="Your private calendar feed, for a calendar app to subscribe to.")
