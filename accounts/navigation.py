"""The dashboard sidebar's links for each role, by the role's value (docs/staff-guide.md, What people see)."""

from .models import User

HOME = ("dashboard", "Dashboard Home")
PROFILE = ("accounts:profile", "My Profile")  # everyone's own account: name, photo, password
# Every booking of one's own, whatever became of it (rejected, cancelled, expired too), with why.
MY_BOOKINGS = ("bookings:mine", "My Bookings")
# The taken slots one waits for, and the ones held for one to book.
MY_WAITLIST = ("bookings:waitlist", "My Waitlist")

SIDEBAR_LINKS = {
    # Users get Approved Bookings too: its Pay link is their way to pay for an approved booking
    # (paying is how they become members).
    User.Role.USER: [
        HOME,
        MY_BOOKINGS,
        MY_WAITLIST,
        ("bookings:pending", "Pending Bookings"),
        ("bookings:approved", "Approved Bookings"),
        ("content:announcements", "Announcements"),
        PROFILE,
    ],
    User.Role.MEMBER: [
        HOME,
        MY_BOOKINGS,
        MY_WAITLIST,
        ("bookings:pending", "Pending Bookings"),
        ("bookings:approved", "Approved Bookings"),
        ("bookings:confirmed", "Confirmed Bookings"),
        ("payments:history", "Payment History"),
        ("content:announcements", "Announcements"),
        PROFILE,
    ],
    User.Role.ADMIN: [
        HOME,
        ("bookings:manage-approval", "Booking Approvals"),
        ("accounts:manage-members", "Manage Members"),
        ("accounts:manage-users", "All Users"),
        ("courts:manage", "Manage Courts"),
        ("bookings:manage", "Manage Bookings"),
        ("bookings:club-rules", "Club Rules"),
        ("reports", "Reports"),
        ("payments:ledger", "Ledger"),
        ("audit-trail", "Audit Trail"),
        ("payments:manage-coupons", "Manage Coupons"),
        ("content:make-announcements", "Make Announcements"),
        PROFILE,
    ],
}
