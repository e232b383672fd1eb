"""The audit trail's page (docs/rules.md, Audit trail): every admin action, newest first, for the
admins, filtered by kind of action, by who, by day, or by one record."""

from django import forms
from django.shortcuts import render

from accounts.guards import admin_required
from audit.selectors import audit_trail
from kernel.days import DayField
from kernel.pagination import page_of

# The kinds of action, by the prefix of their names (audit.services.audit_record's callers).
KINDS = [
    ("", "Every action"),
    ("booking.", "Bookings"),
    ("block.", "Blocks"),
    ("program.", "Programs"),
    ("refund.", "Refunds"),
    ("court.", "Courts"),
    ("coupon.", "Coupons"),
    ("plan.", "Membership plans"),
    ("announcement.", "Announcements"),
    ("policy.", "Club rules"),
    ("user.", "Roles and memberships"),
    ("contact.", "Support replies"),
    ("calendar_feed.", "Calendar feeds"),
    ("admin.", "Django admin fixes"),
]
DAY_INPUT = {"type": "date", "class": "input w-full"}


class TrailFilters(forms.Form):
    action = forms.ChoiceField(
        label="Action", choices=KINDS, required=False, widget=forms.Select({"class": "select w-full"})
    )
    actor_email = forms.CharField(
        label="By (e-mail contains)",
        max_length=254,
        required=False,
        widget=forms.TextInput({"class": "input w-full"}),
    )
    date_from = DayField(label="From", required=False, widget=forms.DateInput(DAY_INPUT))
    date_to = DayField(label="To", required=False, widget=forms.DateInput(DAY_INPUT))
    target_type = forms.CharField(required=False, widget=forms.HiddenInput)
    target_id = forms.CharField(required=False, max_length=50, widget=forms.HiddenInput)

    def filters(self) -> dict:
        """The valid filters (a malformed one, said under its field, filters nothing)."""
        self.is_valid()
        return {name: value for name, value in self.cleaned_data.items() if value}


@admin_required
def trail(request):
    filters = TrailFilters(request.GET)
    page = page_of(request, audit_trail(**filters.filters()).select_related("actor"))
    return render(request, "audit/trail.html", {"page": page, "filters": filters})
