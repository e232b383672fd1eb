from decimal import Decimal
from typing import Any

from django.urls import reverse
from django.utils import timezone
from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from accounts.models import User
from accounts.serializers import LevelField, NormalisedEmailField
from courts.models import PLACES_MOST
from kernel.api import CamelCaseModelSerializer, IdField
from kernel.days import DateLabel, day
from kernel.text import validate_one_line

from .blocks import CONFLICT_CHOICES, REFUSE
from .forms import PolicyForm
from .models import Booking, Match, Player, Policy, WaitlistEntry
from .players import organises, places_of, players_closed, players_until
from .schedule import CellState, schedule_types
from .selectors import policy_get
from .waitlist import book_path


class BookingOutput(serializers.ModelSerializer):
    courtId = serializers.IntegerField(source="court_id")
    courtName = serializers.CharField(source="court_name")
    userEmail = serializers.EmailField(source="user.email")
    createdAt = serializers.DateTimeField(source="created_at")
    slots = serializers.ListField(
        child=serializers.CharField(), help_text="The booked slots, in the court's order."
    )

    class Meta:
        model = Booking
        fields = ["id", "courtId", "courtName", "date", "slots", "userEmail", "price", "status", "createdAt"]


class BookingCreatedOutput(BookingOutput):
    """An instant booking is paid at `payUrl` by `paymentDueAt`; a request waits (both null)."""

    payUrl = serializers.SerializerMethodField()
    paymentDueAt = serializers.DateTimeField(source="payment_deadline", allow_null=True)

    class Meta(BookingOutput.Meta):
        fields = [*BookingOutput.Meta.fields, "payUrl", "paymentDueAt"]

    def get_payUrl(self, booking: Booking) -> str | None:
        approved = booking.status == Booking.Status.APPROVED
        return reverse("payments:pay", args=[booking.pk]) if approved else None


class BookingRequestInput(serializers.Serializer):
    """`courtName` is ignored; `price` and `userEmail`, if sent, must be the server's and the caller's."""

    userEmail = NormalisedEmailField(required=False)
    courtId = IdField()
    courtName = serializers.CharField(required=False, allow_blank=True)
    price = serializers.DecimalField(max_digits=10, decimal_places=2, required=False)
    slots = serializers.ListField(child=serializers.CharField(max_length=11), allow_empty=True, max_length=48)
    date = serializers.DateField()


class SeriesInput(serializers.Serializer):
    """A series: `slots` of the court on `firstDate`, and every `everyWeeks` weeks after it until
    `lastDate`. To book it: the `skipDates` its dry run said cannot be had, left out."""

    courtId = IdField()
    slots = serializers.ListField(child=serializers.CharField(max_length=11), allow_empty=True, max_length=48)
    firstDate = serializers.DateField(source="first_date")
    everyWeeks = serializers.IntegerField(source="every_weeks", default=1, help_text="1: weekly; at most 4.")
    lastDate = serializers.DateField(source="last_date", help_text="No date of the series comes after it.")
    skipDates = serializers.ListField(
        child=serializers.DateField(),
        source="skip_dates",
        required=False,
        max_length=60,
        help_text="The dates the dry run refused, which the person agreed to leave out.",
    )


class SeriesQuery(serializers.Serializer):
    dryRun = serializers.BooleanField(
        source="dry_run",
        default=False,
        help_text="List the dates, with their prices or why they cannot be had, and book nothing.",
    )


class OccurrencePlanOutput(serializers.Serializer):
    date = serializers.DateField()
    dateLabel = DateLabel(day, source="date")
    price = serializers.DecimalField(max_digits=10, decimal_places=2)
    refusal = serializers.CharField(help_text="Why it cannot be had; empty when it can.")


class SeriesPlanOutput(serializers.Serializer):
    dates = OccurrencePlanOutput(many=True)
    bookable = serializers.IntegerField(help_text="How many of the dates can be had.")
    total = serializers.DecimalField(max_digits=12, decimal_places=2, help_text="What they cost together.")


