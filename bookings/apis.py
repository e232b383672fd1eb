from django.http import Http404
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils import timezone
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from accounts.permissions import IsAdmin, require_self
from courts.models import price_kind
from courts.pricing import members_only_slots, own_price, slot_prices
from courts.selectors import court_list, courts_all, courts_with_price_bands
from kernel.api import valid
from kernel.pagination import SLICE_PARAMETERS, sliced_response
from kernel.ratelimit import WritesThrottle
from kernel.schema import errors

from .blocks import BlockConflicts, block_create, block_delete, block_list
from .calendar import feed_url
from .matches import match_close, match_join, match_open, open_matches
from .models import Block, Booking, Match, WaitlistEntry
from .players import players_set
from .rules import rules_for
from .schedule import bookable_until, day_sheet
from .selectors import (
    booking_list,
    bookings_seen_by,
    bookings_visible_to,
    policy_get,
    taken_slots,
    waitlist_of,
)
from .serializers import (
    AvailabilityOutput,
    AvailabilityQuery,
    BlockConflictsOutput,
    BlockInput,
    BlockListQuery,
    BlockOutput,
    BookingCreatedOutput,
    BookingListQuery,
    BookingOutput,
    BookingRejectInput,
    BookingRequestInput,
    CalendarFeedOutput,
    MatchInput,
    MatchOutput,
    MatchQuery,
    PlayersInput,
    PlayersOutput,
    PolicySerializer,
    ScheduleOutput,
    ScheduleQuery,
    SeriesCancelQuery,
    SeriesChangedOutput,
    SeriesInput,
    SeriesOutput,
    SeriesPlanOutput,
    SeriesQuery,
    WaitlistEntryOutput,
    WaitlistJoinInput,
    players_output,
    series_plan_output,
)
from .series import (
    DatesChanged,
    series_approve,
    series_book,
    series_cancel,
    series_plan,
    series_seen_by,
)
from .services import (
    booking_approve,
    booking_cancel,
    booking_reject,
    booking_request,
    calendar_feed_get,
    calendar_feed_reset,
    policy_update,
)
from .shares import pays_now
from .slots import started_slots
from .waitlist import waitlist_join, waitlist_leave


class BookingCreateApi(APIView):
    """POST: request a booking for yourself; under instant booking it is approved at once."""

    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "booking"

    @extend_schema(
        request=BookingRequestInput, responses={201: BookingCreatedOutput, **errors(400, 401, 403, 404, 409)}
    )
    def post(self, request):
        fields = valid(BookingRequestInput, request.data)
        fields.pop("courtName", None)  # ignored: the booking takes the court's own name
        email = fields.pop("userEmail", None)
        require_self(request.user, email, or_admin=False, message="You can only book for yourself.")
        court = get_object_or_404(courts_all(), pk=fields.pop("courtId"))
        booking = booking_request(user=request.user, court=court, **fields)
        return Response(BookingCreatedOutput(booking).data, status=status.HTTP_201_CREATED)


class SeriesCreateApi(APIView):
    """POST: book a series for yourself (`?dryRun=1`: list its dates first, with those that cannot
    be had and why); its dates are booked, less the `skipDates` the dry run refused, or none."""

    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "booking"

    @extend_schema(
        operation_id="series_create",
        request=SeriesInput,
        parameters=[SeriesQuery],
        responses={
            200: OpenApiResponse(SeriesPlanOutput, description="The dry run: nothing was booked."),
            201: SeriesOutput,
            **errors(400, 401, 404),
            409: OpenApiResponse(
                SeriesChangedOutput,
                description="Dates the dry run found free are taken now (listed again with `dates`), "
                "or the person holds as many open bookings as they may (no `dates`): nothing was booked.",
            ),
        },
    )
    def post(self, request):
        dry_run = valid(SeriesQuery, request.query_params)["dry_run"]
        fields = valid(SeriesInput, request.data)
        court = get_object_or_404(courts_all(), pk=fields.pop("courtId"))
        if dry_run:
            fields.pop("skip_dates", None)
            plan = series_plan(user=request.user, court=court, **fields)
            return Response(SeriesPlanOutput(series_plan_output(plan)).data)
        try:
            series = series_book(user=request.user, court=court, **fields)
        except DatesChanged as changed:
            body = {"detail": str(changed), **series_plan_output(changed.plan)}
            return Response(SeriesChangedOutput(body).data, status=status.HTTP_409_CONFLICT)
        series = series_seen_by(request.user).get(pk=series.pk)
        return Response(SeriesOutput(series).data, status=status.HTTP_201_CREATED)


