from django.db.models import QuerySet

from .models import Plan


def plan_list(*, on_sale: bool | None = None) -> QuerySet[Plan]:
    """The plans by name; with `on_sale`, only those on sale (True) or off sale (False)."""
    plans = Plan.objects.all()
    return plans if on_sale is None else plans.filter(on_sale=on_sale)
