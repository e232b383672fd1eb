"""Who may open a page, decided on the server (docs/rules.md, Roles): signed-out visitors go to
/login?next=<the page>, signed-in people without the role to /forbidden. The JSON API's
equivalents are DRF permissions (accounts/permissions.py)."""

from functools import wraps

from django.contrib.auth.decorators import user_passes_test
from django.contrib.auth.views import redirect_to_login

from kernel.pages import service_unavailable

from .models import User


def sign_in_unavailable(request):
    return service_unavailable(
        request,
        heading="We can't check your sign-in right now",
        message="Our sign-in service is not answering. Please try again in a minute.",
    )


def login_required(view):
    @wraps(view)
    def guarded(request, *args, **kwargs):
        if request.user.is_authenticated:
            return view(request, *args, **kwargs)
        if getattr(request, "identity_unavailable", False):
            # Signed in, perhaps, but nobody can check it now: say so rather than ask to sign in again.
            return sign_in_unavailable(request)
        return redirect_to_login(request.get_full_path())

    return guarded


def role_required(role: str):
    has_role = user_passes_test(
        lambda user: isinstance(user, User) and user.role == role,
        "content:forbidden",
        redirect_field_name=None,
    )
    return lambda view: login_required(has_role(view))


admin_required = role_required(User.Role.ADMIN)
member_required = role_required(User.Role.MEMBER)
