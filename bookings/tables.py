"""The columns of the booking list pages, declared as data: each page names the ones it shows, in
order, and bookings/_table.html renders whatever it is given."""

from collections.abc import Callable
from dataclasses import dataclass

from django.urls import reverse
from django.utils.formats import date_format
from django.utils.html import format_html

from club.templatetags.money import money

from .models import Booking


@dataclass(frozen=True)
class Column:
    label: str
    # The cell's value, from the booking and its number in the list (from 1).
    accessor: Callable[[Booking, int], object]
    # The value as the cell shows it (escaped unless the formatter marks it safe).
    formatter: Callable[[object], str] = str
    # A column of buttons names itself only to screen readers.
    label_hidden: bool = False

    def cell(self, booking: Booking, number: int) -> str:
        return self.formatter(self.accessor(booking, number))


def _badge(status: str) -> str:
    return format_html('<span class="badge badge-success capitalize">{}</span>', status)


def _pay_link(url: str) -> str:
    return format_html('<a class="btn btn-sm btn-primary" href="{}">Pay</a>', url)


NUMBER = Column("#", lambda booking, number: number)
USER = Column("User", lambda booking, number: booking.user.email)
COURT = Column("Court", lambda booking, number: booking.court_name)
DATE = Column("Date", lambda booking, number: booking.date, lambda day: date_format(day, "DATE_FORMAT"))
SLOTS = Column("Slot", lambda booking, number: booking.slots_label)
EMAIL = Column("Email", lambda booking, number: booking.user.email)
PRICE = Column("Price", lambda booking, number: booking.price, lambda price: f"${money(price)}")
STATUS = Column("Status", lambda booking, number: booking.get_status_display(), _badge)
PAY = Column(
    "Pay", lambda booking, number: reverse("payments:pay", args=[booking.pk]), _pay_link, label_hidden=True
)


def table_rows(
    bookings, columns: tuple[Column, ...], *, first_number: int
) -> list[tuple[Booking, list[str]]]:
    """Each booking with its cells for `columns`, numbered from `first_number` (a later page's
    rows go on from the page before)."""
    return [
        (booking, [column.cell(booking, number) for column in columns])
        for number, booking in enumerate(bookings, start=first_number)
    ]
