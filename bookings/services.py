"""Every change to a booking, in one place (design: one service function per business action)."""

import secrets
from collections.abc import Callable
from datetime import date as Date
from datetime import datetime, timedelta
from decimal import Decimal
from itertools import chain
from typing import Any

from django.core.exceptions import ImproperlyConfigured, ValidationError
from django.db import IntegrityError, transaction
from django.db.models import F, QuerySet
from django.tasks import task
from django.utils import timezone

from accounts.models import User
from audit.services import audit_record, audited_update
from courts.models import Court
from courts.pricing import PriceFor, slot_prices
from kernel.days import day, when
from kernel.errors import Conflict, Forbidden
from kernel.money import CENT, money
from kernel.slots import Slot
from kernel.text import one_line_refusal

from . import notices
from .hours import hours_refusal
from .models import BookedSlot, Booking, BookingStatusChange, CalendarFeed, Policy, Series
from .players import players_told_of_end
from .rules import PersonRules, rules_for
from .selectors import (
    open_bookings,
    open_bookings_held,
    overdue,
    policy_get,
    slots_let_go,
    with_refund_percent,
)
from .shares import players_asked_to_pay
from .slots import day_refusals, members_only_refusal, slot_hours, slots_refusal
from .waitlist import offers_release, slot_freed

Status = Booking.Status


class SlotTaken(Conflict):
    def __init__(self) -> None:
        super().__init__("That slot is already booked.")


# The most one booking can cost: what its price column holds.
_PRICE = Booking._meta.get_field("price")
LARGEST_PRICE = Decimal(10) ** (_PRICE.max_digits - _PRICE.decimal_places) - CENT


def booking_price(
    *, court: Court, date: Date, slots: list[str], price_for: PriceFor | None = None
) -> Decimal:
    """What `slots` of `court` cost on `date` (docs/rules.md, Prices), to the person `price_for`
    prices for (PersonRules.price_for: their plan's member price)."""
    return sum(slot_prices(court, date, slots, price_for), Decimal("0"))


def request_errors(
    *,
    rules: PersonRules,
    court: Court,
    date: Date,
    slots: list[str],
    price: Decimal | None = None,
    window: bool = True,
) -> tuple[dict[str, str], Decimal]:
    """Why the person whose `rules` they are may not request `slots` of `court` on `date`, by field
    (none: they may), and what the slots cost them. `price`: what the client expects them to cost;
    `window`: whether their advance window bounds the date (not an admin's series)."""
    errors = day_refusals(rules=rules, court=court, date=date, window=window)
    if refusal := slots_refusal(court=court, date=date, slots=slots, doing="book") or members_only_refusal(
        rules=rules, court=court, date=date, slots=slots
    ):
        errors["slots"] = refusal
    if errors:
        return errors, Decimal(0)
    expected = booking_price(court=court, date=date, slots=slots, price_for=rules.price_for)
    if expected > LARGEST_PRICE:
        errors["slots"] = (
            f"These slots cost ${money(expected)} together, more than one booking can: choose fewer."
        )
    elif not expected:  # a member price rounded to nothing on a court of a cent or so
        errors["slots"] = (
            f"These slots cost nothing with your {rules.plan} plan, and a booking is paid for: "
            "ask the club to keep them for you."
        )
    elif price is not None and price != expected:
        errors["price"] = f"The price is {expected}, not {price}."
    return errors, expected


@transaction.atomic
def booking_request(
    *, user: User, court: Court, date: Date, slots: list[str], price: Decimal | None = None
) -> Booking:
    """A booking for `user`: pending an admin's decision or, under instant booking, approved at
    once, to be paid within its checkout hold."""
    policy = policy_get()
    # Under the person's row lock their concurrent requests are counted one after the other, and
    # the plan whose prices and limits apply is read once, as it stands for all of them.
    User.objects.select_for_update().get(pk=user.pk)
    rules = rules_for(user, policy=policy)
    errors, expected = request_errors(rules=rules, court=court, date=date, slots=slots, price=price)
    if errors:
        raise ValidationError(errors)
    slots = sorted(slots, key=court.slots.index)
    check_person_limits(user=user, rules=rules, court=court, date=date, slots=slots)
    booking = booking_make(user=user, court=court, date=date, slots=slots, price=expected, policy=policy)
    if booking.status == Status.PENDING:  # an instant booking is paid there and then: its receipt tells
        notices.requested(booking)
    return booking


