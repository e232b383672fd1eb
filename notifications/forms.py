from django import forms

from .models import Preferences


class PreferencesForm(forms.ModelForm):
    class Meta:
        model = Preferences
        fields = Preferences.OPTIONAL
        labels = {
            "reminders": (
                "Reminders: before an approved booking's payment is due, and the day before a booking"
            ),
            "announcements": "The club's new announcements",
        }
        widgets = {name: forms.CheckboxInput(attrs={"class": "checkbox"}) for name in Preferences.OPTIONAL}
