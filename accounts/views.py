from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from kernel.pages import service_unavailable

from .forms import ProfileForm
from .guards import login_required
from .identity import IdentityProviderUnavailable, has_password
from .services import session_end, user_sign_out_everywhere, user_update_profile


def _next_page(request) -> str:
    """Where to go after signing in: the `next` page if it is on this site, else home."""
    target = request.GET.get("next", "")
    safe = url_has_allowed_host_and_scheme(target, {request.get_host()}, require_https=request.is_secure())
    return target if safe else "/"


def login_page(request):
    next_page = _next_page(request)
    if request.user.is_authenticated:
        return redirect(next_page)
    return render(request, "accounts/login.html", {"island_props": {"next": next_page}})


def register_page(request):
    if request.user.is_authenticated:
        return redirect("/")
    return render(request, "accounts/register.html", {"island_props": {"next": "/"}})


def email_verified(request):
    """Where Firebase's verification link ends once it has verified the address (the continue URL
    the islands give it, frontend/src/lib/firebase.ts): Firebase goes on to it only after a success."""
    return render(request, "accounts/email_verified.html")


def forgot_password(request):
    """Asks Firebase for a password-reset e-mail (the island); the page never says whether the
    address has an account."""
    return render(request, "accounts/forgot_password.html", {"island_props": {}})


@login_required
def profile(request):
    """Name and photo (a form here), password (an island, through Firebase), sign out everywhere."""
    user = request.user
    form = ProfileForm(
        request.POST or None, initial={"name": user.name, "image": user.image, "level": user.level}
    )
    if request.method == "POST" and form.is_valid():
        user_update_profile(user=user, **form.cleaned_data)
        messages.success(request, "Your profile has been saved.")
        return redirect("accounts:profile")
    try:
        password = has_password(user.firebase_uid)
    except IdentityProviderUnavailable:
        password = True  # the form is offered; trying it says whether Firebase answers
    context = {"form": form, "password_props": {"email": user.email} if password else None}
    return render(request, "accounts/profile.html", context)


@require_POST
@login_required
def sign_out_everywhere(request):
    try:
        user_sign_out_everywhere(user=request.user)
    except IdentityProviderUnavailable:
        return service_unavailable(
            request,
            heading="We can't sign you out everywhere right now",
            message="Our sign-in service is not answering. Nothing has changed: please try again shortly.",
        )
    return _signed_out(request, "accounts:login", "You have been signed out on every device.")


def admin_password_change(request, extra_context=None):
    """Django admin's "Change password": passwords are Firebase's, changed on the profile page."""
    messages.info(request, "Passwords are kept by Firebase: change yours here, under Password.")
    return redirect("accounts:profile")


@require_POST
def logout(request, extra_context=None):
    """Signs out (a form POST with CSRF) and says so on the home page. Also Django admin's logout."""
    return _signed_out(request, "/", "Logged out successfully!")


def _signed_out(request, to: str, message: str):
    response = redirect(to)
    session_end(request, response)
    messages.success(request, message)
    return response


def admin_login(request, extra_context=None):
    """Django admin's login page: the site's own sign-in, then back to admin (admins only)."""
    if request.user.is_authenticated:
        return redirect(_next_page(request) if request.user.is_admin else "content:forbidden")
    return redirect_to_login(request.GET.get("next", "/admin/"))
