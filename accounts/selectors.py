from datetime import date

from django.db.models import Count, Q, QuerySet
from django.db.models.functions import TruncMonth
from django.utils import timezone

from kernel.days import moments

from .models import User


def user_list(*, search: str = "", role: str = "") -> QuerySet[User]:
    users = User.objects.order_by("created_at", "id")
    if role:
        users = users.filter(role=role)
    if search := search.strip():
        users = users.filter(Q(name__icontains=search) | Q(email__icontains=search))
    return users


def people_named(search: str, *, asking: User) -> QuerySet[User]:
    """The club's people, but `asking`, whose name holds `search` (any case), in the order of their
    names: by name alone, never by e-mail, which would tell whoever tries an address whether its
    owner belongs to the club. Someone who gave no name cannot be found."""
    return (
        User.objects.filter(is_active=True, name__icontains=search.strip())
        .exclude(pk=asking.pk)
        .exclude(name="")
        .order_by("name", "id")
    )


def user_by_email(email: str) -> User | None:
    return User.objects.filter(email=email.strip().lower()).first()


def new_members_by_month(*, date_from: date, date_to: date) -> dict[date, int]:
    """How many people became members (their first payment) in each month from `date_from` to
    `date_to`: {first day of the month: count} for the months that had any, in one query."""
    start, end = moments(date_from, date_to)
    months = (
        User.objects.filter(member_since__gte=start, member_since__lt=end)
        .annotate(month=TruncMonth("member_since", tzinfo=timezone.get_current_timezone()))
        .order_by()
        .values("month")
        .annotate(count=Count("pk"))
    )
    return {row["month"].date(): row["count"] for row in months}