def booking_make(
    *,
    user: User,
    court: Court,
    date: Date,
    slots: list[str],
    price: Decimal,
    policy: Policy,
    series: Series | None = None,
) -> Booking:
    """Makes a booking checked already, holding its slots (SlotTaken if one was taken meanwhile):
    pending, or under instant booking approved, to be paid within its checkout hold (an
    occurrence of a `series`, within the payment window: one checkout is not time for them all)."""
    now = timezone.now()
    instant = not policy.approval_required
    hold = (
        timedelta(hours=policy.payment_window_hours)
        if series
        else timedelta(minutes=policy.checkout_hold_minutes)
    )
    booking = Booking.objects.create(
        status=Status.APPROVED if instant else Status.PENDING,
        approved_at=now if instant else None,
        payment_due_at=now + hold if instant else None,
        user=user,
        court=court,
        court_name=court.label,
        series=series,
        date=date,
        slots=slots,
        starts_at=min(map(Slot.parse, slots)).starts_at(date),
        price=price,
    )
    _hold_slots(booking)
    BookingStatusChange.objects.create(booking=booking, to_status=booking.status, by=user)
    return booking


def check_open_bookings(*, user: User, rules: PersonRules) -> None:
    """Refuses one more open booking (or series) to a person holding as many as they may; a series
    counts as one. The caller holds the person's row lock."""
    most_open = rules.open_bookings
    if (held_open := open_bookings_held(user=user)) >= (most_open.value or 0):
        waiting = "(waiting for a decision or for payment)"
        then = "Pay for or cancel one of them before you request another."
        if most_open.plan is not None:
            raise Conflict(
                f"{most_open.holds()} open bookings at once {waiting}, and you have {held_open}. {then}"
            )
        raise Conflict(f"You already have {most_open.value} open bookings {waiting}. {then}")


def check_person_limits(
    *, user: User, rules: PersonRules, court: Court, date: Date, slots: list[str], one_more: bool = True
) -> None:
    """Refuses a request past the limits on one person (the policy's, or their plan's): nobody sits
    on a court's week with requests they do not pay for, or holds more than their plan gives.
    `one_more`: the request is one more open booking (an occurrence of a series is counted with
    its series). The caller holds the person's row lock."""
    if one_more:
        check_open_bookings(user=user, rules=rules)
    asked = slot_hours(slots)
    monday = date - timedelta(days=date.weekday())
    week = (monday, monday + timedelta(days=6))
    on_day, in_week = f"on {day(date)}", f"in the week of {day(monday)}"
    if refusal := hours_refusal(person=user, rules=rules, court=court, date=date, slots=slots):
        raise Conflict(refusal)
    pay_first = "choose fewer slots, or pay for or cancel one of them first."
    unpaid = open_bookings(user=user).values_list("slots", flat=True)
    for limit, of, where, on in (
        (rules.unpaid_hours_a_day, "unpaid bookings a day", on_day, {"date": date}),
        (rules.unpaid_hours_a_week, "unpaid bookings a week", in_week, {"date__range": week}),
    ):
        if (
            limit.value is None
            or (held := slot_hours(chain.from_iterable(unpaid.filter(**on)))) + asked <= limit.value
        ):
            continue
        refusal = f"{limit.holds()} hours of {of}"
        if not held:  # the request alone is over the limit
            raise Conflict(f"{refusal}, and these slots make {asked:g}: choose fewer slots.")
        raise Conflict(f"{refusal}, and you hold {held:g} {where} already: {pay_first}")
    if (minutes := rules.policy.rerequest_cooldown_minutes) is not None:
        wait = timedelta(minutes=minutes)
        let_go = slots_let_go(user=user, court=court, date=date, since=timezone.now() - wait)
        if again := [slot for slot in slots if any(slot in held for held, _ in let_go)]:
            until = max(at for held, at in let_go if set(held) & set(again)) + wait
            # Shown to the minute, rounded up: never a moment at which the request is still refused.
            shown = until.replace(second=0, microsecond=0)
            if shown < until:
                shown += timedelta(minutes=1)
            it = "it" if len(again) == 1 else "them"
            raise Conflict(
                f"You let {', '.join(again)} go less than {minutes} minutes ago: so that others can "
                f"take {it} first, you can request {it} again from {when(shown)}."
            )


def _hold_slots(booking: Booking) -> None:
    """Holds the booking's slots, taking over those whose holders_release gives them up."""
    for attempt in range(2):
        try:
            with transaction.atomic():  # a savepoint, so a clash leaves the outer transaction usable
                BookedSlot.objects.bulk_create(
                    BookedSlot(booking=booking, court_id=booking.court_id, date=booking.date, slot=slot)
                    for slot in booking.slots
                )
            return
        except IntegrityError as error:
            held = BookedSlot.objects.filter(
                court_id=booking.court_id, date=booking.date, slot__in=booking.slots
            )
            if attempt or not holders_release(held, for_user_id=booking.user_id):
                raise SlotTaken() from error