class SeriesApi(APIView):
    """GET: a series and its bookings (its organiser, or an admin). DELETE: cancel the series from
    `dateFrom` on (by default, all its bookings not yet begun), each refunded as the policy gives."""

    @extend_schema(operation_id="series_one", responses={200: SeriesOutput, **errors(401, 404)})
    def get(self, request, series_id: int):
        return Response(SeriesOutput(get_object_or_404(series_seen_by(request.user), pk=series_id)).data)

    @extend_schema(
        parameters=[SeriesCancelQuery], responses={200: SeriesOutput, **errors(400, 401, 404, 409)}
    )
    def delete(self, request, series_id: int):
        from_date = valid(SeriesCancelQuery, request.query_params).get("from_date", timezone.localdate())
        series = get_object_or_404(series_seen_by(request.user), pk=series_id)
        series_cancel(series=series, by=request.user, from_date=from_date)
        return Response(SeriesOutput(series_seen_by(request.user).get(pk=series_id)).data)


class SeriesApproveApi(APIView):
    """PATCH: an admin approves every date of a series still waiting for a decision; its organiser
    is e-mailed once."""

    permission_classes = [IsAdmin]

    @extend_schema(request=None, responses={200: SeriesOutput, **errors(401, 403, 404, 409)})
    def patch(self, request, series_id: int):
        series = get_object_or_404(series_seen_by(request.user), pk=series_id)
        series_approve(series=series, by=request.user)
        return Response(SeriesOutput(series_seen_by(request.user).get(pk=series_id)).data)


class BookingListApi(APIView):
    """GET: your bookings in that status; an admin sees everyone's, or one person's with `?email=`."""

    status_name: str = ""

    @extend_schema(
        parameters=[BookingListQuery, *SLICE_PARAMETERS],
        responses={200: BookingOutput(many=True), **errors(400, 401, 403)},
    )
    def get(self, request):
        query = valid(BookingListQuery, request.query_params)
        email = query.get("email", "")
        require_self(request.user, email, or_admin=True, message="You can only list your own bookings.")
        bookings = booking_list(viewer=request.user, status=self.status_name, **query)
        return sliced_response(request, bookings, BookingOutput)


class ApprovedBookingApi(APIView):
    """GET: one approved booking, to pay for (its owner, or an admin)."""

    @extend_schema(operation_id="bookings_approved_one", responses={200: BookingOutput, **errors(401, 404)})
    def get(self, request, booking_id: int):
        booking = get_object_or_404(
            bookings_visible_to(request.user), pk=booking_id, status=Booking.Status.APPROVED
        )
        return Response(BookingOutput(booking).data)


class BookingCancelApi(APIView):
    """DELETE: cancel a booking (its owner, or an admin): a pending or approved one, or a paid one
    until it starts, with its refund (docs/rules.md, Cancelling)."""

    @extend_schema(responses={200: BookingOutput, **errors(401, 403, 404, 409)})
    def delete(self, request, booking_id: int):
        booking = get_object_or_404(bookings_visible_to(request.user), pk=booking_id)
        return Response(BookingOutput(booking_cancel(booking=booking, by=request.user)).data)


class BookingApproveApi(APIView):
    """PATCH: an admin approves a pending booking."""

    permission_classes = [IsAdmin]

    @extend_schema(request=None, responses={200: BookingOutput, **errors(401, 403, 404, 409)})
    def patch(self, request, booking_id: int):
        booking = get_object_or_404(Booking, pk=booking_id)
        return Response(BookingOutput(booking_approve(booking=booking, by=request.user)).data)


class BookingRejectApi(APIView):
    """PATCH: an admin rejects a pending booking, optionally saying why."""

    permission_classes = [IsAdmin]

    @extend_schema(
        request=BookingRejectInput, responses={200: BookingOutput, **errors(400, 401, 403, 404, 409)}
    )
    def patch(self, request, booking_id: int):
        data = valid(BookingRejectInput, request.data)
        booking = get_object_or_404(Booking, pk=booking_id)
        return Response(BookingOutput(booking_reject(booking=booking, by=request.user, **data)).data)


class CourtAvailabilityApi(APIView):
    """GET: the court's slots taken, started, kept for members and their prices on a day (anyone):
    the prices the caller pays (their plan's member prices), and the members-only slots they may
    not book."""

    permission_classes = [AllowAny]

    @extend_schema(parameters=[AvailabilityQuery], responses={200: AvailabilityOutput, **errors(400, 404)})
    def get(self, request, court_id: int):
        found = courts_with_price_bands(court_list().filter(pk=court_id))  # the court and its bands
        if not found:
            raise Http404
        court = found[0]
        day = valid(AvailabilityQuery, request.query_params)["date"]
        rules = rules_for(request.user)
        own = own_price(court, rules.price_for)
        prices = dict(zip(court.slots, slot_prices(court, day, court.slots, rules.price_for), strict=True))
        kept = [] if rules.members_only_hours else members_only_slots(court, day, court.slots)
        return Response(
            {
                "date": day,
                "slots": court.slots,
                "taken": taken_slots(court_id=court.pk, date=day),
                "past": started_slots(date=day, slots=court.slots),
                "membersOnly": kept,
                "prices": {slot: f"{price:.2f}" for slot, price in prices.items()},
                "priceKinds": {
                    slot: price_kind(price, own=own) for slot, price in prices.items() if price != own
                },
            }
        )