class SeriesChangedOutput(SeriesPlanOutput):
    """Dates that could be had in the dry run cannot be now: nothing was booked."""

    detail = serializers.CharField()


def series_plan_output(plan: list[Any]) -> dict[str, Any]:
    """The body of a series' dry run (bookings.series.Occurrence each)."""
    free = [one for one in plan if not one.refusal]
    return {"dates": plan, "bookable": len(free), "total": sum((one.price for one in free), Decimal(0))}


class SeriesOutput(serializers.Serializer):
    id = serializers.IntegerField()
    courtId = serializers.IntegerField(source="court_id")
    courtName = serializers.CharField(source="court.label")
    userEmail = serializers.EmailField(source="user.email")
    slots = serializers.ListField(child=serializers.CharField())
    firstDate = serializers.DateField(source="first_date")
    everyWeeks = serializers.IntegerField(source="every_weeks")
    lastDate = serializers.DateField(source="last_date")
    repeats = serializers.CharField(help_text="As shown: 'Weekly', 'Every 2 weeks'.")
    occurrences = BookingCreatedOutput(many=True, help_text="Its bookings, in date order.")
    url = serializers.SerializerMethodField(help_text="The page of its first booking, showing the series.")

    def get_url(self, series: Any) -> str | None:
        first = next(iter(series.occurrences.all()), None)
        return reverse("bookings:detail", args=[first.pk]) if first else None


class SeriesCancelQuery(serializers.Serializer):
    dateFrom = serializers.DateField(
        source="from_date",
        required=False,
        help_text="Cancel its bookings on this date and later; by default, all those not yet begun.",
    )


class BookingRejectInput(serializers.Serializer):
    reason = serializers.CharField(
        required=False, allow_blank=True, max_length=500, help_text="Why, for the booking's owner."
    )


class DaysQuery(serializers.Serializer):
    dateFrom = serializers.DateField(required=False, source="date_from", help_text="The first day.")
    dateTo = serializers.DateField(required=False, source="date_to", help_text="The last day.")

    def validate(self, data):
        if data.get("date_from") and data.get("date_to") and data["date_to"] < data["date_from"]:
            raise serializers.ValidationError({"dateTo": "The last day comes on or after the first."})
        return data


class BookingListQuery(DaysQuery):
    email = NormalisedEmailField(required=False)
    title = serializers.CharField(required=False, allow_blank=True, max_length=100)


class AvailabilityQuery(serializers.Serializer):
    date = serializers.DateField()


@extend_schema_serializer(component_name="Availability")
class AvailabilityOutput(serializers.Serializer):
    date = serializers.DateField()
    slots = serializers.ListField(child=serializers.CharField())
    taken = serializers.ListField(child=serializers.CharField())
    past = serializers.ListField(
        child=serializers.CharField(), help_text="Slots that have begun: too late to book."
    )
    membersOnly = serializers.ListField(
        child=serializers.CharField(),
        help_text="Slots that a members-only price band keeps for the holders of a plan with the "
        "members-only hours, which you may not book (none for such a holder, or an admin).",
    )
    prices = serializers.DictField(
        child=serializers.DecimalField(max_digits=10, decimal_places=2),
        help_text="Each slot's price that day to you: its price band's, or the court's own; your "
        "plan's member price if you hold one.",
    )
    priceKinds = serializers.DictField(
        child=serializers.ChoiceField(choices=["peak", "off-peak"]),
        help_text="The slots priced above (peak) or below (off-peak) what you pay for a slot at the "
        "court's own price.",
    )


class CalendarFeedOutput(serializers.Serializer):
    url = serializers.URLField(help_text="Your private calendar feed, for a calendar app to subscribe to.")


