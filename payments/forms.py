from django import forms
from django.utils import timezone

from courts.selectors import courts_all
from kernel.days import DayField, PeriodFilters

from .models import Coupon
from .selectors import Kind, PaidStatus


class LedgerFilters(PeriodFilters):
    """The ledger's filters; a malformed one is said under its field and filters nothing."""

    date_from = DayField(label="Paid from", required=False, widget=forms.DateInput({"type": "date"}))
    date_to = DayField(label="Paid to", required=False, widget=forms.DateInput({"type": "date"}))
    kind = forms.ChoiceField(
        choices=[
            ("", "Any kind"),
            (Kind.BOOKING, "Bookings"),
            (Kind.MEMBERSHIP, "Memberships"),
            (Kind.REGISTRATION, "Registrations"),
        ],
        required=False,
    )
    status = forms.ChoiceField(choices=[("", "Any status"), *PaidStatus.choices], required=False)
    court = forms.ModelChoiceField(queryset=courts_all(), required=False, empty_label="Any court")
    coupon = forms.ModelChoiceField(
        queryset=Coupon.objects.order_by("code"), required=False, empty_label="Any coupon"
    )
    email = forms.CharField(
        label="Person (e-mail contains)", required=False, max_length=254, widget=forms.SearchInput
    )

    def __init__(self, data):
        data = data.copy()
        if "date_from" not in data and not data.get("date_to"):
            # This month unless asked otherwise: a sum of weeks, not of years.
            data["date_from"] = timezone.localdate().replace(day=1).isoformat()
        super().__init__(data)
        for field in self.fields.values():
            field.widget.attrs["class"] = (
                "select w-full" if isinstance(field, forms.ChoiceField) else "input w-full"
            )
