"""Open matches (docs/rules.md, Open matches): the organiser of a booking opens it to others, with
how many play in all, a level range and a deadline; people of the club join it while places are
left; one not full by its deadline is called off, with every payment refunded, unless the
organiser chose to play anyway."""

from datetime import date as Date
from datetime import datetime
from decimal import Decimal
from typing import TYPE_CHECKING, TypedDict

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count, F, Q, QuerySet
from django.tasks import task
from django.utils import timezone

from accounts.models import User
from kernel.days import when
from kernel.errors import Conflict, Forbidden

from . import notices
from .models import Booking, Match, Player
from .players import check_hours, organises, players_closed, players_until
from .selectors import policy_get
from .services import booking_call_off
from .shares import players_asked_to_pay

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations

Status = Booking.Status
CALLED_OFF = "The match did not fill by its deadline."


class Taken(TypedDict):
    """What open_matches adds to each match: its places taken (the organiser's included), and
    those left."""

    taken: int
    places_left: int


def open_matches(
    *, on: Date | None = None, court_type: str = "", level: Decimal | None = None
) -> "QuerySet[WithAnnotations[Match, Taken]]":
    """The matches people may join now, the soonest first: of one day, one type of court, and
    whose level range takes `level`, if given; each with its places `taken` and `places_left`."""
    matches = (
        Match.objects.select_related("booking__court", "booking__user")
        .filter(booking__status__in=Booking.HOLDING, deadline__gt=timezone.now())
        .annotate(taken=1 + Count("booking__players"))
        .annotate(places_left=F("places") - F("taken"))
        .filter(places_left__gt=0)
    )
    if on is not None:
        matches = matches.filter(booking__date=on)
    if court_type:
        matches = matches.filter(booking__court__type=court_type)
    if level is not None:
        matches = matches.filter(
            Q(level_min=None) | Q(level_min__lte=level), Q(level_max=None) | Q(level_max__gte=level)
        )
    return matches.order_by("booking__starts_at", "pk")


@transaction.atomic
def match_open(
    *,
    booking: Booking,
    by: User,
    places: int,
    deadline: datetime,
    level_min: Decimal | None = None,
    level_max: Decimal | None = None,
    play_anyway: bool = False,
) -> Match:
    """Opens `booking` to others as a match (or changes its match): `places` in all, the organiser
    included, joined until `deadline`, by people whose level is in the range given."""
    booking = Booking.objects.select_for_update(of=("self",)).select_related("court").get(pk=booking.pk)
    if not organises(booking, by):
        raise Forbidden("Only the person who made the booking opens it as a match.")
    policy = policy_get()
    if closed := players_closed(booking, policy):
        raise Conflict(closed)
    errors = {}
    taken = 1 + booking.players.count()
    if places > booking.court.places:
        errors["places"] = f"{booking.court_name} has places for {booking.court.places}."
    elif places <= taken:
        errors["places"] = f"{taken} play already: open at least one more place."
    until = players_until(booking, policy)
    if deadline <= timezone.now():
        errors["deadline"] = "The deadline is still to come."
    elif deadline > until:
        errors["deadline"] = f"The players change until {when(until)}: the deadline is then at the latest."
    if level_min is not None and level_max is not None and level_max < level_min:
        errors["levelMax"] = "The highest level is at least the lowest."
    if errors:
        raise ValidationError(errors)
    match, _ = Match.objects.update_or_create(
        booking=booking,
        defaults={
            "places": places,
            "deadline": deadline,
            "level_min": level_min,
            "level_max": level_max,
            "play_anyway": play_anyway,
        },
    )
    return match


@transaction.atomic
def match_close(*, booking: Booking, by: User) -> None:
    """The organiser stops the match: nobody joins any more; those who did still play."""
    booking = Booking.objects.select_for_update(of=("self",)).get(pk=booking.pk)
    if not organises(booking, by):
        raise Forbidden("Only the person who made the booking closes its match.")
    Match.objects.filter(booking=booking).delete()


@transaction.atomic
def match_join(*, match: Match, user: User) -> Player:
    """`user` takes one of the match's places left. Under the booking's row lock, so that of many
    joining for the last place at once exactly one gets it."""
    booking = (
        Booking.objects.select_for_update(of=("self",))
        .select_related("court", "user")
        .get(pk=match.booking_id)
    )
    current = Match.objects.filter(booking=booking).first()  # as it stands under the lock
    if current is None or booking.status not in Booking.HOLDING or current.deadline <= timezone.now():
        raise Conflict("This match is no longer open.")
    match = current
    if user.pk == booking.user_id or booking.players.filter(user=user).exists():
        raise Conflict("You play in this match already.")
    if match.level_min is not None or match.level_max is not None:
        if user.level is None:
            raise Conflict("This match is for a range of levels: set your level on My Profile to join it.")
        if not (match.level_min or 0) <= user.level <= (match.level_max or 99):
            raise Conflict(f"This match is for levels {match.levels}, and yours is {user.level}.")
    if 1 + booking.players.count() >= match.places:
        raise Conflict("This match is full: its last place was just taken.")
    check_hours(booking, [user], named=False)
    player = Player.objects.create(booking=booking, kind=Player.Kind.PERSON, user=user)
    notices.match_joined(player)
    players_asked_to_pay(booking)
    return player


def matches_call_off(*, now: datetime | None = None) -> int:
    """Matches not full at their deadline, whose organiser did not choose to play anyway, are
    cancelled by the club: every payment refunded in full, everyone on it told. Answers how many."""
    now = now or timezone.now()
    due = (
        Match.objects.filter(deadline__lte=now, play_anyway=False, booking__status__in=Booking.HOLDING)
        .annotate(taken=1 + Count("booking__players"))
        .filter(taken__lt=F("places"))
        .values_list("booking_id", "booking__status")
    )
    return sum(
        booking_call_off(booking=Booking(pk=booking_id), from_status=status, reason=CALLED_OFF)
        for booking_id, status in due
    )


@task
def call_off_unfilled_matches() -> int:
    """Periodic (settings.PERIODIC_TASKS)."""
    return matches_call_off()
