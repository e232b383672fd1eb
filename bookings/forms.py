from datetime import date as Date
from typing import cast

from django import forms

from courts.selectors import courts_all
from kernel.bounds import bounded_formfield
from kernel.days import PeriodFilters

from .models import Booking, Match, Policy
from .slots import REACH_DAYS

# Widgets fields share (here and in PolicyForm): Django copies a widget for each field given it.
DAY = forms.DateInput({"type": "date", "class": "input w-full"})
SELECT = forms.Select({"class": "select"})


def _search(placeholder: str) -> forms.TextInput:
    return forms.TextInput({"type": "search", "class": "input w-full", "placeholder": placeholder})


class BookingFilters(PeriodFilters):
    """The booking list pages' filters (each page offers those it names); invalid ones filter nothing."""

    title = forms.CharField(
        label="Court title", required=False, max_length=100, widget=_search("Search by court title...")
    )
    email = forms.CharField(required=False, max_length=254, widget=_search("Part of an e-mail address"))
    court = forms.ModelChoiceField(
        queryset=courts_all(), required=False, empty_label="Any court", widget=SELECT
    )
    date = forms.DateField(required=False, widget=DAY)
    date_from = forms.DateField(label="From", required=False, widget=DAY)
    date_to = forms.DateField(label="To", required=False, widget=DAY)
    status = forms.ChoiceField(choices=Booking.Status.choices, required=False, widget=SELECT)

    def __init__(self, data, *, offered: str, initial_status: str = ""):
        data = data.copy()
        if initial_status and not data.get("status"):
            data["status"] = initial_status
        super().__init__(data)
        for name in set(self.fields) - set(offered.split()):
            del self.fields[name]
        if "status" in self.fields and not initial_status:
            status = cast(forms.ChoiceField, self.fields["status"])  # declared so (PeriodFilters)
            status.choices = [("", "Any status"), *Booking.Status.choices]


class ScheduleFilters(forms.Form):
    """The day sheet's day and court type; an invalid one shows today's, or every type's."""

    date = forms.DateField(label="Day", required=False, widget=DAY)
    type = forms.ChoiceField(label="Court type", required=False, widget=SELECT)

    def __init__(self, data, *, types: list[str], today: Date):
        data = data.copy()
        if not data.get("date"):
            data["date"] = today.isoformat()
        super().__init__(data)
        self.today = today
        court_type = cast(forms.ChoiceField, self.fields["type"])  # declared so above
        court_type.choices = [("", "Every type"), *((type, type) for type in types)]

    def clean_date(self) -> Date | None:
        # The sheet links the weeks around its day: keep it where a calendar has weeks around it.
        day = self.cleaned_data["date"]
        if day is not None and abs((day - self.today).days) > REACH_DAYS:
            raise forms.ValidationError("Choose a day within two years of today.")
        return day

    def filters(self) -> tuple[Date, str]:
        self.is_valid()
        return self.cleaned_data.get("date") or self.today, self.cleaned_data.get("type", "")


LEVEL = forms.NumberInput({"class": "input w-full max-w-28", "step": "0.1", "min": "1", "max": "7"})


class MatchFilters(forms.Form):
    """The open matches' filters (/matches); invalid ones filter nothing."""

    date = forms.DateField(label="Day", required=False, widget=DAY)
    type = forms.ChoiceField(label="Court type", required=False, widget=SELECT)
    level = forms.DecimalField(
        label="Your level", required=False, min_value=1, max_value=7, decimal_places=1, widget=LEVEL
    )

    def __init__(self, data, *, types: list[str]):
        super().__init__(data)
        court_type = cast(forms.ChoiceField, self.fields["type"])  # declared so above
        court_type.choices = [("", "Every type"), *((type, type) for type in types)]

    def filters(self) -> dict[str, object]:
        self.is_valid()
        data = self.cleaned_data
        return {"on": data.get("date"), "court_type": data.get("type", ""), "level": data.get("level")}