class PolicySerializer(CamelCaseModelSerializer[Policy]):
    """The booking policy's rules, under camelCase names."""

    class Meta:
        model = Policy
        fields = PolicyForm.Meta.fields  # the rules, as the Club Rules page has them

    def get_fields(self):
        fields = super().get_fields()
        for field in fields.values():
            field.required = True  # every rule has a value; PATCH (partial) takes any of them
        return fields


class ScheduleQuery(serializers.Serializer):
    date = serializers.DateField(
        default=timezone.localdate, help_text="The day; today in the club's time zone if left out."
    )
    type = serializers.CharField(
        required=False, allow_blank=True, max_length=50, help_text="Only courts of this type."
    )

    def validate_type(self, value: str) -> str:
        if value and value not in schedule_types():
            raise serializers.ValidationError("No open court is of this type.")
        return value


class ScheduleCellOutput(serializers.Serializer):
    slot = serializers.CharField()
    state = serializers.ChoiceField(choices=CellState.choices)
    bookingId = serializers.IntegerField(
        source="booking_id", allow_null=True, help_text="The holding booking: for its owner and admins."
    )
    status = serializers.CharField(help_text="The holding booking's status: for its owner and admins.")
    holder = serializers.CharField(help_text="The holding booking's owner's e-mail: for admins.")
    blockId = serializers.IntegerField(
        source="block_id", allow_null=True, help_text="The holding block: for admins (to lift it)."
    )
    reason = serializers.CharField(help_text="Why a blocked cell is closed; a program's cell, the program.")
    programId = serializers.IntegerField(
        source="program_id", allow_null=True, help_text="The program whose slots a program's cell holds."
    )
    series = serializers.BooleanField(help_text="Whether the holding booking is a date of a series.")
    price = serializers.DecimalField(
        max_digits=10,
        decimal_places=2,
        allow_null=True,
        help_text="A free cell's price to you when a price band makes it other than the court's `yourPrice`.",
    )
    waitlistId = serializers.IntegerField(
        source="waitlist_id",
        allow_null=True,
        help_text="Your place in a taken cell's line, to leave it (DELETE /api/waitlist/{id}).",
    )
    heldUntil = serializers.DateTimeField(
        source="held_until", allow_null=True, help_text="The end of the hold of a slot held for you."
    )
    players = serializers.ListField(
        child=serializers.CharField(),
        help_text="Who else plays in a booking of yours (one you made, or play in): names, guests marked.",
    )


class ScheduleCourtOutput(serializers.Serializer):
    id = serializers.IntegerField(source="court.pk")
    name = serializers.CharField(source="court.name")
    type = serializers.CharField(source="court.type")
    price = serializers.DecimalField(source="court.price", max_digits=10, decimal_places=2)
    yourPrice = serializers.DecimalField(
        source="price",
        max_digits=10,
        decimal_places=2,
        help_text="What you pay for a slot at the court's own price: your plan's member price if you "
        "hold one, else `price`.",
    )
    cells = ScheduleCellOutput(many=True, help_text="One per column of `slots`.")


class ScheduleOutput(serializers.Serializer):
    date = serializers.DateField()
    type = serializers.CharField()
    slots = serializers.ListField(
        child=serializers.CharField(), help_text="The columns: every slot any court offers, in time order."
    )
    courts = ScheduleCourtOutput(source="rows", many=True)
    opensOn = serializers.DateField(
        source="opens_on", allow_null=True, help_text="When you may book this day, if not yet."
    )


class BlockInput(serializers.Serializer):
    courtId = IdField()
    date = serializers.DateField(help_text="The first (or only) day.")
    until = serializers.DateField(
        required=False,
        allow_null=True,
        help_text="Weekly, on the same weekday, until this day; none for one.",
    )
    slots = serializers.ListField(child=serializers.CharField(max_length=11), allow_empty=True, max_length=48)
    reason = serializers.CharField(allow_blank=True, max_length=200, help_text="Shown in the schedule.")
    conflicts = serializers.ChoiceField(
        choices=CONFLICT_CHOICES,
        default=REFUSE,
        help_text="Bookings holding some slots: refuse (409), cancel them (refunded), or skip those slots.",
    )


