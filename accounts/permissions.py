from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import BasePermission

from .models import User


class IsAdmin(BasePermission):
    message = "Only the club's admins may do this."

    def has_permission(self, request, view) -> bool:
        return bool(request.user and request.user.is_authenticated and request.user.is_admin)


def require_self(user: User, email: str | None, *, or_admin: bool, message: str) -> None:
    """Refuses with a 403 saying `message` a request that names someone other than the caller,
    `user`, by `email` (normalised by accounts.serializers.NormalisedEmailField, or a stored
    address); with `or_admin`, an admin may name anyone. A request that names no one is the
    caller's own."""
    if email and email != user.email and not (or_admin and user.is_admin):
        raise PermissionDenied(message)