class MatchForm(forms.ModelForm):
    """A booking opened as a match, on its page (saved by matches.match_open)."""

    class Meta:
        model = Match
        fields = ["places", "deadline", "level_min", "level_max", "play_anyway"]
        labels = {
            "places": "Players in all, you included",
            "deadline": "Full by",
            "level_min": "Lowest level",
            "level_max": "Highest level",
            "play_anyway": "Play anyway if it is not full by then",
        }
        # The labels say it all: no help text, which includes/field.html would not show.
        help_texts = dict.fromkeys(fields, "")
        widgets = {
            "places": forms.NumberInput({"class": "input w-full max-w-28", "min": "2"}),
            "deadline": forms.DateTimeInput(
                {"type": "datetime-local", "class": "input w-full"}, format="%Y-%m-%dT%H:%M"
            ),
            "level_min": LEVEL,
            "level_max": LEVEL,
            "play_anyway": forms.CheckboxInput({"class": "checkbox"}),
        }


# The policy's rules as the Club Rules page groups them: legend, then the rules' names.
POLICY_SECTIONS = {
    "Approval": "approval_required decision_window_hours payment_window_hours checkout_hold_minutes",
    "How far ahead": "advance_days_user advance_days_member",
    "Limits per person": "open_bookings_limit daily_hours_limit daily_open_hours_limit "
    "weekly_open_hours_limit rerequest_cooldown_minutes",
    "Cancelling a paid booking": "cancel_cutoff_hours refund_percent late_refund_percent",
    "Players": "price_sharing guest_fee",
    "Series": "series_payment",
    "Waitlist": "waitlist_hold_minutes",
    "Memberships": "membership_grace_days",
}


class PolicyForm(forms.ModelForm):
    """The club's booking policy on the Club Rules page (saved by services.policy_update)."""

    class Meta:
        model = Policy
        formfield_callback = bounded_formfield
        fields = [name for names in POLICY_SECTIONS.values() for name in names.split()]
        labels = {
            "approval_required": "An admin approves each request before it is paid",
            "decision_window_hours": "Hours a request waits for an admin's decision before it expires",
            "payment_window_hours": "Hours an approved booking waits for its payment before it expires",
            "checkout_hold_minutes": "Instant booking: minutes the slots are held while the person pays",
            "advance_days_user": "Days ahead a user may book",
            "advance_days_member": "Days ahead a member may book",
            "open_bookings_limit": "Open bookings (waiting for a decision or a payment) per person",
            "daily_hours_limit": "Hours of courts per person per day (empty: no limit)",
            "daily_open_hours_limit": "Hours of unpaid bookings per person per day (empty: no limit)",
            "weekly_open_hours_limit": "Hours of unpaid bookings per person per week, Monday to Sunday "
            "(empty: no limit)",
            "rerequest_cooldown_minutes": "Minutes before a person may request again slots they let go "
            "(empty: no wait)",
            "cancel_cutoff_hours": "Cut-off: hours before the start",
            "refund_percent": "Refund before the cut-off (%)",
            "late_refund_percent": "Refund after the cut-off (%)",
            "price_sharing": "Who pays for a booking with players",
            "guest_fee": "Guest fee, per guest per booking ($)",
            "series_payment": "How a series is paid",
            "waitlist_hold_minutes": "Minutes a freed slot is held for the first on its waitlist",
            "membership_grace_days": "Days a membership whose renewal was declined keeps its benefits",
        }
        widgets = dict.fromkeys(fields, forms.NumberInput(attrs={"class": "input w-full max-w-40"})) | {
            "approval_required": forms.CheckboxInput(attrs={"class": "checkbox"}),
            "price_sharing": forms.Select(attrs={"class": "select"}),
            "series_payment": forms.Select(attrs={"class": "select"}),
            "guest_fee": forms.NumberInput(attrs={"class": "input w-full max-w-40", "step": "0.01"}),
        }
