from django.urls import path

from . import apis
from .models import Booking

urlpatterns = [
    path("bookings", apis.BookingCreateApi.as_view(), name="api-bookings"),
    path("policy", apis.PolicyApi.as_view(), name="api-policy"),
    path("series", apis.SeriesCreateApi.as_view(), name="api-series"),
    path("series/<int:series_id>", apis.SeriesApi.as_view(), name="api-series-one"),
    path("series/<int:series_id>/approve", apis.SeriesApproveApi.as_view(), name="api-series-approve"),
    *[
        path(
            f"bookings/{status}",
            apis.BookingListApi.as_view(status_name=status),
            name=f"api-bookings-{status}",
        )
        for status in (Booking.Status.PENDING, Booking.Status.APPROVED, Booking.Status.CONFIRMED)
    ],
    path(
        "bookings/approved/<int:booking_id>", apis.ApprovedBookingApi.as_view(), name="api-booking-approved"
    ),
    path("bookings/approve/<int:booking_id>", apis.BookingApproveApi.as_view(), name="api-booking-approve"),
    path("bookings/reject/<int:booking_id>", apis.BookingRejectApi.as_view(), name="api-booking-reject"),
    path("bookings/<int:booking_id>", apis.BookingCancelApi.as_view(), name="api-booking"),
    path("bookings/<int:booking_id>/players", apis.BookingPlayersApi.as_view(), name="api-booking-players"),
    path("bookings/<int:booking_id>/match", apis.BookingMatchApi.as_view(), name="api-booking-match"),
    path("matches", apis.MatchListApi.as_view(), name="api-matches"),
    path("matches/<int:match_id>/join", apis.MatchJoinApi.as_view(), name="api-match-join"),
    path("schedule", apis.ScheduleApi.as_view(), name="api-schedule"),
    path("calendar", apis.CalendarFeedApi.as_view(), name="api-calendar"),
    path("calendar/reset", apis.CalendarFeedResetApi.as_view(), name="api-calendar-reset"),
    path("waitlist", apis.WaitlistApi.as_view(), name="api-waitlist"),
    path("waitlist/<int:entry_id>", apis.WaitlistEntryApi.as_view(), name="api-waitlist-entry"),
    # Which of a court's slots are free is the bookings' business, under the court's address.
    path(
        "courts/<int:court_id>/availability",
        apis.CourtAvailabilityApi.as_view(),
        name="api-court-availability",
    ),
    path("blocks", apis.BlockListApi.as_view(), name="api-blocks"),
    path("blocks/<int:block_id>", apis.BlockApi.as_view(), name="api-block"),
]