class BlockOutput(serializers.Serializer):
    id = serializers.IntegerField()
    courtId = serializers.IntegerField(source="court_id")
    courtName = serializers.CharField(source="court.name")
    date = serializers.DateField()
    until = serializers.DateField(allow_null=True)
    slots = serializers.ListField(child=serializers.CharField())
    reason = serializers.CharField()
    createdBy = serializers.EmailField(source="created_by.email", allow_null=True, default=None)
    createdAt = serializers.DateTimeField(source="created_at")


class BlockConflictOutput(serializers.Serializer):
    bookingId = serializers.IntegerField(source="pk")
    date = serializers.DateField()
    dateLabel = DateLabel(day, source="date", help_text="The day as the club writes it.")
    slots = serializers.ListField(child=serializers.CharField(), help_text="The booking's slots.")
    status = serializers.CharField()
    userEmail = serializers.EmailField(source="user.email")


class BlockConflictsOutput(serializers.Serializer):
    detail = serializers.CharField()
    conflicts = BlockConflictOutput(many=True)


class BlockListQuery(DaysQuery):
    courtId = IdField(required=False, source="court_id")


class WaitlistJoinInput(serializers.Serializer):
    courtId = IdField()
    date = serializers.DateField()
    slot = serializers.CharField(max_length=11, help_text="One of the court's slots, 'HH:MM-HH:MM'.")


class WaitlistEntryOutput(serializers.ModelSerializer):
    courtId = serializers.IntegerField(source="court_id")
    courtName = serializers.CharField(source="court.label", read_only=True)
    position = serializers.IntegerField(
        allow_null=True,
        read_only=True,
        help_text="The place in line: 1 is offered the slot next when it frees; null while it is offered.",
    )
    offerExpiresAt = serializers.DateTimeField(
        source="offer_expires_at",
        allow_null=True,
        help_text="An offer's end: the slot is held for you until then.",
    )
    bookUrl = serializers.SerializerMethodField(help_text="While offered: where to book it.")

    class Meta:
        model = WaitlistEntry
        fields = [
            "id",
            "courtId",
            "courtName",
            "date",
            "slot",
            "status",
            "position",
            "offerExpiresAt",
            "bookUrl",
        ]
        read_only_fields = ["date", "slot", "status"]

    def get_bookUrl(self, entry: WaitlistEntry) -> str | None:
        return book_path(entry) if entry.status == WaitlistEntry.Status.OFFERED else None


class PlayersInput(serializers.Serializer):
    """Who plays besides the organiser, in full: those left out are taken off."""

    people = serializers.ListField(
        child=serializers.UUIDField(),
        max_length=PLACES_MOST,
        default=list,
        help_text="People of the club, by the ids GET /api/people answers.",
    )
    invite = serializers.ListField(
        child=NormalisedEmailField(), max_length=PLACES_MOST, default=list, help_text="Addresses to invite."
    )
    guests = serializers.ListField(
        child=serializers.CharField(max_length=100, validators=[validate_one_line]),
        max_length=PLACES_MOST,
        default=list,
        help_text="The names of guests.",
    )


@extend_schema_serializer(component_name="Player")
class PlayerOutput(serializers.Serializer):
    """A player as the viewer may see them: the address of an invitation not yet answered is shown to
    the organiser and the admins alone."""

    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=Player.Kind.choices)
    status = serializers.ChoiceField(choices=Player.Status.choices)
    name = serializers.SerializerMethodField()
    person = serializers.UUIDField(source="user.public_id", allow_null=True, default=None)
    email = serializers.SerializerMethodField(
        help_text="The address invited, for the organiser and the admins."
    )

    def get_email(self, player: Player) -> str | None:
        return player.email if player.email and self.context["sees_addresses"] else None

    def get_name(self, player: Player) -> str:
        if player.user is None and player.kind == Player.Kind.INVITED and not self.context["sees_addresses"]:
            return "Invited, not yet answered"
        return player.shown_name


