"""The dashboard: its landing page (which shows several apps' records, so the project owns it) and what
its pages share."""

from django.shortcuts import render

from accounts.guards import login_required
from accounts.models import User
from accounts.selectors import user_list
from courts.selectors import court_list


def island_page(request, *, heading: str, island: str, props: dict):
    """A dashboard page that is one island (an admin table with its forms), given its props."""
    return render(
        request, "dashboard/island_page.html", {"heading": heading, "island": island, "island_props": props}
    )


@login_required
def dashboard(request):
    """The dashboard's landing page: the profile card, and for admins the club's counts. It shows
    several apps' records, so the project owns it."""
    user = request.user
    context = {"profile": user, "counts": _club_counts() if user.is_admin else None}
    return render(request, "accounts/dashboard.html", context)


def _club_counts() -> dict[str, int]:
    """What an admin sees first: total courts, total users, total members (users whose role is
    member), counted with the same selectors as the pages that list them."""
    return {
        "courts": court_list().count(),
        "users": user_list().count(),
        "members": user_list(role=User.Role.MEMBER).count(),
    }
