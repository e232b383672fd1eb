from rest_framework.permissions import BasePermission


class IsAdmin(BasePermission):
    message = "Only the club's admins may do this."

    def has_permission(self, request, view) -> bool:
        return bool(request.user and request.user.is_authenticated and request.user.is_admin)
