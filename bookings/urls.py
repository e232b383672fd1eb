from django.urls import path

from . import views

app_name = "bookings"
urlpatterns = [
    path("courts", views.court_list, name="courts"),
    path("schedule", views.schedule, name="schedule"),
    path("dashboard/my-bookings", views.my_bookings, name="mine"),
    path("dashboard/waitlist", views.my_waitlist, name="waitlist"),
    path("dashboard/bookings/<int:booking_id>", views.booking_detail, name="detail"),
    path("dashboard/bookings/<int:booking_id>/calendar.ics", views.booking_calendar, name="calendar"),
    path("calendar/<slug:secret>.ics", views.calendar_feed, name="calendar-feed"),
    path("invitations/<str:token>", views.invitation, name="invitation"),
    path("matches", views.matches, name="matches"),
    path("matches/<int:match_id>/join", views.match_join_page, name="match-join"),
    path("dashboard/bookings/<int:booking_id>/match", views.booking_match, name="match"),
    path("dashboard/pending-bookings", views.my_pending, name="pending"),
    path("dashboard/approved-bookings", views.my_approved, name="approved"),
    path("dashboard/confirmed-bookings", views.my_confirmed, name="confirmed"),
    path("dashboard/manage-bookings", views.confirmed, name="manage"),
    path("dashboard/manage-bookings-approval", views.approvals, name="manage-approval"),
    path("dashboard/club-rules", views.club_rules, name="club-rules"),
]
