"""Who may call an API view, beyond being signed in (DRF's IsAuthenticated, the default). Paying
(`SignInCheckedNow`) and every admin write (`IsAdmin`) ask the identity provider now whether the
caller's sign-in still stands, as signing in and Django admin's writes do (accounts/identity.py)."""

from rest_framework.exceptions import AuthenticationFailed, PermissionDenied
from rest_framework.permissions import SAFE_METHODS, BasePermission

from .authentication import FirebaseSessionAuthentication, IdentityUnavailable
from .identity import IdentityProviderUnavailable, InvalidCredential, check_revocation
from .models import User


class SignInCheckedNow(BasePermission):
    """Refused: 401, and a session cookie is dropped (the middleware)."""

    def has_permission(self, request, view) -> bool:
        if not request.user.is_authenticated:
            return False
        try:
            check_revocation(request._request.identity)
        except InvalidCredential as error:
            if isinstance(request.successful_authenticator, FirebaseSessionAuthentication):
                request._request.identity_cookie_invalid = True
            raise AuthenticationFailed("Your sign-in has ended. Please sign in again.") from error
        except IdentityProviderUnavailable as error:
            raise IdentityUnavailable() from error
        return True


class IsAdmin(SignInCheckedNow):
    message = "Only the club's admins may do this."

    def has_permission(self, request, view) -> bool:
        if not (request.user.is_authenticated and request.user.is_admin):
            return False
        return request.method in SAFE_METHODS or super().has_permission(request, view)


def require_self(user: User, email: str | None, *, or_admin: bool, message: str) -> None:
    """Refuses with a 403 saying `message` a request that names by `email` (normalised) someone
    other than the caller, `user`; with `or_admin`, an admin may name anyone."""
    if email and email != user.email and not (or_admin and user.is_admin):
        raise PermissionDenied(message)
