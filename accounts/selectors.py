from django.db.models import Count, Q, QuerySet

from courts.models import Court

from .models import User


def user_list(*, search: str = "") -> QuerySet[User]:
    """All users, optionally those whose name or e-mail contains `search` (any case)."""
    users = User.objects.order_by("created_at", "id")
    if search := search.strip():
        users = users.filter(Q(name__icontains=search) | Q(email__icontains=search))
    return users


def user_by_email(email: str) -> User | None:
    return User.objects.filter(email=email.strip().lower()).first()


def dashboard_counts() -> dict[str, int]:
    """What an admin sees first: total courts, total users, total members (users whose role is member)."""
    users = User.objects.aggregate(users=Count("id"), members=Count("id", filter=Q(role=User.Role.MEMBER)))
    return {"courts": Court.objects.count(), **users}
