"""The day sheet's cells (templates/bookings/schedule.html), written in Python with format_html, which
escapes every value: a sheet of 40 courts has 560 of them (LibreBooking's published case, 332
courts, 4,648), and the template language's lookups and conditions per cell cost several times the
rest of the page. A row is one format_html of its cells' fixed formats below, with their values in
order; what repeats (the court, the slots, the labels) is escaped once, not once per cell.

Each cell says its state in words, never by colour alone; the buttons are the schedule island's
(frontend/src/islands/schedule.tsx), disabled until it enables them; the Tailwind classes here are
read by day-sheet.css."""

from django import template
from django.template.context import Context
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString
from django.utils.timezone import localtime

from courts.models import price_kind
from kernel.money import money

from ..models import Booking
from ..schedule import CellState, Row

register = template.Library()

LABELS = {state: conditional_escape(label) for state, label in CellState.choices}
STATUSES = {status: conditional_escape(status.capitalize()) for status in Booking.Status.values}
# A date of a series says so beside its status.
SERIES = {
    False: STATUSES,
    True: {status: conditional_escape(f"{status.capitalize()} · series") for status in Booking.Status.values},
}
SHADES = {True: conditional_escape("bg-info/15"), False: conditional_escape("bg-base-200")}  # yours or not

# The formats of the cells and their parts, each followed by the values it takes, in order; a cell's
# closing </td> is added after its parts.
# The cell's court and slot, for screen readers: "Free (Centre, 09:00-10:00)". name, slot
WHERE = '<span class="sr-only"> ({}, {})</span>'
# shade, booking path, booking, holder, status
HELD = '<td class="{}"><a class="link" href="{}{}">{}</a><span class="block text-xs">{}</span>'


def _buttons(*buttons: tuple[str, str, str]) -> tuple[int, str]:
    """An admin's buttons (style, action, text) on a held cell: how many, and their format, each
    button taking booking, name, slot."""
    formats = (
        f'<button type="button" class="btn btn-xs {style}" data-sheet-act="{action}"'
        f' data-booking="{{}}" disabled>{text}{WHERE}</button>'
        for style, action, text in buttons
    )
    return len(buttons), '<span class="mt-1 flex gap-1">' + "".join(formats) + "</span>"


CANCEL = ("btn-outline", "cancel-approved", "Cancel")
# An admin's buttons on a held cell, by the booking's status: Approve and Reject a pending booking;
# Cancel any.
DECISIONS = {
    "pending": _buttons(("btn-success", "approve", "Approve"), ("btn-outline", "reject", "Reject"), CANCEL),
    "confirmed": _buttons(("btn-outline", "cancel-confirmed", "Cancel")),
    "approved": _buttons(CANCEL),
}
BLOCKED = '<td class="bg-warning/20">{}<span class="block text-xs">{}</span>'  # label, reason
# label, program path, program, reason
PROGRAM = '<td class="bg-warning/20">{}<a class="link block text-xs" href="{}{}">{}</a>'
# block, name, slot
UNBLOCK = (
    '<button type="button" class="btn btn-xs btn-outline mt-1" data-sheet-unblock="{}" disabled>'
    f"Unblock{WHERE}</button>"
)
TAKEN = '<td class="bg-base-200">{}'  # label
# court, slot, name, slot
JOIN = (
    '<button type="button" class="btn btn-xs btn-outline mt-1 block" data-sheet-join-court="{}"'
    f' data-sheet-join-slot="{{}}" disabled>Join waitlist{WHERE}</button>'
)
# entry, name, slot
LEAVE = (
    '<button type="button" class="btn btn-xs btn-outline mt-1 block" data-sheet-leave="{}" disabled>'
    f"Leave{WHERE}</button>"
)
# The cells open to the viewer's request: free, or held for them by a waitlist offer.
OPEN = {CellState.FREE: '<td class="bg-success/10">', CellState.OFFERED: '<td class="bg-info/15">'}
# A visitor's free cell leads to the login page, which leads back to the sheet. label, login path,
# name, slot
SIGN_IN = f'{{}}<a class="link block text-xs" href="{{}}">Sign in to book{WHERE}</a>'
# court, slot, label, name, slot
BOOK = (
    '<button type="button" class="cursor-pointer rounded px-2 py-1 disabled:cursor-default'
    ' aria-pressed:bg-primary aria-pressed:text-primary-content" data-sheet-court="{}" data-sheet-slot="{}"'
    f' aria-pressed="false" disabled>{{}}{WHERE}</button>'
)
# price, kind
PRICE = '<span class="block text-xs" data-peak-price>${}<span class="sr-only"> {} price</span></span>'
# The cells that show only their label: not offered, past, not open yet or members only (dimmed).
LABEL_ONLY = {
    CellState.NONE: '<td><span aria-hidden="true">\N{EN DASH}</span><span class="sr-only">{}</span>',
    CellState.PAST: '<td class="text-base-content/60">{}',
    CellState.LATER: '<td class="text-base-content/60">{}',
    CellState.MEMBERS: '<td class="text-base-content/60">{}',
}


