from django.contrib import messages
from django.shortcuts import redirect, render

from .forms import ContactForm
from .services import contact_message_create


def home(request):
    return render(request, "content/home.html")


def support(request):
    form = ContactForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        contact_message_create(**form.cleaned_data)
        messages.success(request, "Thank you! Your message has been sent. We'll reply within 24 hours.")
        # Post/Redirect/Get: the form comes back empty and a reload does not send it twice.
        return redirect("content:support")
    return render(request, "content/support.html", {"form": form})


def forbidden(request):
    return render(request, "errors/403.html", status=403)
