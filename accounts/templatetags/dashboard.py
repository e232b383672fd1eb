"""The dashboard sidebar's links for each role, by the role's value (docs/staff-guide.md, What people see)."""

from django import template
from django.template.context import Context
from django.urls import reverse

from accounts.models import User

register = template.Library()

HOME = ("dashboard", "Dashboard Home")
PROFILE = ("accounts:profile", "My Profile")  # everyone's own account: name, photo, password
# Every booking of one's own, whatever became of it (rejected, cancelled, expired too), with why;
# the taken slots one waits for, and the ones held for one to book; and, for users too, Approved
# Bookings, whose Pay link is their way to pay (paying is how they become members).
OWN = [
    HOME,
    ("bookings:mine", "My Bookings"),
    ("bookings:waitlist", "My Waitlist"),
    ("bookings:pending", "Pending Bookings"),
    ("bookings:approved", "Approved Bookings"),
]
ANNOUNCEMENTS = ("content:announcements", "Announcements")

SIDEBAR_LINKS = {
    User.Role.USER: [*OWN, ANNOUNCEMENTS, PROFILE],
    User.Role.MEMBER: [
        *OWN,
        ("bookings:confirmed", "Confirmed Bookings"),
        ("payments:history", "Payment History"),
        ANNOUNCEMENTS,
        PROFILE,
    ],
    User.Role.ADMIN: [
        HOME,
        ("bookings:manage-approval", "Booking Approvals"),
        ("memberships:manage-members", "Manage Members"),
        ("memberships:manage-users", "All Users"),
        ("courts:manage", "Manage Courts"),
        ("programs:manage", "Manage Programs"),
        ("bookings:manage", "Manage Bookings"),
        ("bookings:club-rules", "Club Rules"),
        ("reports", "Reports"),
        ("payments:ledger", "Ledger"),
        ("audit-trail", "Audit Trail"),
        ("payments:manage-coupons", "Manage Coupons"),
        ("memberships:plans", "Membership Plans"),
        ("content:make-announcements", "Make Announcements"),
        ("content:support-inbox", "Support Inbox"),
        PROFILE,
    ],
}


@register.inclusion_tag("includes/sidebar_links.html", takes_context=True)
def sidebar_links(context: Context) -> dict[str, list[tuple[str, str, bool]]]:
    request = context["request"]
    current = request.resolver_match.view_name if request.resolver_match else ""
    links = SIDEBAR_LINKS.get(request.user.role, []) if request.user.is_authenticated else []
    return {"links": [(reverse(name), label, name == current) for name, label in links]}
