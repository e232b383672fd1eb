from django import forms

from .models import ContactMessage, ContactReply


class ContactForm(forms.ModelForm):
    class Meta:
        model = ContactMessage
        fields = ["name", "email", "message"]
        widgets = {
            "name": forms.TextInput(attrs={"class": "input w-full", "autocomplete": "name"}),
            "email": forms.EmailInput(attrs={"class": "input w-full", "autocomplete": "email"}),
            "message": forms.Textarea(attrs={"class": "textarea w-full", "rows": 5}),
        }
        error_messages = {
            "name": {"required": "Please enter your name."},
            "email": {
                "required": "Please enter your e-mail address.",
                "invalid": "Please enter a valid e-mail address.",
            },
            "message": {"required": "Please write your message."},
        }


class ContactReplyForm(forms.ModelForm):
    class Meta:
        model = ContactReply
        fields = ["text"]
        labels = {"text": "Your reply"}
        widgets = {"text": forms.Textarea(attrs={"class": "textarea w-full", "rows": 6})}
        error_messages = {"text": {"required": "Please write your reply."}}
