from django import forms
from django.utils import timezone

from courts.selectors import courts_all
from kernel.days import DayField, PeriodFilters

from .models import Coupon
from .selectors import PaidStatus


def _date() -> forms.DateInput:
    return forms.DateInput({"type": "date", "class": "input w-full"})


class LedgerFilters(PeriodFilters):
    """The ledger's filters; a malformed one is said under its field and filters nothing."""

    date_from = DayField(label="Paid from", required=False, widget=_date())
    date_to = DayField(label="Paid to", required=False, widget=_date())
    status = forms.ChoiceField(
        choices=[("", "Any status"), *PaidStatus.choices],
        required=False,
        widget=forms.Select({"class": "select w-full"}),
    )
    court = forms.ModelChoiceField(
        queryset=courts_all(),
        required=False,
        empty_label="Any court",
        widget=forms.Select({"class": "select w-full"}),
    )
    coupon = forms.ModelChoiceField(
        queryset=Coupon.objects.order_by("code"),
        required=False,
        empty_label="Any coupon",
        widget=forms.Select({"class": "select w-full"}),
    )
    email = forms.CharField(
        label="Person (e-mail contains)",
        required=False,
        max_length=254,
        widget=forms.TextInput({"type": "search", "class": "input w-full"}),
    )

    def __init__(self, data):
        data = data.copy()
        if "date_from" not in data and not data.get("date_to"):
            # This month unless asked otherwise: a sum of weeks, not of years.
            data["date_from"] = timezone.localdate().replace(day=1).isoformat()
        super().__init__(data)
