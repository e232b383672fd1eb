from django.contrib import messages
from django.shortcuts import redirect, render
from django.views.decorators.csrf import csrf_exempt

from accounts.guards import login_required
from kernel.ratelimit import limit_posts

from .forms import PreferencesForm
from .services import preferences_get, unsubscribe

WHAT = {"reminders": "reminders", "announcements": "the club's announcements"}


@login_required
def preferences(request):
    """The optional e-mails a person gets. Messages about their own bookings always go."""
    form = PreferencesForm(request.POST or None, instance=preferences_get(user=request.user))
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, "Your e-mail preferences have been saved.")
        return redirect("notifications:preferences")
    return render(request, "notifications/preferences.html", {"form": form})


# The one-click unsubscribe of RFC 8058: a mail client POSTs to the link without a session or a CSRF
# token; the signed token in the address is the proof. A GET only asks (link scanners follow links).
@csrf_exempt
@limit_posts("unsubscribe")
def unsubscribe_link(request, token: str):
    if request.method != "POST":
        return render(request, "notifications/unsubscribe.html", {"token": token})
    optional = unsubscribe(token=token)
    if optional is None:
        return render(
            request, "notifications/unsubscribe.html", {"token": token, "invalid": True}, status=400
        )
    # Whose preference it was stays unsaid: a forwarded e-mail's link would show its reader the address.
    return render(request, "notifications/unsubscribe.html", {"done": WHAT[optional]})
