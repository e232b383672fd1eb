from django import forms
from django.core.validators import URLValidator


class ProfileForm(forms.Form):
    """What a person may change about themselves on their profile page."""

    name = forms.CharField(
        label="Name",
        max_length=150,
        error_messages={"required": "Please enter your name.", "max_length": "Keep it to 150 characters."},
        widget=forms.TextInput(attrs={"class": "input w-full", "autocomplete": "name"}),
    )
    # https only: the pages' Content Security Policy loads images from this site or over https.
    image = forms.CharField(
        label="Photo (the address of an image)",
        required=False,
        max_length=500,
        validators=[URLValidator(schemes=["https"], message="Enter an https:// address of an image.")],
        error_messages={"max_length": "Keep the address to 500 characters."},
        widget=forms.URLInput(attrs={"class": "input w-full", "placeholder": "https://"}),
    )
