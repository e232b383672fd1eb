"""What the bookings tell people by e-mail, each in the transaction of the change it tells of."""

from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any, cast

from django.conf import settings
from django.db.models import CharField, F, Value
from django.db.models.functions import Cast, Concat
from django.tasks import task
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from kernel.days import day, when
from kernel.slots import slots_label
from notifications.selectors import told_about
from notifications.services import Visitor, absolute_url, notify, notify_admins

from .models import Booking, Player, Policy, Series, WaitlistEntry
from .selectors import overdue, policy_get

Status = Booking.Status
# How many of the waiting requests the admins' e-mail lists (the page has them all).
WAITING_LISTED = 10
# A booking's messages are about "booking:<id>".
ABOUT = "booking:"


def _tell_owner(booking: Booking, *, event: str, subject: str, optional: str = "", **context: Any) -> bool:
    """One message to the booking's owner about it, with where to pay while it waits for its
    payment; whether it was recorded now (not told before)."""
    context.update(booking=booking, booking_url=absolute_url(reverse("bookings:detail", args=[booking.pk])))
    if booking.status == Status.APPROVED:
        context["pay_url"] = absolute_url(reverse("payments:pay", args=[booking.pk]))
    notification = notify(
        event=event,
        recipient=booking.user,
        about=f"{ABOUT}{booking.pk}",
        subject=subject,
        template=event,
        context=context,
        optional=optional,
    )
    return notification is not None


def requested(booking: Booking) -> None:
    """To the person: their request arrived. To every admin: the requests waiting, batched."""
    _tell_owner(
        booking,
        event="booking_requested",
        subject=f"Your request for {booking.court_name} is waiting for approval",
    )
    _tell_admins_of_requests()


def _tell_admins_of_requests() -> None:
    waiting = Booking.objects.filter(status=Status.PENDING).exclude(overdue()).select_related("user")
    count = waiting.count()
    context = {
        "count": count,
        "requests": waiting.order_by("-created_at", "-id")[:WAITING_LISTED],
        "approvals_url": absolute_url(reverse("bookings:manage-approval")),
    }
    subject = f"{count} booking request{'s' if count != 1 else ''} waiting for approval"
    notify_admins(event="requests_waiting", subject=subject, template="requests_waiting", context=context)


def series_requested(series: Series, occurrences: list[Booking]) -> None:
    """To the person: their series' requests arrived (one message for them all). To every admin:
    the requests waiting, batched."""
    first = occurrences[0]
    _tell_owner(
        first,
        event="series_requested",
        subject=f"Your request for {first.court_name}, {series.repeats.lower()}, is waiting for approval",
        series=series,
        occurrences=occurrences,
    )
    _tell_admins_of_requests()


def series_approved(series: Series, occurrences: list[Booking]) -> None:
    """To the organiser: dates of their series were approved (one message for them all), with where
    to pay: the series at once, or each date on its own (the policy's `series_payment`)."""
    first = occurrences[0]
    deadline = min(cast(datetime, one.payment_deadline) for one in occurrences)
    at_once = policy_get().series_payment == Policy.SeriesPayment.AT_ONCE
    pay_url = (
        reverse("payments:pay-series", args=[series.pk])
        if at_once
        else reverse("bookings:detail", args=[first.pk])
    )
    notify(
        event="series_approved",
        recipient=series.user,
        about=f"series:{series.pk}:{first.approved_at:%Y%m%d%H%M%S%f}",
        subject=f"Approved: pay for your {first.court_name} series by {when(deadline)}",
        template="series_approved",
        context={
            "series": series,
            "occurrences": occurrences,
            "booking": first,
            "deadline": deadline,
            "at_once": at_once,
            "pay_url": absolute_url(pay_url),
        },
    )


def status_changed(
    booking: Booking, *, from_status: str, by: User | None, reason: str, slots_blocked: bool = False
) -> None:
    """To the owner, when an admin decides, the booking expires, or an admin cancels it (a paid
    booking's message is the payment's receipt); `slots_blocked`: cancelled for a block, which
    keeps its slots from everyone."""
    court = booking.court_name
    if booking.status == Status.APPROVED:
        event, subject = "booking_approved", f"Approved: pay for {court} by {when(booking.payment_deadline)}"
    elif booking.status == Status.REJECTED:
        event, subject = "booking_rejected", f"Your request for {court} was not approved"
    elif booking.status == Status.EXPIRED:
        event, subject = "booking_expired", f"Your booking of {court} has expired"
    elif booking.status == Status.CANCELLED and (by is None or by.pk != booking.user_id):
        event, subject = "booking_cancelled", f"Your booking of {court} was cancelled by the club"
    else:
        return
    _tell_owner(
        booking,
        event=event,
        subject=subject,
        reason=reason,
        from_status=from_status,
        slots_blocked=slots_blocked,
    )


