from django import template

from kernel.money import money

register = template.Library()
register.filter(money)
