from django import forms

from kernel.text import validate_one_line

from .models import LEVEL_HIGHEST, LEVEL_LOWEST, validate_photo_url


class ProfileForm(forms.Form):
    name = forms.CharField(
        max_length=150,
        validators=[validate_one_line],
        error_messages={"required": "Please enter your name.", "max_length": "Keep it to 150 characters."},
        widget=forms.TextInput(attrs={"class": "input w-full", "autocomplete": "name"}),
    )
    image = forms.CharField(
        label="Photo (the address of an image)",
        required=False,
        max_length=500,
        validators=[validate_photo_url],
        error_messages={"max_length": "Keep the address to 500 characters."},
        widget=forms.URLInput(attrs={"class": "input w-full", "placeholder": "https://"}),
    )
    level = forms.DecimalField(
        label="Your level (1.0 to 7.0)",
        required=False,
        min_value=LEVEL_LOWEST,
        max_value=LEVEL_HIGHEST,
        decimal_places=1,
        help_text="How well you play, as you judge it: 1.0 a beginner, 7.0 a professional. Others "
        "see it when they choose players.",
        error_messages={"max_decimal_places": "Give it to one decimal, like 3.5."},
        widget=forms.NumberInput(attrs={"class": "input w-full", "step": "0.1", "min": "1", "max": "7"}),
    )
