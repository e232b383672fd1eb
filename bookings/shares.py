"""Who pays what of a booking (docs/rules.md, Paying together). Under the policy's default its
organiser pays the whole price. With shared payment the slots' price is split evenly between
everyone on the list, each player's part priced by their own plan, and the organiser pays their
guests' parts. Each guest adds the policy's guest fee either way, paid by the organiser."""

from dataclasses import dataclass
from decimal import Decimal

from accounts.models import User
from courts.pricing import PriceFor, slot_prices
from kernel.money import round_money

from . import notices
from .models import Booking, Match, Player, Policy
from .rules import rules_for
from .selectors import policy_get

Kind = Player.Kind
SUCCEEDED = "succeeded"  # a payment's status once paid (payments.models.Payment.Status)
OPEN_PLACE = "An open place"


@dataclass(frozen=True)
class Share:
    """One place's part of a booking's price, and who pays it."""

    name: str
    # The organiser, the player, or (for a guest) the organiser; None while nobody does (an
    # invitation not yet answered, an open place), until the organiser pays what is left.
    payer_id: int | None
    payer_name: str
    amount: Decimal
    guest_fee: Decimal = Decimal(0)
    # The place of a person playing, who pays it themselves: the one told to pay it.
    player: Player | None = None


def shared(policy: Policy) -> bool:
    return policy.price_sharing == Policy.PriceSharing.SHARED


def booking_shares(booking: Booking, *, policy: Policy | None = None) -> list[Share]:
    """Each place's share of `booking`, its organiser's first."""
    policy = policy or policy_get()
    organiser: User = booking.user

    def organisers(name: str, amount: Decimal, guest_fee: Decimal = Decimal(0)) -> Share:
        return Share(name, organiser.pk, organiser.public_name, amount, guest_fee)

    players = list(booking.players.select_related("user"))
    guests = [player for player in players if player.kind == Kind.GUEST]
    fee = booking.guest_fees / len(guests) if guests else Decimal(0)
    if not shared(policy):
        return [
            organisers(organiser.public_name, booking.price, booking.guest_fees),
            *(organisers(player.listed_name, Decimal(0)) for player in players),
        ]
    # An open match is split between the places it is for; a place nobody took is left to the
    # organiser, with what is left.
    match_places = Match.objects.filter(booking=booking).values_list("places", flat=True).first()
    everyone = max(match_places or 0, 1 + len(players))

    def part(price_for: PriceFor | None = None) -> Decimal:
        prices = slot_prices(booking.court, booking.date, booking.slots, price_for)
        return round_money(sum(prices, Decimal(0)) / everyone)

    full_part = part()
    # The organiser's own part at the price their booking was made for.
    own_part = round_money((booking.price - booking.guest_fees) / everyone)
    shares = [organisers(organiser.public_name, own_part)]
    for player in players:
        if player.kind == Kind.GUEST:
            shares.append(organisers(player.listed_name, full_part + fee, fee))
        elif player.user is None:
            shares.append(Share(player.listed_name, None, "", full_part))
        else:
            price_for = rules_for(player.user, policy=policy).price_for
            shares.append(
                Share(player.listed_name, player.user_id, player.shown_name, part(price_for), player=player)
            )
    shares += [Share(OPEN_PLACE, None, "", full_part)] * (everyone - len(shares))
    return shares


def payers(booking: Booking) -> set[int]:
    """The people whose payment for the booking has gone through (and not been given back)."""
    paid = booking.payments.filter(status=SUCCEEDED)
    return set(paid.values_list("user_id", flat=True))


def left_to_pay(shares: list[Share], paid_by: set[int]) -> Decimal:
    """What of `shares` nobody in `paid_by` has paid."""
    return sum((share.amount for share in shares if share.payer_id not in paid_by), Decimal(0))


def shares_shown(booking: Booking, *, policy: Policy | None = None) -> list[dict[str, object]]:
    """Each share of `booking` as its players see it: who pays it, and whether it is paid."""
    paid_by = payers(booking)
    return [
        {
            "name": share.name,
            "amount": share.amount,
            "guest_fee": share.guest_fee,
            "paid_by": share.payer_name,
            "paid": share.payer_id in paid_by or booking.status == Booking.Status.CONFIRMED,
        }
        for share in booking_shares(booking, policy=policy)
    ]


def pays_now(booking: Booking, person: User, *, policy: Policy) -> bool:
    """Whether `person` has something to pay for `booking` now: its organiser while it waits for
    payment, and, with shared payment, each player until they have paid their share."""
    if booking.status != Booking.Status.APPROVED:
        return False
    if person.pk == booking.user_id:
        return True
    plays = booking.players.filter(user=person, status=Player.Status.PLAYING).exists()
    return shared(policy) and plays and person.pk not in payers(booking)


def players_asked_to_pay(booking: Booking, *, policy: Policy | None = None) -> None:
    """With shared payment, each person playing in the approved `booking` who has a share to pay
    is told how much, and by when: once for each place (the message is about it)."""
    policy = policy or policy_get()
    if not shared(policy) or booking.status != Booking.Status.APPROVED:
        return
    paid_by = payers(booking)
    for share in booking_shares(booking, policy=policy):
        if share.player is not None and share.payer_id not in paid_by and share.amount:
            notices.share_due(share.player, amount=share.amount)
