from django import forms
from django.utils import timezone

from courts.selectors import courts_all
from kernel.days import DayField

from .models import Coupon
from .selectors import PaidStatus


def _date() -> forms.DateInput:
    return forms.DateInput({"type": "date", "class": "input w-full"})


class LedgerFilters(forms.Form):
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

    def clean(self):
        cleaned = super().clean()
        first, last = cleaned.get("date_from"), cleaned.get("date_to")
        if first and last and last < first:
            self.add_error("date_to", f"The last day comes on or after the first ({first:%Y-%m-%d}).")
            del cleaned["date_from"]
        return cleaned

    def filters(self) -> dict:
        """The valid filters that are set."""
        self.is_valid()
        return {name: value for name, value in self.cleaned_data.items() if value not in (None, "")}
