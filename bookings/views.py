"""The booking pages of the dashboard: one list template, configured per page."""

from django.shortcuts import render

from accounts.guards import admin_required, login_required, member_required

from .models import Booking
from .selectors import booking_list
from .tables import COURT, DATE, EMAIL, NUMBER, PAY, PRICE, SLOTS, STATUS, USER, Column, table_rows

Status = Booking.Status


def _list_page(
    request, bookings, *, heading: str, empty: str, columns: tuple[Column, ...], actions=(), **extra
):
    """`columns`: the table's columns, in order (bookings/tables.py); `actions`: the
    booking-action island's buttons on each row."""
    context = {
        "rows": table_rows(bookings, columns),
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
        columns=(COURT, DATE, SLOTS, PRICE),
        actions=["cancel-pending"],
    )


@login_required
def my_approved(request):
    return _list_page(
        request,
        _mine(request, Status.APPROVED),
        heading="My Approved Bookings",
        empty="No approved bookings found.",
        columns=(COURT, DATE, SLOTS, PRICE, PAY),
        actions=["cancel-approved"],
    )


@member_required
def my_confirmed(request):
    return _list_page(
        request,
        _mine(request, Status.CONFIRMED),
        heading="My Confirmed Bookings",
        empty="No confirmed bookings found.",
        columns=(NUMBER, COURT, DATE, SLOTS, PRICE, STATUS),
    )


@admin_required
def approvals(request):
    return _list_page(
        request,
        booking_list(viewer=request.user, status=Status.PENDING),
        heading="Manage Booking Approvals",
        empty="No pending bookings available.",
        columns=(NUMBER, USER, COURT, SLOTS, PRICE, DATE),
        actions=["approve", "reject"],
    )


@admin_required
def confirmed(request):
    title = request.GET.get("title", "")
    return _list_page(
        request,
        booking_list(viewer=request.user, status=Status.CONFIRMED, title=title),
        heading="Confirmed Bookings",
        # This page lists confirmed bookings, so its empty text names them (not the approvals page's).
        empty="No confirmed bookings found.",
        columns=(NUMBER, COURT, DATE, SLOTS, EMAIL, PRICE, STATUS),
        searchable=True,
        title=title,
    )
