from django import template

from club.money import round_money

register = template.Library()


@register.filter
def money(amount) -> str:
    """An amount as shown to people, without the currency sign: 1234.5 → '1,234.50'."""
    return f"{round_money(amount):,}"
