from decimal import ROUND_HALF_UP, Decimal

from django import template

register = template.Library()

CENT = Decimal("0.01")


def round_money(amount: Decimal) -> Decimal:
    """The one rounding rule for money: to the cent, halves away from zero."""
    return Decimal(amount).quantize(CENT, rounding=ROUND_HALF_UP)


@register.filter
def money(amount) -> str:
    """An amount as shown to people, without the currency sign: 1234.5 → '1,234.50'."""
    return f"{round_money(amount):,}"
