"""The day sheet's cells (templates/bookings/schedule.html), written in Python with format_html, which
escapes every value: a sheet of 40 courts has 560 of them, and the template language's lookups and
conditions per cell cost several times the rest of the page. Each cell says its state in words,
never by colour alone; the buttons are the schedule island's (frontend/src/islands/schedule.tsx),
disabled until it enables them; the Tailwind classes here are read by day-sheet.css."""

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from club.templatetags.money import money
from courts.models import price_kind

from ..schedule import Cell, CellState, Row

register = template.Library()

DASH = "\N{EN DASH}"  # a court that does not offer the slot
TOGGLE = (
    "cursor-pointer rounded px-2 py-1 disabled:cursor-default"
    " aria-pressed:bg-primary aria-pressed:text-primary-content"
)


@register.simple_tag(takes_context=True)
def sheet_cells(context, row: Row) -> SafeString:
    """The cells of one court's row, for the viewer: a held cell whose booking the viewer may see
    links to it, with its status, and for an admin its holder and the buttons to decide on it or
    cancel it; a blocked cell says why, with Unblock for an admin; a taken cell offers a signed-in
    person its waitlist (within their window, before it begins); a free cell is, for a signed-in
    person, a toggle of the schedule island, and shows its price when a price band makes it other
    than the court's own."""
    viewer = {
        "signed_in": context["user"].is_authenticated,
        "is_admin": context["is_admin"],
        "may_wait": not context["sheet"].opens_on,
        # A taken slot's waitlist is for the slots not begun yet (bookings.waitlist.waitlist_join).
        "begun": context["sheet"].begun,
        "booking_path": context["booking_path"],
        "court": row.court,
    }
    return format_html_join("", "{}", ((_cell(cell, **viewer),) for cell in row.cells))


def _cell(cell: Cell, *, signed_in, is_admin, may_wait, begun, booking_path, court) -> SafeString:
    label = cell.label
    # The cell's court and slot, for screen readers: "Free (Centre, 09:00-10:00)".
    where = format_html('<span class="sr-only"> ({}, {})</span>', court.name, cell.slot)
    if cell.state == CellState.NONE:
        return format_html(
            '<td><span aria-hidden="true">{}</span><span class="sr-only">{}</span></td>', DASH, label
        )
    if cell.booking_id:
        return format_html(
            '<td class="{}"><a class="link" href="{}{}">{}</a><span class="block text-xs">{}</span>{}</td>',
            "bg-info/15" if cell.state == CellState.YOURS else "bg-base-200",
            booking_path,
            cell.booking_id,
            cell.holder or label,
            cell.status.capitalize(),
            _decisions(cell, where) if is_admin else "",
        )
    if cell.state == CellState.BLOCKED:
        unblock = (
            format_html(
                '<button type="button" class="btn btn-xs btn-outline mt-1" data-sheet-unblock="{}"'
                " disabled>Unblock{}</button>",
                cell.block_id,
                where,
            )
            if cell.block_id
            else ""
        )
        return format_html(
            '<td class="bg-warning/20">{}<span class="block text-xs">{}</span>{}</td>',
            label,
            cell.reason,
            unblock,
        )
    if cell.state == CellState.TAKEN:
        join = (
            format_html(
                '<button type="button" class="btn btn-xs btn-outline mt-1 block"'
                ' data-sheet-join-court="{}" data-sheet-join-slot="{}" disabled>Join waitlist{}</button>',
                court.pk,
                cell.slot,
                where,
            )
            if signed_in and may_wait and cell.slot not in begun
            else ""
        )
        return format_html('<td class="bg-base-200">{}{}</td>', label, join)
    if cell.state == CellState.FREE:
        toggle = (
            format_html(
                '<button type="button" class="{}" data-sheet-court="{}" data-sheet-slot="{}"'
                ' aria-pressed="false" disabled>{}{}</button>',
                TOGGLE,
                court.pk,
                cell.slot,
                label,
                where,
            )
            if signed_in
            else label
        )
        price = ""
        if cell.price:
            price = format_html(
                '<span class="block text-xs" data-peak-price>${}'
                '<span class="sr-only"> {} price</span></span>',
                money(cell.price),
                price_kind(cell.price, court),
            )
        return format_html('<td class="bg-success/10">{}{}</td>', toggle, price)
    if cell.state in (CellState.PAST, CellState.LATER):
        return format_html('<td class="text-base-content/60">{}</td>', label)
    return format_html('<td class="bg-base-200">{}</td>', label)


def _decisions(cell: Cell, where: SafeString) -> SafeString:
    """An admin's buttons on a held cell: Approve and Reject a pending booking; Cancel any."""
    actions = [("btn-success", "approve", "Approve"), ("btn-outline", "reject", "Reject")]
    if cell.status != "pending":
        actions = []
    cancel = "cancel-confirmed" if cell.status == "confirmed" else "cancel-approved"
    actions.append(("btn-outline", cancel, "Cancel"))
    return format_html(
        '<span class="mt-1 flex gap-1">{}</span>',
        format_html_join(
            "",
            '<button type="button" class="btn btn-xs {}" data-sheet-act="{}" data-booking="{}" disabled>'
            "{}{}</button>",
            ((style, action, cell.booking_id, text, where) for style, action, text in actions),
        ),
    )
