"""The players of a booking besides the person who made it, its organiser (docs/rules.md, Players):
people of the club chosen by name, people invited by e-mail, who play once they accept, and named
guests; as many in all as the court has places. The organiser changes them until the cut-off."""

from collections import Counter
from collections.abc import Iterable
from datetime import datetime, timedelta
from uuid import UUID

from django.core import signing
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from accounts.models import User
from courts.pricing import members_only_slots
from kernel.days import when
from kernel.errors import Conflict, Forbidden

from . import notices
from .hours import hours_refusal
from .models import Booking, Match, Player, Policy
from .rules import rules_for
from .selectors import policy_get
from .shares import payers, players_asked_to_pay, shared

Kind, Status = Player.Kind, Player.Status
INVITATION_SALT = "bookings.players.invitation"


def players_until(booking: Booking, policy: Policy) -> datetime:
    """When the booking's players stop changing: the cut-off for cancelling it."""
    return booking.starts_at - timedelta(hours=policy.cancel_cutoff_hours)


def organises(booking: Booking, person: User) -> bool:
    """Whether `person` may choose the booking's players (and see the addresses invited): its
    organiser, or an admin."""
    return person.pk == booking.user_id or person.is_admin


def players_closed(booking: Booking, policy: Policy) -> str:
    """Why the booking's players no longer change, or "" while they may."""
    if booking.status not in Booking.HOLDING:
        return f"This booking is {booking.get_status_display().lower()}: its players no longer change."
    if timezone.now() >= (until := players_until(booking, policy)):
        return f"The players could be changed until {when(until)}."
    return ""


def places_of(booking: Booking) -> int:
    """How many may play in the booking, its organiser included: as many as its open match is
    for, else as many as its court has places for."""
    match_places = Match.objects.filter(booking=booking).values_list("places", flat=True).first()
    return match_places or booking.court.places


def invitation_token(player: Player) -> str:
    """The key of an invitation's accept and decline links: whoever holds the e-mail holds it."""
    return signing.dumps(player.pk, salt=INVITATION_SALT)


def invitation_by_token(token: str) -> Player | None:
    """The invitation still waiting for an answer that `token` is the key of, if any."""
    try:
        pk = signing.loads(token, salt=INVITATION_SALT)
    except signing.BadSignature:
        return None
    waiting = Player.objects.select_related("booking__user", "booking__court")
    return waiting.filter(pk=pk, status=Status.INVITED, booking__status__in=Booking.HOLDING).first()


@transaction.atomic
def players_set(
    *, booking: Booking, by: User, people: Iterable[UUID], invite: Iterable[str], guests: Iterable[str]
) -> list[Player]:
    """Makes the booking's players those given: the `people` of the club by their public ids (those
    playing already, invited or chosen, among them), the addresses to `invite` (those invited and
    not yet answered among them) and the `guests`' names. Whoever is added is told, and so is
    whoever is taken off; each new address gets its invitation."""
    locked = Booking.objects.select_for_update(of=("self",)).select_related("court", "user")
    booking = locked.get(pk=booking.pk)
    if not organises(booking, by):
        raise Forbidden("Only the person who made the booking chooses its players.")
    policy = policy_get()
    if closed := players_closed(booking, policy):
        raise Conflict(closed)
    people, invite = set(people), {email.strip().lower() for email in invite}
    guests = [name.strip() for name in guests]
    chosen = {
        person.public_id: person for person in User.objects.filter(public_id__in=people, is_active=True)
    }
    errors: dict[str, str] = {}
    if len(chosen) < len(people):
        errors["people"] = "Some of the people chosen are no longer at the club: search for them again."
    elif any(person.pk == booking.user_id for person in chosen.values()):
        errors["people"] = "You play in your own booking already: choose the others."
    if booking.user.email in invite:
        errors["invite"] = "That is your own address: invite the others."
    if not all(guests):
        errors["guests"] = "Give each guest a name."
    elif guests and (members_only := members_only_slots(booking.court, booking.date, booking.slots)):
        are = "is" if len(members_only) == 1 else "are"
        errors["guests"] = (
            f"Members only: {', '.join(members_only)} {are} kept for the club's members, "
            "so guests cannot play then."
        )
    places = places_of(booking)
    if (count := 1 + len(people) + len(invite) + len(guests)) > places:
        errors["players"] = (
            f"{booking.court_name} has places for {places}, you included, and these are "
            f"{count}: take {count - places} off."
        )
    if errors:
        raise ValidationError(errors)
    current = list(booking.players.select_related("user"))
    _check_paid(booking, policy, current, people=set(chosen), invite=invite, guests=guests)
    guests_before = sum(player.kind == Kind.GUEST for player in current)

    kept, guests_left = [], Counter(guests)
    for player in current:
        if player.user is not None:
            stays = chosen.pop(player.user.public_id, None) is not None
        elif player.kind == Kind.INVITED:
            stays = player.email in invite
            invite.discard(player.email)
        else:
            stays = guests_left[player.name] > 0
            guests_left[player.name] -= 1
        if stays:
            kept.append(player)
            continue
        if player.user is not None:  # told before the row goes, which names the message
            notices.player_removed(player, by=by)
        player.delete()
    check_hours(booking, list(chosen.values()), named=True)
    added = [
        *(Player(booking=booking, kind=Kind.PERSON, user=person) for person in chosen.values()),
        *(
            Player(booking=booking, kind=Kind.INVITED, status=Status.INVITED, email=email)
            for email in sorted(invite)
        ),
        *(Player(booking=booking, kind=Kind.GUEST, name=name) for name in guests_left.elements()),
    ]
    if len(guests) != guests_before:
        _charge_guests(booking, policy, guests=len(guests))
    for player in added:
        player.save()
        if player.kind == Kind.PERSON:
            notices.player_added(player)
        elif player.kind == Kind.INVITED:
            notices.player_invited(player, token=invitation_token(player))
    players_asked_to_pay(booking, policy=policy)
    return [*kept, *added]