def holders_release(held: QuerySet[BookedSlot], *, for_user_id: int | None = None) -> bool:
    """Among the `held` rows, overdue bookings expire and run-out offers lapse, as does an offer to
    `for_user_id`: whether any gave a slot up."""
    overdue_holders = held.filter(overdue(via="booking__")).values_list("booking_id", "booking__status")
    # Every one of them, not only the first.
    expired = [
        booking_expire(booking=Booking(pk=pk), from_status=status)
        for pk, status in overdue_holders.distinct()
    ]
    released = offers_release(held, for_user_id=for_user_id)
    return any(expired) or released > 0


@transaction.atomic
def _transition(
    *,
    booking: Booking,
    to: str,
    by: User | None,
    only_from: str = "",
    reason: str = "",
    slots_blocked: bool = False,
    refund_percent: int = 100,
    tell: bool = True,
) -> Booking:
    """Moves a booking to `to` under its row lock, with its history row and the `reason` its owner
    is told (and whether a block takes its slots; unless `tell` is False: the caller tells of
    several at once); slots it gives up go to their waitlists, and what was paid for it is refunded
    (`refund_percent` of each payment). An admin's move of someone else's is audited."""
    # The owner comes with it (the audit and the notices name them), unlocked: only the booking's row is.
    locked = Booking.objects.select_related("user").select_for_update(of=("self",)).get(pk=booking.pk)
    # One moment for the move and its history row (the re-request wait counts from it).
    now = timezone.now()
    approval = {}
    if to == Status.APPROVED:
        window = timedelta(hours=policy_get().payment_window_hours)
        approval = {"approved_at": now, "payment_due_at": now + window}
    note = {"by": by, "at": now, "reason": reason}
    from_status = locked.move(to, locked=True, only_from=only_from, note=note, **approval)
    if from_status not in Booking.HOLDING and to in Booking.HOLDING:
        _hold_slots(locked)  # raises SlotTaken, and the transaction leaves everything as it was
    if to not in Booking.HOLDING:
        locked.held_slots.all().delete()
        slot_freed(court_id=locked.court_id, date=locked.date, slots=locked.slots)
    if by is not None and by.is_admin and by.pk != locked.user_id:  # the club's decision
        audit_record(
            actor=by,
            action=f"booking.{to}",
            target=locked,
            summary=f"Booking #{locked.pk} of {locked.user.email} ({locked}) {to}"
            + (f": {reason}" if reason else ""),
            before={"status": from_status},
            after={"status": to, **({"reason": reason} if reason else {})},
        )
    if tell:
        notices.status_changed(
            locked, from_status=from_status, by=by, reason=reason, slots_blocked=slots_blocked
        )
    if to == Status.APPROVED:
        players_asked_to_pay(locked)
    if to not in Booking.HOLDING:
        players_told_of_end(locked)
        if from_status in (Status.APPROVED, Status.CONFIRMED):  # shares may have been paid
            _refunds_owed(locked, by=by, percent=refund_percent)
    return locked


def booking_approve(*, booking: Booking, by: User, tell: bool = True) -> Booking:
    """An admin approves a pending request, unless its court is closed or its wait is over; its
    owner is told (unless `tell` is False: bookings.series.series_approve tells of them all)."""
    if booking.court.is_archived:
        raise Conflict("This court is closed for booking (archived): reject the request instead.")
    waited_too_long = Booking.objects.filter(overdue(), pk=booking.pk, status=Status.PENDING).exists()
    if waited_too_long and booking_expire(booking=booking, from_status=Status.PENDING):
        raise Conflict(
            "This request waited too long for a decision and has expired; its slots are free again."
        )
    return _transition(booking=booking, to=Status.APPROVED, by=by, tell=tell)


def booking_reject(*, booking: Booking, by: User, reason: str = "") -> Booking:
    if refusal := one_line_refusal(reason):
        raise ValidationError({"reason": refusal})
    return _transition(booking=booking, to=Status.REJECTED, by=by, reason=reason.strip())


def booking_confirm(*, booking: Booking, by: User | None) -> Booking:
    """A paid booking (payments.services.payment_confirm)."""
    return _transition(booking=booking, to=Status.CONFIRMED, by=by)


def refund_percent(*, booking: Booking, by: User, now: datetime | None = None) -> int:
    """The share of its payment that `by` cancelling the paid booking at `now` gives back."""
    one = with_refund_percent(Booking.objects.filter(pk=booking.pk), by=by, now=now or timezone.now())
    return one.values_list("refund_percent", flat=True).get()


