from django import template

from kernel.slots import slots_html, slots_label

register = template.Library()
# {{ booking.slots|slot_ranges }}: the slots as ranges that never break inside one.
register.filter("slot_ranges", slots_html)
# {{ entry.slot|slots_text }}: the same in a plain-text e-mail.
register.filter("slots_text", slots_label)
