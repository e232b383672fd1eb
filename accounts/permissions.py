"""Who may call an API view, beyond being signed in (DRF's IsAuthenticated, the default).

The sensitive operations ask the identity provider whether the caller's sign-in still stands on
every call, instead of trusting its last answer (accounts/identity.py, docs/operations.md,
Identity checks): signing in (accounts.apis.SessionApi), paying (`SignInCheckedNow` on the
payment views) and every admin write (`IsAdmin` on a POST, PUT, PATCH or DELETE; Django admin's
writes, accounts.middleware).
"""

from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import SAFE_METHODS, BasePermission

from .authentication import check_sign_in_now
from .models import User


class IsAdmin(BasePermission):
    message = "Only the club's admins may do this."

    def has_permission(self, request, view) -> bool:
        if not (request.user and request.user.is_authenticated and request.user.is_admin):
            return False
        if request.method not in SAFE_METHODS:
            check_sign_in_now(request)  # an admin write: a sensitive operation
        return True


class SignInCheckedNow(BasePermission):
    """A sensitive operation for anyone signed in (a payment): the sign-in is checked with the
    identity provider on this call."""

    def has_permission(self, request, view) -> bool:
        if not (request.user and request.user.is_authenticated):
            return False
        check_sign_in_now(request)
        return True


def require_self(user: User, email: str | None, *, or_admin: bool, message: str) -> None:
    """Refuses with a 403 saying `message` a request that names someone other than the caller,
    `user`, by `email` (normalised by accounts.serializers.NormalisedEmailField, or a stored
    address); with `or_admin`, an admin may name anyone. A request that names no one is the
    caller's own."""
    if email and email != user.email and not (or_admin and user.is_admin):
        raise PermissionDenied(message)