class CalendarFeedApi(APIView):
    """GET: the address of your private calendar feed."""

    @extend_schema(responses={200: CalendarFeedOutput, **errors(401)})
    def get(self, request):
        feed = calendar_feed_get(user=request.user)
        return Response(CalendarFeedOutput({"url": feed_url(request, feed)}).data)


class CalendarFeedResetApi(APIView):
    """POST: a new address for your calendar feed; the old one answers 404 from then on."""

    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "calendar"

    @extend_schema(request=None, responses={200: CalendarFeedOutput, **errors(401, 403)})
    def post(self, request):
        feed = calendar_feed_reset(user=request.user)
        return Response(CalendarFeedOutput({"url": feed_url(request, feed)}).data)


class PolicyApi(APIView):
    """GET: the club's booking policy (anyone). PATCH: change it (admins)."""

    def get_permissions(self):
        return [AllowAny()] if self.request.method == "GET" else [IsAdmin()]

    @extend_schema(responses={200: PolicySerializer})
    def get(self, request):
        return Response(PolicySerializer(policy_get()).data)

    @extend_schema(request=PolicySerializer, responses={200: PolicySerializer, **errors(400, 401, 403)})
    def patch(self, request):
        data = valid(PolicySerializer, request.data, partial=True)
        return Response(PolicySerializer(policy_update(by=request.user, **data)).data)


class ScheduleApi(APIView):
    """GET: the day sheet (anyone); its own cells for a caller, every cell's holder for an admin."""

    permission_classes = [AllowAny]

    @extend_schema(parameters=[ScheduleQuery], responses={200: ScheduleOutput, **errors(400)})
    def get(self, request):
        query = valid(ScheduleQuery, request.query_params)
        rules = rules_for(request.user)
        sheet = day_sheet(**query, viewer=request.user, bookable_until=bookable_until(rules), rules=rules)
        return Response(ScheduleOutput(sheet).data)


class BlockListApi(APIView):
    """GET: the blocks (admins). POST: an admin blocks slots of a court; bookings holding some
    answer 409 with their list unless `conflicts` says to cancel them or leave those slots out."""

    permission_classes = [IsAdmin]

    @extend_schema(
        parameters=[BlockListQuery, *SLICE_PARAMETERS],
        responses={200: BlockOutput(many=True), **errors(400, 401, 403)},
    )
    def get(self, request):
        query = valid(BlockListQuery, request.query_params)
        return sliced_response(request, block_list(**query), BlockOutput)

    @extend_schema(
        request=BlockInput,
        responses={
            201: BlockOutput,
            **errors(400, 401, 403, 404),
            409: OpenApiResponse(
                BlockConflictsOutput,
                description="Bookings hold some of the slots (listed in `conflicts`), or the slots "
                "changed meanwhile (no `conflicts`): nothing was blocked.",
            ),
        },
    )
    def post(self, request):
        fields = valid(BlockInput, request.data)
        court = get_object_or_404(courts_all(), pk=fields.pop("courtId"))
        try:
            block = block_create(by=request.user, court=court, **fields)
        except BlockConflicts as conflicts:
            body = {"detail": str(conflicts), "conflicts": conflicts.bookings}
            return Response(BlockConflictsOutput(body).data, status=status.HTTP_409_CONFLICT)
        return Response(BlockOutput(block).data, status=status.HTTP_201_CREATED)


