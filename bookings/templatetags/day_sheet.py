"""The day sheet's cells (templates/bookings/schedule.html), written in Python: a sheet of 40 courts
has 560 of them, and the template language's lookups and conditions per cell cost several times
the rest of the page. Each cell says its state in words, never by colour alone; the buttons are
the schedule island's (frontend/src/islands/schedule.tsx), disabled until it enables them; the
Tailwind classes here are read by day-sheet.css."""

from html import escape

from django import template
from django.utils.safestring import SafeString, mark_safe

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
        "court_name": escape(row.court.name),
    }
    return mark_safe("".join(_cell(cell, **viewer) for cell in row.cells))  # noqa: S308 - people's text escaped


def _cell(cell: Cell, *, signed_in, is_admin, may_wait, begun, booking_path, court, court_name) -> str:
    label = cell.label
    # The cell's court and slot, for screen readers: "Free (Centre, 09:00-10:00)".
    where = f'<span class="sr-only"> ({court_name}, {cell.slot})</span>'
    if cell.state == CellState.NONE:
        return f'<td><span aria-hidden="true">{DASH}</span><span class="sr-only">{label}</span></td>'
    if cell.booking_id:
        shade = "bg-info/15" if cell.state == CellState.YOURS else "bg-base-200"
        link = (
            f'<a class="link" href="{booking_path}{cell.booking_id}">{escape(cell.holder) or label}</a>'
            f'<span class="block text-xs">{cell.status.capitalize()}</span>'
        )
        return f'<td class="{shade}">{link}{_decisions(cell, where) if is_admin else ""}</td>'
    if cell.state == CellState.BLOCKED:
        unblock = (
            f'<button type="button" class="btn btn-xs btn-outline mt-1" data-sheet-unblock="{cell.block_id}"'
            f" disabled>Unblock{where}</button>"
            if cell.block_id
            else ""
        )
        reason = f'<span class="block text-xs">{escape(cell.reason)}</span>'
        return f'<td class="bg-warning/20">{label}{reason}{unblock}</td>'
    if cell.state == CellState.TAKEN:
        join = (
            f'<button type="button" class="btn btn-xs btn-outline mt-1 block"'
            f' data-sheet-join-court="{court.pk}" data-sheet-join-slot="{cell.slot}" disabled>'
            f"Join waitlist{where}</button>"
            if signed_in and may_wait and cell.slot not in begun
            else ""
        )
        return f'<td class="bg-base-200">{label}{join}</td>'
    if cell.state == CellState.FREE:
        toggle = (
            f'<button type="button" class="{TOGGLE}" data-sheet-court="{court.pk}"'
            f' data-sheet-slot="{cell.slot}" aria-pressed="false" disabled>{label}{where}</button>'
            if signed_in
            else label
        )
        price = ""
        if cell.price:
            price = (
                f'<span class="block text-xs" data-peak-price>${money(cell.price)}'
                f'<span class="sr-only"> {price_kind(cell.price, court)} price</span></span>'
            )
        return f'<td class="bg-success/10">{toggle}{price}</td>'
    if cell.state in (CellState.PAST, CellState.LATER):
        return f'<td class="text-base-content/60">{label}</td>'
    return f'<td class="bg-base-200">{label}</td>'


def _decisions(cell: Cell, where: str) -> str:
    """An admin's buttons on a held cell: Approve and Reject a pending booking; Cancel any."""

    def button(style: str, action: str, text: str) -> str:
        return (
            f'<button type="button" class="btn btn-xs {style}" data-sheet-act="{action}"'
            f' data-booking="{cell.booking_id}" disabled>{text}{where}</button>'
        )

    decide = ""
    if cell.status == "pending":
        decide = button("btn-success", "approve", "Approve") + button("btn-outline", "reject", "Reject")
    cancel = "cancel-confirmed" if cell.status == "confirmed" else "cancel-approved"
    return f'<span class="mt-1 flex gap-1">{decide}{button("btn-outline", cancel, "Cancel")}</span>'
