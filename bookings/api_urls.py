from django.urls import path

from .apis import (
    ApprovedBookingApi,
    BlockApi,
    BlockListApi,
    BookingApproveApi,
    BookingCancelApi,
    BookingCreateApi,
    BookingListApi,
    BookingRejectApi,
    CalendarFeedApi,
    CalendarFeedResetApi,
    CourtAvailabilityApi,
    PolicyApi,
    ScheduleApi,
    WaitlistApi,
    WaitlistEntryApi,
)
from .models import Booking

urlpatterns = [
    path("bookings", BookingCreateApi.as_view(), name="api-bookings"),
    path("policy", PolicyApi.as_view(), name="api-policy"),
    *[
        path(f"bookings/{status}", BookingListApi.as_view(status_name=status), name=f"api-bookings-{status}")
        for status in (Booking.Status.PENDING, Booking.Status.APPROVED, Booking.Status.CONFIRMED)
    ],
    path("bookings/approved/<int:booking_id>", ApprovedBookingApi.as_view(), name="api-booking-approved"),
    path("bookings/approve/<int:booking_id>", BookingApproveApi.as_view(), name="api-booking-approve"),
    path("bookings/reject/<int:booking_id>", BookingRejectApi.as_view(), name="api-booking-reject"),
    path("bookings/<int:booking_id>", BookingCancelApi.as_view(), name="api-booking"),
    path("schedule", ScheduleApi.as_view(), name="api-schedule"),
    path("calendar", CalendarFeedApi.as_view(), name="api-calendar"),
    path("calendar/reset", CalendarFeedResetApi.as_view(), name="api-calendar-reset"),
    path("waitlist", WaitlistApi.as_view(), name="api-waitlist"),
    path("waitlist/<int:entry_id>", WaitlistEntryApi.as_view(), name="api-waitlist-entry"),
    # Which of a court's slots are free is the bookings' business, under the court's address.
    path("courts/<int:court_id>/availability", CourtAvailabilityApi.as_view(), name="api-court-availability"),
    path("blocks", BlockListApi.as_view(), name="api-blocks"),
    path("blocks/<int:block_id>", BlockApi.as_view(), name="api-block"),
]
