"""The booking pages of the dashboard: one list template, configured per page."""

from django.shortcuts import render

from accounts.guards import admin_required, login_required, member_required

from .models import Booking
from .selectors import booking_list

Status = Booking.Status


def _list_page(request, bookings, *, heading: str, empty: str, columns: str, actions=(), **extra):
    """`columns`: the optional columns of bookings/_table.html to show; `actions`: the
    booking-action island's buttons on each row."""
    context = {
        "bookings": bookings,
        "heading": heading,
        "empty": empty,
        "columns": columns,
        "actions": actions,
    }
    return render(request, "bookings/list.html", {**context, **extra})


def _mine(request, status: str):
    return booking_list(viewer=request.user, status=status, email=request.user.email)


@login_required
def my_pending(request):
    return _list_page(
        request,
        _mine(request, Status.PENDING),
        heading="My Pending Bookings",
        empty="No pending bookings found.",
        columns="date",
        actions=["cancel-pending"],
    )


@login_required
def my_approved(request):
    return _list_page(
        request,
        _mine(request, Status.APPROVED),
        heading="My Approved Bookings",
        empty="No approved bookings found.",
        columns="date,pay",
        actions=["cancel-approved"],
    )


@member_required
def my_confirmed(request):
    return _list_page(
        request,
        _mine(request, Status.CONFIRMED),
        heading="My Confirmed Bookings",
        empty="No confirmed bookings found.",
        columns="number,date,status",
    )


@admin_required
def approvals(request):
    return _list_page(
        request,
        booking_list(viewer=request.user, status=Status.PENDING),
        heading="Manage Booking Approvals",
        empty="No pending bookings available.",
        columns="number,user,day",
        actions=["approve", "reject"],
    )


@admin_required
def confirmed(request):
    title = request.GET.get("title", "")
    return _list_page(
        request,
        booking_list(viewer=request.user, status=Status.CONFIRMED, title=title),
        heading="Confirmed Bookings",
        # The spec's original said 'No pending bookings available.' here, a defect: it lists confirmed ones.
        empty="No confirmed bookings found.",
        columns="number,date,email,status",
        searchable=True,
        title=title,
    )