@extend_schema_serializer(component_name="Players")
class PlayersOutput(serializers.Serializer):
    places = serializers.IntegerField(help_text="The court's places, the organiser included.")
    organiser = serializers.CharField(help_text="The name of the person who made the booking.")
    players = PlayerOutput(many=True)
    changeable = serializers.BooleanField(help_text="Whether the viewer may change the players now.")
    changeableUntil = serializers.DateTimeField(help_text="When the players stop changing.")
    price = serializers.DecimalField(max_digits=10, decimal_places=2, help_text="Its guests' fees included.")
    guestFee = serializers.DecimalField(
        max_digits=6, decimal_places=2, help_text="What each guest adds to the price (the policy's)."
    )


def players_output(booking: Booking, *, viewer: User) -> dict[str, Any]:
    """What GET /api/bookings/{id}/players answers `viewer` (and the booking's page gives its island)."""
    sees_addresses = organises(booking, viewer)
    policy = policy_get()
    return PlayersOutput(
        {
            "places": places_of(booking),
            "organiser": booking.user.public_name,
            "players": booking.players.select_related("user"),
            "changeable": sees_addresses and not players_closed(booking, policy),
            "changeableUntil": players_until(booking, policy),
            "price": booking.price,
            "guestFee": policy.guest_fee,
        },
        context={"sees_addresses": sees_addresses},
    ).data


class MatchInput(serializers.Serializer):
    """A booking opened as a match: how many play in all, until when others join, and for whom."""

    places = serializers.IntegerField(min_value=2, max_value=PLACES_MOST, help_text="The organiser included.")
    deadline = serializers.DateTimeField(help_text="Full by then, or it is called off (unless playAnyway).")
    levelMin = LevelField(source="level_min", required=False, allow_null=True, default=None)
    levelMax = LevelField(source="level_max", required=False, allow_null=True, default=None)
    playAnyway = serializers.BooleanField(source="play_anyway", default=False)


class MatchQuery(serializers.Serializer):
    date = serializers.DateField(required=False, help_text="Only the matches of this day.")
    type = serializers.CharField(
        required=False, allow_blank=True, max_length=50, help_text="Of this court type."
    )
    level = LevelField(required=False, help_text="Only those whose level range takes this level.")


class MatchOutput(serializers.Serializer):
    """An open match; who plays in it is shown to those signed in."""

    id = serializers.IntegerField()
    bookingId = serializers.IntegerField(source="booking_id")
    court = serializers.CharField(source="booking.court_name")
    courtType = serializers.CharField(source="booking.court.type")
    date = serializers.DateField(source="booking.date")
    slots = serializers.CharField(source="booking.slots_label")
    startsAt = serializers.DateTimeField(source="booking.starts_at")
    places = serializers.IntegerField()
    placesLeft = serializers.IntegerField(source="places_left")
    levels = serializers.CharField(help_text='"3.0–4.5", "3.0 and up", "up to 4.5" or "any".')
    levelMin = LevelField(source="level_min", allow_null=True)
    levelMax = LevelField(source="level_max", allow_null=True)
    deadline = serializers.DateTimeField()
    playAnyway = serializers.BooleanField(source="play_anyway")
    players = serializers.SerializerMethodField(help_text="Who plays, for those signed in; else empty.")
    joinUrl = serializers.SerializerMethodField()

    def get_players(self, match: Match) -> list[str]:
        if not self.context["signed_in"]:
            return []
        booking = match.booking
        return [booking.user.public_name, *(player.listed_name for player in booking.players.all())]

    def get_joinUrl(self, match: Match) -> str:
        return reverse("api-match-join", args=[match.pk])
