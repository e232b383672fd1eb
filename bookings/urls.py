from django.urls import path

from accounts.guards import admin_required, login_required, member_required
from club.dashboard import section

app_name = "bookings"
urlpatterns = [
    path("dashboard/pending-bookings", section("My Pending Bookings", login_required), name="pending"),
    path("dashboard/approved-bookings", section("My Approved Bookings", member_required), name="approved"),
    path("dashboard/confirmed-bookings", section("My Confirmed Bookings", member_required), name="confirmed"),
    path("dashboard/manage-bookings", section("Confirmed Bookings", admin_required), name="manage"),
    path(
        "dashboard/manage-bookings-approval",
        section("Manage Booking Approvals", admin_required),
        name="manage-approval",
    ),
]