# The payments app's service recording the refunds a booking that ends owes (with `booking`, `by`,
# `percent`), named as Django starts (PaymentsConfig.ready): payments build on bookings, not back.
_refund_for_ended_booking: Callable[..., object] | None = None


def cancellations_refunded_by(record: Callable[..., object]) -> None:
    global _refund_for_ended_booking
    _refund_for_ended_booking = record


def _refunds_owed(booking: Booking, *, by: User | None, percent: int) -> None:
    """Records, in the transaction that ends `booking`, the refunds of what was paid for it:
    `percent` of each payment."""
    if _refund_for_ended_booking is None:  # never ended without its refunds
        raise ImproperlyConfigured("No service records the refunds of paid bookings that end.")
    _refund_for_ended_booking(booking=booking, by=by, percent=percent)


@transaction.atomic
def booking_cancel(*, booking: Booking, by: User, reason: str = "", slots_blocked: bool = False) -> Booking:
    """The owner or an admin cancels a booking; a paid one until it starts, its refund recorded in
    the same transaction by the payments app (the policy's share of a confirmed booking, all of
    the shares paid for one not yet confirmed). `slots_blocked`: for a block that takes its slots."""
    if booking.user_id != by.pk and not by.is_admin:
        raise Forbidden("Only the booking's owner or an admin may cancel it.")
    locked = Booking.objects.select_for_update().get(pk=booking.pk)
    paid = locked.status == Status.CONFIRMED
    now = timezone.now()
    if paid and locked.starts_at <= now:
        raise Conflict("This booking has already started, so it can no longer be cancelled.")
    percent = refund_percent(booking=locked, by=by, now=now) if paid else 100
    return _transition(
        booking=locked,
        to=Status.CANCELLED,
        by=by,
        reason=reason.strip(),
        slots_blocked=slots_blocked,
        refund_percent=percent,
    )


def bookings_expire(*, now: datetime | None = None) -> int:
    """Overdue bookings (selectors.overdue), which already count as expired, expire."""
    candidates = Booking.objects.filter(overdue(now)).only("pk", "status")
    return sum(booking_expire(booking=booking, from_status=booking.status) for booking in candidates)


@task
def expire_overdue() -> int:
    """Periodic (settings.PERIODIC_TASKS)."""
    return bookings_expire()


def booking_expire(*, booking: Booking, from_status: str) -> bool:
    """An overdue booking expires, unless it left `from_status` meanwhile; answers whether it did."""
    try:
        _transition(booking=booking, to=Status.EXPIRED, by=None, only_from=from_status)
    except Conflict:
        return False
    return True


def booking_share_paid(*, booking: Booking) -> None:
    """A share of an approved booking was paid (its lock held): an instant booking's checkout hold
    becomes the payment window an admin's approval gives (the policy's, from its approval), so
    that the other players have time to pay theirs."""
    window = F("approved_at") + timedelta(hours=policy_get().payment_window_hours)
    Booking.objects.filter(pk=booking.pk, status=Status.APPROVED, payment_due_at__lt=window).update(
        payment_due_at=window
    )


def booking_call_off(*, booking: Booking, from_status: str, reason: str) -> bool:
    """The club's rules cancel a booking (an open match that did not fill), unless it left
    `from_status` meanwhile: everything paid for it is refunded in full, and everyone on it told.
    Answers whether it did."""
    try:
        _transition(booking=booking, to=Status.CANCELLED, by=None, only_from=from_status, reason=reason)
    except Conflict:
        return False
    return True


def calendar_feed_get(*, user: User) -> CalendarFeed:
    return CalendarFeed.objects.get_or_create(user=user, defaults={"secret": secrets.token_urlsafe(32)})[0]


@transaction.atomic
def calendar_feed_reset(*, user: User, by: User | None = None) -> CalendarFeed:
    """A new secret for a person's calendar feed, retiring the old address; audited when an admin
    (`by`) does it."""
    feed, _ = CalendarFeed.objects.update_or_create(user=user, defaults={"secret": secrets.token_urlsafe(32)})
    if by is not None:
        audit_record(
            actor=by,
            action="calendar_feed.reset",
            target=feed,
            summary=f"Retired the calendar feed address of {user.email}",
        )
    return feed


@transaction.atomic
def policy_update(*, by: User | None = None, **fields: Any) -> Policy:
    """Changes the booking policy's fields given; an admin's change (`by`) is audited."""
    return audited_update(
        policy_get(),
        by=by,
        action="policy.change",
        changes=fields,
        summary=lambda before, after: (
            "Club rules changed: "
            + ", ".join(f"{name} {before[name]} → {value}" for name, value in after.items())
        ),
    )
