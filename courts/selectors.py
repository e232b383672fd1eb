from django.conf import settings
from django.core.paginator import Page, Paginator
from django.db.models import QuerySet

from .models import Court


def court_list() -> QuerySet[Court]:
    """Courts open to booking, in the order visitors see them."""
    return Court.objects.filter(is_archived=False)


def courts_all() -> QuerySet[Court]:
    """Every court, archived ones too (a request for one is refused with its reason)."""
    return Court.objects.all()


def court_page(*, page_number: str | int | None) -> Page:
    """One page of courts. A page number that is not a number gives the first page; one past the
    end gives the last page (Paginator.get_page), so a stale or hand-typed link never fails."""
    return Paginator(court_list(), settings.COURTS_PER_PAGE).get_page(page_number)
