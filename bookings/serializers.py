from rest_framework import serializers

from accounts.serializers import NormalisedEmailField

from .models import Booking
from .schedule import CellState, schedule_types


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


class PolicySerializer(serializers.Serializer):
    """The booking policy as the API reads and writes it (PATCH: any of the fields)."""

    advanceDaysUser = serializers.IntegerField(
        source="advance_days_user",
        min_value=0,
        max_value=365,
        help_text="How many days ahead a user may book.",
    )
    advanceDaysMember = serializers.IntegerField(
        source="advance_days_member",
        min_value=0,
        max_value=365,
        help_text="How many days ahead a member or an admin may book.",
    )
    openBookingsLimit = serializers.IntegerField(
        source="open_bookings_limit",
        min_value=1,
        max_value=100,
        help_text="How many open bookings (waiting for a decision or for payment) one person may hold.",
    )
    dailyHoursLimit = serializers.IntegerField(
        source="daily_hours_limit",
        min_value=1,
        max_value=24,
        allow_null=True,
        help_text="How many hours of courts one person may hold on one day; null for no limit.",
    )


class ScheduleQuery(serializers.Serializer):
    date = serializers.DateField(
        required=False, help_text="The day; today in the club's time zone if left out."
    )
    type = serializers.CharField(
        required=False, allow_blank=True, max_length=50, help_text="Only courts of this type."
    )

    def validate_type(self, value: str) -> str:
        if value and value not in schedule_types():
            raise serializers.ValidationError("No open court is of this type.")
        return value


class ScheduleCellOutput(serializers.Serializer):
    slot = serializers.CharField()
    state = serializers.ChoiceField(choices=CellState.choices)
    bookingId = serializers.IntegerField(
        source="booking_id", allow_null=True, help_text="The holding booking: for its owner and admins."
    )
    status = serializers.CharField(help_text="The holding booking's status: for its owner and admins.")
    holder = serializers.CharField(help_text="The holding booking's owner's e-mail: for admins.")


class ScheduleCourtOutput(serializers.Serializer):
    id = serializers.IntegerField(source="court.pk")
    name = serializers.CharField(source="court.name")
    type = serializers.CharField(source="court.type")
    price = serializers.DecimalField(source="court.price", max_digits=10, decimal_places=2)
    cells = ScheduleCellOutput(many=True, help_text="One per column of `slots`.")


class ScheduleOutput(serializers.Serializer):
    date = serializers.DateField()
    type = serializers.CharField()
    slots = serializers.ListField(
        child=serializers.CharField(), help_text="The columns: every slot any court offers, in time order."
    )
    courts = ScheduleCourtOutput(source="rows", many=True)
