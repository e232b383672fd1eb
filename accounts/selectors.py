from django.db.models import Q, QuerySet

from .models import User


def user_list(*, search: str = "", role: str = "") -> QuerySet[User]:
    """All users, or those of one role, or those whose name or e-mail contains `search` (any case)."""
    users = User.objects.order_by("created_at", "id")
    if role:
        users = users.filter(role=role)
    if search := search.strip():
        users = users.filter(Q(name__icontains=search) | Q(email__icontains=search))
    return users


def user_by_email(email: str) -> User | None:
    return User.objects.filter(email=email.strip().lower()).first()