def remind(now: datetime | None = None) -> int:
    """The optional reminders: before an approved booking's payment is due, and the day before a
    confirmed booking. Answers how many were sent."""
    now = now or timezone.now()
    hours = timedelta(hours=1)
    lead = hours * settings.NOTIFY_PAYMENT_REMINDER_HOURS
    payment_due = Booking.objects.filter(
        status=Status.APPROVED,
        payment_due_at__lte=now + lead,
        # Not a checkout hold shorter than the reminder's lead (instant booking): that one is paid now.
        payment_due_at__gt=F("approved_at") + lead,
    ).exclude(overdue(now))
    tomorrow = Booking.objects.filter(
        status=Status.CONFIRMED,
        starts_at__gt=now,
        starts_at__lte=now + hours * settings.NOTIFY_BOOKING_REMINDER_HOURS,
    )
    about = Concat(Value(ABOUT), Cast("pk", CharField()))
    count = 0
    for event, bookings in (("payment_reminder", payment_due), ("booking_reminder", tomorrow)):
        # Those this event has not told yet, so that no run renders a message twice.
        bookings = bookings.annotate(about=about).exclude(about__in=told_about(event=event))
        for booking in bookings.select_related("user"):
            subject = (
                f"Reminder: pay for {booking.court_name} by {when(booking.payment_deadline)}"
                if event == "payment_reminder"
                else f"Reminder: {booking.court_name} at {when(booking.starts_at)}"
            )
            count += _tell_owner(booking, event=event, subject=subject, optional="reminders")
    return count


@task
def send_reminders() -> int:
    """Periodic (settings.PERIODIC_TASKS)."""
    return remind()


def waitlist_offered(entry: WaitlistEntry, *, book_path: str) -> None:
    """To the first in line for a slot that freed: it is held for them, to book at `book_path`."""
    court_name = entry.court.label
    notify(
        event="waitlist_offer",
        recipient=entry.user,
        about=f"waitlist:{entry.pk}",
        subject=f"{court_name} is free on {day(entry.date)} at {slots_label(entry.slot)}: "
        f"held for you until {when(entry.offer_expires_at)}",
        template="waitlist_offer",
        context={
            "entry": entry,
            "court_name": court_name,
            "book_url": absolute_url(book_path),
            "waitlist_url": absolute_url(reverse("bookings:waitlist")),
        },
    )


def _tell_player(
    player: Player, *, recipient: User | Visitor, event: str, subject: str, **context: Any
) -> None:
    """One message about a player's place in a booking (each place is told of once per event)."""
    booking = player.booking
    notify(
        event=event,
        recipient=recipient,
        about=f"player:{player.pk}",
        subject=subject,
        template=event,
        context={
            "booking": booking,
            "player": player,
            "booking_url": absolute_url(reverse("bookings:detail", args=[booking.pk])),
            **context,
        },
    )


def _person(player: Player) -> User:
    """The person in a place that has one (chosen by name, or an invitation accepted)."""
    if player.user is None:
        raise ValueError(f"Player {player.pk} is no person of the club yet.")
    return player.user


def _game(booking: Booking) -> str:
    return f"{booking.court_name} on {day(booking.date)} at {slots_label(booking.slots)}"


def player_added(player: Player, *, joined: bool = False) -> None:
    """To a person of the club put on a booking by its organiser, or who `joined` its match."""
    organiser = player.booking.user.display_name
    subject = (
        f"You joined {organiser}'s match: {_game(player.booking)}"
        if joined
        else f"{organiser} has put you on their booking: {_game(player.booking)}"
    )
    _tell_player(player, recipient=_person(player), event="player_added", subject=subject, joined=joined)


def player_removed(player: Player, *, by: User) -> None:
    """To a person taken off a booking they played in."""
    subject = f"You no longer play in {_game(player.booking)}"
    _tell_player(player, recipient=_person(player), event="player_removed", subject=subject, by=by)


def player_invited(player: Player, *, token: str) -> None:
    """To an address invited to play: the page to accept (signed in) or decline the invitation."""
    organiser = player.booking.user.display_name
    _tell_player(
        player,
        recipient=Visitor(name="", email=player.email),
        event="player_invited",
        subject=f"{organiser} invites you to play: {_game(player.booking)}",
        invitation_url=absolute_url(reverse("bookings:invitation", args=[token])),
    )


def invitation_answered(player: Player, *, accepted: bool) -> None:
    """To the organiser, when someone they invited accepts or declines."""
    answer = "accepted" if accepted else "declined"
    _tell_player(
        player,
        recipient=player.booking.user,
        event="invitation_answered",
        subject=f"{player.email} has {answer} your invitation to {_game(player.booking)}",
        accepted=accepted,
    )


def share_due(player: Player, *, amount: Decimal) -> None:
    """To a player of an approved booking whose players each pay their share: how much, and by when."""
    booking = player.booking
    _tell_player(
        player,
        recipient=_person(player),
        event="share_due",
        subject=f"Pay your share of {_game(booking)} by {when(booking.payment_deadline)}",
        amount=amount,
        pay_url=absolute_url(reverse("payments:pay", args=[booking.pk])),
    )


def match_joined(player: Player) -> None:
    """To the organiser of an open match someone joined; and to the one who joined, the game."""
    booking = player.booking
    _tell_player(
        player,
        recipient=booking.user,
        event="match_joined",
        subject=f"{player.shown_name} joined your match: {_game(booking)}",
    )
    player_added(player, joined=True)


def player_booking_ended(player: Player) -> None:
    """To a player of a booking cancelled, rejected or expired."""
    booking = player.booking
    status = booking.get_status_display().lower()
    subject = f"The game is off: {_game(booking)} is {status}"
    _tell_player(player, recipient=_person(player), event="player_booking_ended", subject=subject)
