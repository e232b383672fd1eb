from django.contrib.auth.models import AnonymousUser
from django.db.models import QuerySet

from accounts.models import User

from .models import Plan


def plan_list(*, viewer: User | AnonymousUser, on_sale: bool | None = None) -> QuerySet[Plan]:
    """The plans `viewer` may see, by name: an admin every plan, or with `on_sale` those on sale
    (True) or off sale (False); anyone else the plans on sale, whatever they ask (a plan off sale is
    the admins' to see)."""
    if not (viewer.is_authenticated and viewer.is_admin):
        on_sale = True
    plans = Plan.objects.all()
    return plans if on_sale is None else plans.filter(on_sale=on_sale)
