from django import forms

from kernel.text import validate_one_line

from .models import validate_photo_url


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
