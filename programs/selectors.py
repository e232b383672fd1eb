"""The programs as the pages and the API read them."""

from datetime import datetime

from django.db.models import Count, F, Q, QuerySet, Value
from django.db.models.functions import Greatest
from django.utils import timezone

from accounts.models import User

from .models import Program, Registration

Status = Registration.Status


def taking_a_place(now: datetime | None = None, *, via: str = "") -> Q:
    """The registrations (at the path `via`) that take a place: confirmed, or held and not run out."""
    held = {f"{via}status": Status.HELD, f"{via}held_until__gt": now or timezone.now()}
    return Q(**{f"{via}status": Status.CONFIRMED}) | Q(**held)


def places_taken(program: Program, now: datetime | None = None) -> int:
    return program.registrations.filter(taking_a_place(now)).count()


def with_places(programs: QuerySet[Program]) -> QuerySet[Program]:
    """`programs`, each with `taken`, how many places are taken now, and `places_left`."""
    taken = programs.annotate(taken=Count("registrations", filter=taking_a_place(via="registrations__")))
    return taken.annotate(places_left=Greatest(F("capacity") - F("taken"), Value(0)))


def programs_seen_by(user: User) -> QuerySet[Program]:
    """The programs a person may look at: open ones (those called off, to an admin too), each with
    its places taken, its coach and its courts."""
    programs = (
        Program.objects.all()
        if user.is_authenticated and user.is_admin
        else Program.objects.filter(status=Program.Status.OPEN)
    )
    return with_places(programs.select_related("coach").prefetch_related("blocks__court"))


def open_programs(user: User) -> QuerySet[Program]:
    """Those whose registration has not closed and that have not begun, soonest first (/programs)."""
    now = timezone.now()
    return (
        programs_seen_by(user)
        .filter(status=Program.Status.OPEN, registration_closes_at__gt=now, starts_at__gt=now)
        .order_by("starts_at", "id")
    )


def registration_of(program: Program, user: User) -> Registration | None:
    """The person's registration in the program, or place on its waitlist, if they have one."""
    if not user.is_authenticated:
        return None
    return program.registrations.filter(user=user, status__in=Registration.ACTIVE).first()


def participants(program: Program) -> QuerySet[Registration]:
    """Those who have a place: registered, or held for them to pay, in the order they came."""
    return program.registrations.filter(taking_a_place()).select_related("user").order_by("created_at", "id")


def registrations_seen_by(user: User) -> QuerySet[Registration]:
    """The registrations a person may act on: their own; an admin, everyone's."""
    return Registration.objects.all() if user.is_admin else user.registrations.all()


def may_see_participants(program: Program, user: User) -> bool:
    return user.is_authenticated and (user.is_admin or program.coach_id == user.pk)
