import re
from typing import cast

from django import forms
from django.core.exceptions import ValidationError

from courts.selectors import courts_all
from kernel.slots import Slot

from .models import Program

INPUT = {"class": "input w-full"}
MOMENT = forms.DateTimeInput({"type": "datetime-local", "class": "input w-full"}, format="%Y-%m-%dT%H:%M")
DAY = forms.DateInput({"type": "date", "class": "input w-full"})
# The service's names of fields (the API's) that the form names otherwise.
FORM_NAMES = {"courtIds": "courts", "coachEmail": "coach_email"}


class ProgramDetailsForm(forms.Form):
    """A program's details, which an admin may change after making it (programs.services.program_update)."""

    kind = forms.ChoiceField(choices=Program.Kind.choices, widget=forms.Select({"class": "select w-full"}))
    title = forms.CharField(max_length=100, widget=forms.TextInput(INPUT))
    description = forms.CharField(
        max_length=2000, required=False, widget=forms.Textarea({"class": "textarea w-full", "rows": 3})
    )
    coach_email = forms.EmailField(
        label="Coach's e-mail (a person of the club)", required=False, widget=forms.EmailInput(INPUT)
    )
    coach_name = forms.CharField(
        label="Or the coach's name", max_length=100, required=False, widget=forms.TextInput(INPUT)
    )
    capacity = forms.IntegerField(label="Places", min_value=1, max_value=500, widget=forms.NumberInput(INPUT))
    price = forms.DecimalField(
        label="Price per participant ($)",
        min_value=0,
        max_digits=8,
        decimal_places=2,
        widget=forms.NumberInput({**INPUT, "step": "0.01"}),
    )
    registration_opens_at = forms.DateTimeField(label="Registration opens", widget=MOMENT)
    registration_closes_at = forms.DateTimeField(label="Registration closes", widget=MOMENT)
    members_only = forms.BooleanField(
        label="Members only", required=False, widget=forms.CheckboxInput({"class": "checkbox"})
    )
    cancel_cutoff_hours = forms.IntegerField(
        label="Full refund until this many hours before it begins",
        initial=24,
        min_value=0,
        max_value=720,
        widget=forms.NumberInput(INPUT),
    )

    def refused(self, error: ValidationError) -> None:
        """The service's refusal, each message under its field."""
        for name, messages in error.message_dict.items():
            field = FORM_NAMES.get(name) or re.sub(r"(?<!^)([A-Z])", r"_\1", name).lower()
            self.add_error(field if field in self.fields else None, messages)


class ProgramForm(ProgramDetailsForm):
    """Manage Programs' form for a new program (programs.services.program_create): its details, and
    the courts and slots it holds on its days."""

    courts = forms.ModelMultipleChoiceField(
        queryset=courts_all().filter(is_archived=False), widget=forms.CheckboxSelectMultiple
    )
    first_date = forms.DateField(label="First day", widget=DAY)
    until = forms.DateField(label="Weekly until (empty: one day)", required=False, widget=DAY)
    slots = forms.MultipleChoiceField(widget=forms.CheckboxSelectMultiple)

    # Where it is and when, after who coaches it.
    field_order = [
        "kind",
        "title",
        "description",
        "coach_email",
        "coach_name",
        "courts",
        "first_date",
        "until",
        "slots",
    ]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        offered = {slot for court in courts_all().filter(is_archived=False) for slot in court.slots}
        slots_field = cast(forms.MultipleChoiceField, self.fields["slots"])  # declared so above
        slots_field.choices = [(slot, slot) for slot in sorted(offered, key=Slot.parse)]
