from django.shortcuts import render

from accounts.guards import admin_required, login_required, member_required

from .models import Booking
from .selectors import booking_list

Status = Booking.Status


def _my_bookings(request, *, status: str, template: str, actions: list[str]):
    bookings = booking_list(viewer=request.user, status=status, email=request.user.email)
    return render(request, template, {"bookings": bookings, "actions": actions})


@login_required
def my_pending(request):
    return _my_bookings(
        request, status=Status.PENDING, template="bookings/my_pending.html", actions=["cancel-pending"]
    )


@login_required
def my_approved(request):
    return _my_bookings(
        request, status=Status.APPROVED, template="bookings/my_approved.html", actions=["cancel-approved"]
    )


@member_required
def my_confirmed(request):
    return _my_bookings(request, status=Status.CONFIRMED, template="bookings/my_confirmed.html", actions=[])


@admin_required
def approvals(request):
    bookings = booking_list(viewer=request.user, status=Status.PENDING)
    return render(
        request, "bookings/approvals.html", {"bookings": bookings, "actions": ["approve", "reject"]}
    )


@admin_required
def confirmed(request):
    title = request.GET.get("title", "")
    bookings = booking_list(viewer=request.user, status=Status.CONFIRMED, title=title)
    return render(request, "bookings/confirmed.html", {"bookings": bookings, "title": title})