@transaction.atomic
def invitation_accept(*, player: Player, user: User) -> Player:
    """`user`, signed in, takes the place their invitation keeps: they play from now on."""
    locked = Booking.objects.select_for_update(of=("self",)).select_related("court")
    booking = locked.get(pk=player.booking_id)
    player = Player.objects.select_for_update().get(pk=player.pk)
    if player.status != Status.INVITED:
        raise Conflict("This invitation has been answered already.")
    if booking.status not in Booking.HOLDING:
        raise Conflict(f"This booking is {booking.get_status_display().lower()}: there is no game to join.")
    if user.pk == booking.user_id or booking.players.filter(user=user).exists():
        raise Conflict("You play in this booking already.")
    check_hours(booking, [user], named=False)
    player.move(Status.PLAYING, locked=True, user=user)
    notices.invitation_answered(player, accepted=True)
    players_asked_to_pay(booking)
    return player


@transaction.atomic
def invitation_decline(*, player: Player) -> None:
    """The invited person says no: their place is free again, and the organiser is told."""
    Booking.objects.select_for_update().filter(pk=player.booking_id).get()
    if Player.objects.filter(pk=player.pk, status=Status.INVITED).delete()[0]:
        notices.invitation_answered(player, accepted=False)


def check_hours(booking: Booking, people: list[User], *, named: bool) -> None:
    """Refuses to put on `booking` someone it would take past the hours they may play (their plan's,
    or the policy's), counting every booking they make or play in: under their row locks, taken in
    one order, so that their own requests and other bookings they join are counted one at a time.
    `named`: the refusal names them, for the organiser; else it speaks to them."""
    if not people:
        return
    policy = policy_get()
    for person in User.objects.select_for_update().filter(pk__in=[p.pk for p in people]).order_by("pk"):
        name = (person.name or "This person") if named else ""
        refusal = hours_refusal(
            person=person,
            rules=rules_for(person, policy=policy),
            court=booking.court,
            date=booking.date,
            slots=booking.slots,
            name=name,
            joining=True,
        )
        if refusal:
            raise Conflict(refusal)


def _check_paid(
    booking: Booking,
    policy: Policy,
    players: list[Player],
    *,
    people: set[UUID],
    invite: set[str],
    guests: list[str],
) -> None:
    """Refuses changes of the booking's `players` that would change what was paid: any, with
    shared payment (the shares are split between those on the list); the number of guests (their
    fees), either way."""
    if not payers(booking):
        return
    if shared(policy):
        same = (
            {p.user.public_id for p in players if p.user is not None} == people
            and {p.email for p in players if p.user is None and p.email} == invite
            and sorted(p.name for p in players if p.kind == Kind.GUEST) == sorted(guests)
        )
        if not same:
            raise Conflict("Players have paid their shares of this booking: its players no longer change.")
    elif sum(p.kind == Kind.GUEST for p in players) != len(guests) and booking.guest_fees + policy.guest_fee:
        raise Conflict(
            "This booking is paid: the number of its guests, who each pay a fee, no longer changes."
        )


def _charge_guests(booking: Booking, policy: Policy, *, guests: int) -> None:
    """The booking's price with the policy's guest fee for each of its `guests`."""
    fees = policy.guest_fee * guests
    booking.price = booking.price - booking.guest_fees + fees
    booking.guest_fees = fees
    booking.save(update_fields=["price", "guest_fees"])


def players_told_of_end(booking: Booking) -> None:
    """Those playing in a booking that will not take place (cancelled, rejected or expired) are
    told, in the transaction of that change."""
    for player in playing(booking).exclude(user=None).select_related("user"):
        notices.player_booking_ended(player)


def playing(booking: Booking) -> QuerySet[Player]:
    """The booking's players who play: chosen, guests, and those who accepted their invitation."""
    return booking.players.filter(status=Status.PLAYING)