@register.simple_tag(takes_context=True)
def sheet_cells(context: Context, row: Row) -> SafeString:
    """The cells of one court's row, as the viewer may see them (docs/rules.md, The day sheet)."""
    sheet = context["sheet"]
    # The sheet's slots, escaped once for all its rows (render_context lasts the page's rendering).
    # Kept under this function, a key of its own: django-stubs takes only strings and nodes as keys.
    slots = context.render_context.get(sheet_cells)  # type: ignore[arg-type]
    if slots is None:
        slots = context.render_context[sheet_cells] = {slot: conditional_escape(slot) for slot in sheet.slots}  # type: ignore[index]
    signed_in, is_admin = context["user"].is_authenticated, context["is_admin"]
    # A taken slot's waitlist is for the slots not begun yet (bookings.waitlist.waitlist_join).
    may_wait = signed_in and not sheet.opens_on
    court = row.court
    name, court_id = conditional_escape(court.name), conditional_escape(str(court.pk))
    booking_path = conditional_escape(context["booking_path"])
    login_path = context["login_path"]
    program_path = conditional_escape(context["program_path"])
    formats: list[str] = []
    values: list[object] = []
    for cell in row.cells:
        label: str = LABELS[cell.state]
        slot = slots[cell.slot]
        if cell.booking_id:
            booking = conditional_escape(str(cell.booking_id))  # once, for its link and its buttons
            formats.append(HELD)
            shade = SHADES[cell.state == CellState.YOURS]
            shown = cell.holder or (f"{label}, with {', '.join(cell.players)}" if cell.players else label)
            values += (shade, booking_path, booking, shown, SERIES[cell.series][cell.status])
            if is_admin:
                buttons, decisions = DECISIONS.get(cell.status, DECISIONS["approved"])
                formats.append(decisions)
                values += (booking, name, slot) * buttons
        elif cell.state == CellState.PROGRAM:
            formats.append(PROGRAM)
            values += (label, program_path, cell.program_id, cell.reason)
        elif cell.state == CellState.BLOCKED:
            formats.append(BLOCKED)
            values += (label, cell.reason)
            if cell.block_id:
                formats.append(UNBLOCK)
                values += (cell.block_id, name, slot)
        elif cell.state == CellState.TAKEN:
            formats.append(TAKEN)
            values.append(label)
            if may_wait and cell.slot not in sheet.begun:
                formats.append(JOIN)
                values += (court_id, slot, name, slot)
        elif cell.state == CellState.WAITING:
            formats += (TAKEN, LEAVE)
            values += (label, cell.waitlist_id, name, slot)
        elif cell.state in OPEN:
            formats.append(OPEN[cell.state])
            if cell.held_until:  # the hold's end in the club's time, as My Waitlist writes it
                label = f"{label} until {localtime(cell.held_until):%H:%M}"
            if signed_in:
                formats.append(BOOK)
                values += (court_id, slot, label, name, slot)
            else:
                formats.append(SIGN_IN)
                values += (label, login_path, name, slot)
            if cell.price:
                formats.append(PRICE)
                values += (money(cell.price), price_kind(cell.price, own=row.price))
        else:
            formats.append(LABEL_ONLY[cell.state])
            values.append(label)
        formats.append("</td>")
    return format_html("".join(formats), *values) if values else SafeString()
