from django import template

from payments.selectors import PaidStatus

register = template.Library()


@register.filter
def paid_status_label(status: str) -> str:
    """A PaidStatus as shown to people: "partially_refunded" → "Partially refunded"."""
    return PaidStatus(status).label
