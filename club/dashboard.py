"""The dashboard's landing page: it shows several apps' records, so the project owns it."""

import calendar
from datetime import datetime

from django.shortcuts import render
from django.utils import timezone

from accounts.guards import login_required
from accounts.models import User
from accounts.selectors import user_list
from bookings.models import Booking
from bookings.selectors import booking_list, day_occupancy, upcoming_bookings
from bookings.waitlist import offers_held_for
from content.selectors import unread_announcements
from courts.selectors import court_list
from kernel.days import day_start, month_start
from memberships.reports import renewals_failing
from memberships.selectors import membership_current
from payments.selectors import failed_refunds, late_refunds, payments_due, takings

# How many of a person's next bookings and unread announcements their home lists; the pages they
# link to list them all.
NEXT_BOOKINGS_SHOWN = 5
UNREAD_ANNOUNCEMENTS_SHOWN = 3
# How many of the renewals failing the admin's day start names, those whose grace ends soonest.
RENEWALS_FAILING_SHOWN = 5


@login_required
def dashboard(request):
    """The profile card; for admins, the club's counts and their day's start; for everyone else,
    what waits for them (their home) above it."""
    user = request.user
    context = {"profile": user, "counts": None, "today": None, "home": None}
    if user.is_admin:
        # Counted with the same selectors as the pages that list them.
        counts = {
            "courts": court_list().count(),
            "users": user_list().count(),
            "members": user_list(role=User.Role.MEMBER).count(),
        }
        context |= {"counts": counts, "today": _day_start(user)}
    else:
        context["home"] = _home(user)
    return render(request, "dashboard/index.html", context)


def _home(user: User) -> dict:
    """A person's membership (with its plan), next bookings, payments due, slots held for them and
    unread announcements: one query each, however many there are."""
    now = timezone.now()
    next_bookings = list(upcoming_bookings(user=user, now=now)[:NEXT_BOOKINGS_SHOWN])
    unread = list(unread_announcements(user=user)[:UNREAD_ANNOUNCEMENTS_SHOWN])
    return {
        "membership": membership_current(user=user),
        "next_bookings": next_bookings,
        "next_bookings_count": next_bookings[0].upcoming_count if next_bookings else 0,
        "payments_due": list(payments_due(user=user)),
        "offers": offers_held_for(user=user, now=now),
        "unread": unread,
        "unread_count": unread[0].unread_count if unread else 0,
    }


def _day_start(admin: User) -> dict:
    now = timezone.localtime()
    month, last_month = day_start(month_start(now.date())), day_start(month_start(now.date(), 1))
    bookings, held, offered = day_occupancy(date=now.date())
    failing = list(renewals_failing()[:RENEWALS_FAILING_SHOWN])
    return {
        "pending": booking_list(viewer=admin, status=Booking.Status.PENDING).count(),
        "bookings": bookings,
        "occupancy": round(100 * held / offered) if offered else 0,
        "held": held,
        "offered": offered,
        "revenue": takings(start=month, end=now).net,
        # Last month up to the same day and hour, so the two compare like with like.
        "revenue_last_month": takings(start=last_month, end=_same_moment_of(last_month, now)).net,
        "revenue_last_month_whole": takings(start=last_month, end=month).net,
        "failed_refunds": failed_refunds().count(),
        "late_refunds": late_refunds(now=now).count(),
        "renewals_failing": failing,
        "renewals_failing_count": failing[0].failing_count if failing else 0,
    }


def _same_moment_of(month_start: datetime, now: datetime) -> datetime:
    """`now`'s day and time in the month starting at `month_start` (its last day if shorter)."""
    days = calendar.monthrange(month_start.year, month_start.month)[1]
    return now.replace(year=month_start.year, month=month_start.month, day=min(now.day, days))