class BlockApi(APIView):
    """DELETE: an admin lifts a block."""

    permission_classes = [IsAdmin]

    @extend_schema(request=None, responses={204: None, **errors(401, 403, 404)})
    def delete(self, request, block_id: int):
        block_delete(block=get_object_or_404(Block, pk=block_id), by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class WaitlistApi(APIView):
    """GET: your places on waitlists. POST: join the line for a taken slot."""

    throttle_classes = [WritesThrottle]
    throttle_scope = "waitlist"

    @extend_schema(
        parameters=SLICE_PARAMETERS, responses={200: WaitlistEntryOutput(many=True), **errors(400, 401)}
    )
    def get(self, request):
        return sliced_response(request, waitlist_of(user=request.user), WaitlistEntryOutput)

    @extend_schema(
        request=WaitlistJoinInput, responses={201: WaitlistEntryOutput, **errors(400, 401, 403, 404, 409)}
    )
    def post(self, request):
        fields = valid(WaitlistJoinInput, request.data)
        court = get_object_or_404(courts_all(), pk=fields["courtId"])
        entry = waitlist_join(user=request.user, court=court, date=fields["date"], slot=fields["slot"])
        entry = waitlist_of(user=request.user).get(pk=entry.pk)
        return Response(WaitlistEntryOutput(entry).data, status=status.HTTP_201_CREATED)


class WaitlistEntryApi(APIView):
    """DELETE: leave a waitlist; a slot held for you passes to the next in line."""

    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "waitlist"

    @extend_schema(responses={200: WaitlistEntryOutput, **errors(401, 403, 404, 409)})
    def delete(self, request, entry_id: int):
        entry = get_object_or_404(WaitlistEntry, pk=entry_id, user=request.user)
        left = waitlist_leave(user=request.user, entry=entry)
        left.position = None  # type: ignore[attr-defined]  # as waitlist_of annotates it: none, once left
        return Response(WaitlistEntryOutput(left).data)


class BookingPlayersApi(APIView):
    """GET: who plays in a booking (its organiser, its players and the admins). PUT: its organiser
    (or an admin) makes its players those given, until the cut-off (docs/rules.md, Players)."""

    throttle_classes = [WritesThrottle]
    throttle_scope = "booking"

    @extend_schema(responses={200: PlayersOutput, **errors(401, 404)})
    def get(self, request, booking_id: int):
        booking = get_object_or_404(bookings_seen_by(request.user), pk=booking_id)
        return Response(players_output(booking, viewer=request.user))

    @extend_schema(request=PlayersInput, responses={200: PlayersOutput, **errors(400, 401, 403, 404, 409)})
    def put(self, request, booking_id: int):
        booking = get_object_or_404(bookings_seen_by(request.user), pk=booking_id)
        players_set(booking=booking, by=request.user, **valid(PlayersInput, request.data))
        booking.refresh_from_db(fields=["price", "guest_fees"])  # a guest's fee may have changed them
        return Response(players_output(booking, viewer=request.user))


class BookingMatchApi(APIView):
    """PUT: the organiser (or an admin) opens the booking as a match, or changes it; DELETE: closes
    it to more players (docs/rules.md, Open matches)."""

    throttle_classes = [WritesThrottle]
    throttle_scope = "booking"

    @extend_schema(request=MatchInput, responses={200: MatchOutput, **errors(400, 401, 403, 404, 409)})
    def put(self, request, booking_id: int):
        booking = get_object_or_404(bookings_seen_by(request.user), pk=booking_id)
        match_open(booking=booking, by=request.user, **valid(MatchInput, request.data))
        match = open_matches().get(booking=booking)  # open: the service let it be only so
        return Response(MatchOutput(match, context={"signed_in": True}).data)

    @extend_schema(responses={204: None, **errors(401, 403, 404)})
    def delete(self, request, booking_id: int):
        booking = get_object_or_404(bookings_seen_by(request.user), pk=booking_id)
        match_close(booking=booking, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MatchListApi(APIView):
    """GET: the open matches, the soonest first, by day, court type and level (anyone; who plays
    only for those signed in), a slice at a time."""

    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[MatchQuery, *SLICE_PARAMETERS], responses={200: MatchOutput(many=True), **errors(400)}
    )
    def get(self, request):
        query = valid(MatchQuery, request.query_params)
        matches = open_matches(
            on=query.get("date"), court_type=query.get("type", ""), level=query.get("level")
        )
        return sliced_response(
            request,
            matches.prefetch_related("booking__players__user"),
            MatchOutput,
            context={"signed_in": request.user.is_authenticated},
        )


class MatchJoinApi(APIView):
    """POST: the caller takes one of the match's places left; with shared payment, they then pay
    their share (`payUrl`)."""

    throttle_classes = [WritesThrottle]
    throttle_scope = "booking"

    @extend_schema(
        request=None,
        responses={
            201: inline_serializer(
                "Joined", {"bookingId": serializers.IntegerField(), "payUrl": serializers.CharField()}
            ),
            **errors(401, 404, 409),
        },
    )
    def post(self, request, match_id: int):
        match = get_object_or_404(Match, pk=match_id)
        player = match_join(match=match, user=request.user)
        booking = player.booking
        pay = pays_now(booking, request.user, policy=policy_get())
        return Response(
            {"bookingId": booking.pk, "payUrl": reverse("payments:pay", args=[booking.pk]) if pay else ""},
            status=status.HTTP_201_CREATED,
        )
