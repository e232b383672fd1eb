"""Who may call an API view, beyond being signed in (DRF's IsAuthenticated, the default). Paying
(`SignInCheckedNow`) and every admin write (`IsAdmin`) ask the identity provider now whether the
caller's sign-in still stands, as signing in and Django admin's writes do (accounts/identity.py)."""

from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import SAFE_METHODS, BasePermission

from .authentication import check_sign_in_now
from .models import User


class IsAdmin(BasePermission):
    message = "Only the club's admins may do this."

    def has_permission(self, request, view) -> bool:
        if not (request.user.is_authenticated and request.user.is_admin):
            return False
        if request.method not in SAFE_METHODS:
            check_sign_in_now(request)
        return True


class SignInCheckedNow(BasePermission):
    def has_permission(self, request, view) -> bool:
        if not request.user.is_authenticated:
            return False
        check_sign_in_now(request)
        return True


def require_self(user: User, email: str | None, *, or_admin: bool, message: str) -> None:
    """Refuses with a 403 saying `message` a request that names by `email` (normalised) someone
    other than the caller, `user`; with `or_admin`, an admin may name anyone."""
    if email and email != user.email and not (or_admin and user.is_admin):
        raise PermissionDenied(message)
