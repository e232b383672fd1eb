from django.db.models import QuerySet

from .models import Court


def court_list() -> QuerySet[Court]:
    """Courts open to booking, in the order visitors see them."""
    return Court.objects.filter(is_archived=False)


def courts_all() -> QuerySet[Court]:
    """Every court, archived ones too (a request for one is refused with its reason)."""
    return Court.objects.all()
