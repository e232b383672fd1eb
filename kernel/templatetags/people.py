from django import template

from kernel.people import person

register = template.Library()
# {% person user.name user.email %}: the name, with the e-mail beside it.
register.simple_tag(person, name="person")
