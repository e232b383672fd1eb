"""What the programs tell people by e-mail, each in the transaction of the change it tells of."""

from datetime import datetime
from typing import Any

from django.urls import reverse

from accounts.models import User
from kernel.days import day, when
from notifications.services import absolute_url, notify

from .models import Registration


def _tell(registration: Registration, *, event: str, subject: str, about: str = "", **context: Any) -> None:
    program = registration.program
    notify(
        event=event,
        recipient=registration.user,
        about=about or f"registration:{registration.pk}",
        subject=subject,
        template=event,
        context={
            "registration": registration,
            "program": program,
            "program_url": absolute_url(reverse("programs:detail", args=[program.pk])),
            **context,
        },
    )


def registered(registration: Registration) -> None:
    """To the person: their place is theirs (a free program's at once; a paid one's receipt tells)."""
    program = registration.program
    _tell(
        registration,
        event="program_registered",
        subject=f"You are registered: {program.title}, {day(program.first_date)}",
    )


def waitlisted(registration: Registration, *, ahead: int) -> None:
    """To the person: the program is full, and they wait for a place."""
    program = registration.program
    _tell(
        registration,
        event="program_waitlisted",
        subject=f"On the waitlist: {program.title}",
        ahead=ahead,
    )


def place_offered(registration: Registration) -> None:
    """To the first on the waitlist: a place is held for them until they pay, or it passes on."""
    program = registration.program
    _tell(
        registration,
        event="program_place_offered",
        subject=f"A place in {program.title} is yours until {when(registration.held_until)}",
        pay_url=absolute_url(reverse("payments:pay-registration", args=[registration.pk])),
    )


def registration_cancelled(registration: Registration, *, reason: str) -> None:
    """To the person whose registration the club cancelled (alone, or with its program)."""
    program = registration.program
    _tell(
        registration,
        event="program_registration_cancelled",
        subject=f"Cancelled: {program.title}",
        reason=reason,
    )


def program_message(
    registration: Registration, *, by: User, subject: str, message: str, at: datetime
) -> None:
    """The coach's or an admin's message to everyone in the program."""
    _tell(
        registration,
        event="program_message",
        about=f"registration:{registration.pk}:{at:%Y%m%d%H%M%S%f}",
        subject=f"{registration.program.title}: {subject}",
        sender=by.public_name,
        message=message,
    )
