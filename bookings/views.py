"""The booking pages of the dashboard, and the calendar feed that calendar apps read."""

from datetime import datetime, timedelta
from typing import Any, cast
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.cache import cache_control
from django.views.decorators.http import conditional_page, require_safe

from accounts.guards import admin_required, login_required, member_required
from accounts.models import User
from audit.selectors import audit_trail
from courts.models import COURT_IMAGE_PLACEHOLDER
from courts.pricing import own_price
from courts.selectors import court_list as open_courts
from courts.selectors import with_price_bands
from kernel import days
from kernel.errors import Conflict, Forbidden
from kernel.pagination import page_of

from .calendar import booking_ics, bookings_calendar, feed_url, webcal
from .forms import POLICY_SECTIONS, BookingFilters, MatchFilters, MatchForm, PolicyForm, ScheduleFilters
from .matches import match_close, match_join, match_open, open_matches
from .models import Booking, CalendarFeed, Match, Policy, Series, WaitlistEntry
from .players import (
    invitation_accept,
    invitation_by_token,
    invitation_decline,
    organises,
    players_closed,
    players_until,
    playing,
)
from .rules import rules_for
from .schedule import bookable_until, day_sheet, schedule_courts, schedule_types
from .selectors import (
    booking_list,
    bookings_seen_by,
    calendar_bookings,
    own_booking_list,
    own_bookings,
    policy_get,
    waitlist_of,
    with_payment,
    with_refund_percent,
    with_shown_status,
)
from .serializers import players_output
from .series import paid_at_once, pays_with_series
from .services import calendar_feed_get, policy_update
from .shares import pays_now, shared, shares_shown
from .slots import NO_SLOTS_CHOSEN, WEEKLY_MOST_DAYS, bookable_dates
from .tables import COLUMNS
from .templatetags.booking_times import booking_action
from .waitlist import book_path

Status = Booking.Status
# The match service's fields (the API's names) on the booking page's form.
MATCH_FIELDS = {"levelMin": "level_min", "levelMax": "level_max"}
ICS = "text/calendar; charset=utf-8"


def court_list(request):
    """The courts open for booking, a page at a time, each with the booking island's Book Now."""
    page = page_of(request, with_price_bands(open_courts()), settings.COURTS_PER_PAGE)
    context = {"page": page, "image_placeholder": static(COURT_IMAGE_PLACEHOLDER)}
    if request.user.is_authenticated:
        rules = rules_for(request.user)
        first, last = bookable_dates(rules)
        context["booking_props"] = {
            "userEmail": request.user.email,
            "minDate": first.isoformat(),
            "maxDate": last.isoformat(),
            "bookingsUrl": reverse("api-bookings"),
            "seriesUrl": reverse("api-series"),
            # A series' last date: within the person's window; an admin's, a year after its first.
            "seriesMaxDate": (last + timedelta(days=WEEKLY_MOST_DAYS if rules.is_admin else 0)).isoformat(),
            "noSlotsMessage": NO_SLOTS_CHOSEN,
            "memberPlan": rules.plan.name if rules.price_for else None,
            "courts": [
                {
                    "id": court.pk,
                    "name": court.name,
                    "type": court.type,
                    # What the person pays for a slot outside the court's bands: their plan's price.
                    "price": str(own_price(court, rules.price_for)),
                    "slots": court.slots,
                    "places": court.places,
                    "availabilityUrl": reverse("api-court-availability", args=[court.pk]),
                }
                for court in page.object_list
            ],
        }
    return render(request, "bookings/courts.html", context)


def _list_page(request, bookings, *, columns: str, **context):
    """One page of `bookings` in a table of `columns`; `context` has the `heading` and `empty` text,
    and if any the rows' `actions`, the `filters` and the person's `calendar` feed."""
    page = page_of(request, bookings)
    shown = [COLUMNS[name] for name in columns.split()]
    # Each booking with its cells, each with its column, which names it on a phone.
    rows = [
        (booking, [(column, column.cell(booking, number)) for column in shown])
        for number, booking in enumerate(page, start=page.start_index())
    ]
    return render(request, "bookings/list.html", {"page": page, "rows": rows, "columns": shown, **context})


def _calendar_links(request) -> dict:
    url = feed_url(request, calendar_feed_get(user=request.user))
    return {"url": url, "webcal": webcal(url)}


def _mine(request, status: str, **context):
    """The signed-in person's bookings in `status`, each to cancel (a paid one until it starts)."""
    bookings = booking_list(viewer=request.user, status=status, email=request.user.email)
    if status == Status.CONFIRMED:
        bookings = with_refund_percent(with_payment(bookings), by=request.user, now=timezone.now())
    return _list_page(
        request,
        bookings,
        heading=f"My {Status(status).label} Bookings",
        empty=f"No {status} bookings found.",
        actions=[f"cancel-{status}"],
        **context,
    )


@login_required
def my_pending(request):
    return _mine(request, Status.PENDING, columns="court date slots price")


@login_required
def my_approved(request):
    return _mine(request, Status.APPROVED, columns="court date slots price pay_by pay")


@member_required
def my_confirmed(request):
    columns = "number court date slots paid status add_to_calendar"
    return _mine(request, Status.CONFIRMED, columns=columns, calendar=_calendar_links(request))


@login_required
def my_bookings(request):
    filters = BookingFilters(request.GET, offered="status")
    return _list_page(
        request,
        own_booking_list(user=request.user, **filters.filters()),
        heading="My Bookings",
        empty="No bookings found.",
        columns="court_link date slots price status changed note",
        filters=filters,
    )


@login_required
def booking_detail(request, booking_id: int):
    """One booking, who plays and its history, for its organiser, its players and the admins."""
    return _booking_page(request, booking_id)


def _booking_page(request, booking_id: int, match_form: MatchForm | None = None):
    """The booking's page; with `match_form`, the form to open it as a match as it was sent, with
    its errors under its fields (a 400)."""
    now = timezone.now()
    seen = with_refund_percent(with_payment(bookings_seen_by(request.user)), by=request.user, now=now)
    booking = get_object_or_404(with_shown_status(seen).select_related("series"), pk=booking_id)
    history = booking.history.select_related("by")
    context: dict[str, object] = {
        "booking": booking,
        "history": history,
        "calendar": None,
        "audit": None,
        "players_props": {
            **players_output(booking, viewer=request.user),
            "url": reverse("api-booking-players", args=[booking.pk]),
            "peopleUrl": reverse("api-people"),
        },
    }
    policy = policy_get()
    match = Match.objects.filter(booking=booking).first()
    if organises(booking, request.user) and not players_closed(booking, policy):
        initial = {"places": booking.court.places, "deadline": players_until(booking, policy)}
        context["match_form"] = match_form or MatchForm(instance=match, initial=initial)
    context["match"] = match
    context["match_full"] = match is not None and 1 + booking.players.count() >= match.places
    if shared(policy) or booking.guest_fees:
        context["shares"] = shares_shown(booking, policy=policy)
    # A series' organiser pays its dates together, from the series' section, when the policy says so.
    context["pays_now"] = pays_now(booking, request.user, policy=policy) and not pays_with_series(
        booking, request.user.pk, policy
    )
    if booking.user_id == request.user.pk and booking.status == Status.CONFIRMED:
        context["calendar"] = _calendar_links(request)
    if booking.series is not None:
        context["series"] = _series_section(booking, viewer=request.user, now=now, policy=policy)
    if request.user.is_admin:  # its part of the audit trail
        context["audit"] = list(audit_trail(target_type="booking", target_id=str(booking.pk))[:50])
    return render(request, "bookings/detail.html", context, status=400 if match_form else 200)


def invitation(request, token: str):
    """An invitation to play (docs/rules.md, Players): the game, with Accept (signed in) and Decline
    (for anyone holding the link); one answered, or whose booking ended, is no longer open."""
    player = invitation_by_token(token)
    if player is None:
        return render(request, "bookings/invitation.html", {"player": None}, status=404)
    if request.method == "POST" and request.POST.get("answer") == "decline":
        invitation_decline(player=player)
        return render(request, "bookings/invitation.html", {"player": player, "declined": True})
    if request.method == "POST" and request.POST.get("answer") == "accept":
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        try:
            invitation_accept(player=player, user=request.user)
        except Conflict as refusal:
            messages.error(request, str(refusal))
        else:
            messages.success(
                request, f"You play in this game. {player.booking.user.display_name} has been told."
            )
            return redirect("bookings:detail", player.booking_id)
    booking = player.booking
    context = {"player": player, "booking": booking, "players": playing(booking).select_related("user")}
    return render(request, "bookings/invitation.html", context)


@login_required
def booking_calendar(request, booking_id: int):
    """One confirmed booking of the signed-in person, as an .ics file to open in a calendar app."""
    booking = get_object_or_404(own_bookings(request.user), pk=booking_id, status=Status.CONFIRMED)
    response = HttpResponse(booking_ics(booking), content_type=ICS)
    response["Content-Disposition"] = f'attachment; filename="booking-{booking.pk}.ics"'
    return response


# Calendar apps fetch the feed without a session: its secret address is the only key. They are
# told to check for changes on every fetch (no_cache) and answered 304 while the ETag, a hash of
# the feed, still matches; no shared cache keeps it (private), so a replaced secret stops at once.
@require_safe
@cache_control(private=True, no_cache=True)
@conditional_page
def calendar_feed(request, secret: str):
    """A person's bookings that are or have been confirmed, as an iCalendar feed."""
    feed = get_object_or_404(CalendarFeed.objects.select_related("user"), secret=secret)
    calendar = bookings_calendar(calendar_bookings(user=feed.user), name=f"{settings.SITE_NAME} bookings")
    return HttpResponse(calendar.to_ical(), content_type=ICS)


@admin_required
def club_rules(request):
    """The booking policy, for admins to change."""
    form = PolicyForm(request.POST or None, instance=policy_get())
    if request.method == "POST" and form.is_valid():
        policy_update(by=request.user, **form.cleaned_data)
        messages.success(request, "The club's rules have been saved. They apply from the next booking.")
        return redirect("bookings:club-rules")
    sections = [(legend, [form[name] for name in names.split()]) for legend, names in POLICY_SECTIONS.items()]
    return render(request, "bookings/club_rules.html", {"form": form, "sections": sections})


@admin_required
def approvals(request):
    filters = BookingFilters(request.GET, offered="court date")
    return _list_page(
        request,
        booking_list(viewer=request.user, status=Status.PENDING, **filters.filters()),
        heading="Manage Booking Approvals",
        empty="No pending bookings available.",
        columns="number user court slots price date",
        actions=["approve", "reject"],
        filters=filters,
    )


@admin_required
def confirmed(request):
    """The club's bookings, confirmed ones unless the status filter says otherwise."""
    filters = BookingFilters(
        request.GET, offered="title email date_from date_to status", initial_status=Status.CONFIRMED
    )
    chosen = filters.filters()
    status = chosen.pop("status", Status.CONFIRMED)
    bookings = booking_list(
        viewer=request.user, status=status, email_contains=chosen.pop("email", ""), **chosen
    )
    return _list_page(
        request,
        with_refund_percent(with_payment(bookings), by=request.user, now=timezone.now()),
        heading="Confirmed Bookings",
        empty="No confirmed bookings found.",
        columns="number court date slots email paid status",
        # The club cancels a paid booking with a full refund (until it starts).
        actions=["cancel-confirmed"] if status == Status.CONFIRMED else [],
        filters=filters,
    )


def schedule(request):
    """The day sheet (docs/rules.md, The day sheet), for anyone."""
    filters = ScheduleFilters(request.GET, types=schedule_types(), today=timezone.localdate())
    day, type = filters.filters()
    # A club of hundreds of courts reads its sheet a page of courts at a time, as every list.
    page = page_of(request, schedule_courts(type), settings.SCHEDULE_COURTS_PER_PAGE)
    rules = rules_for(request.user)
    sheet = day_sheet(
        date=day,
        type=type,
        viewer=request.user,
        bookable_until=bookable_until(rules),
        courts=page,
        rules=rules,
    )

    def on(days: int) -> str:
        other_day = {"date": (day + timedelta(days=days)).isoformat(), "type": type}
        return "?" + urlencode(other_day | ({"page": page.number} if page.number > 1 else {}))

    is_admin = request.user.is_authenticated and request.user.is_admin
    # A held cell links to its booking's page.
    context = {
        "sheet": sheet,
        "page": page,
        "filters": filters,
        "booking_path": _path("bookings:detail"),
        # A program's cell links to its page.
        "program_path": _path("programs:detail"),
        "is_admin": is_admin,
        # The plan whose member prices the sheet shows, if any.
        "member_plan": rules.plan if rules.price_for else None,
        # A visitor's free cell leads to the login page and from there back to this sheet.
        "login_path": f"{reverse('accounts:login')}?{urlencode({'next': request.get_full_path()}, safe='/')}",
    }
    if request.user.is_authenticated and sheet.rows:
        # The schedule island books the free cells chosen, joins waitlists and, for admins, acts on
        # the cells (frontend/src/islands/schedule.tsx).
        courts = [
            {"id": row.court.pk, "label": row.court.label, "price": str(row.price), "peak": row.peak}
            for row in sheet.rows
        ]
        context["booking_props"] = {
            "date": day.isoformat(),
            "dateLabel": days.day(day),
            "bookingsUrl": reverse("api-bookings"),
            "seriesUrl": reverse("api-series"),
            "waitlistUrl": reverse("api-waitlist"),
            "waitlistEntryUrl": _path("api-waitlist-entry"),
            "courts": courts,
            "isAdmin": is_admin,
            "bookingUrls": {
                "approve": _path("api-booking-approve"),
                "reject": _path("api-booking-reject"),
                "cancel": _path("api-booking"),
            },
            "blocksUrl": reverse("api-blocks"),
            "blockUrl": _path("api-block"),
        }
    steps = {"previous_week": on(-7), "previous_day": on(-1), "next_day": on(1), "next_week": on(7)}
    return render(request, "bookings/schedule.html", context | steps)


def _path(name: str) -> str:
    """The address of a record's page or call, less its id: reversed once, not once per record."""
    return reverse(name, args=[0]).removesuffix("0")


@require_safe
def matches(request):
    """The open matches (docs/rules.md, Open matches), by day, court type and level, a page at a
    time; who plays is shown to those signed in."""
    filters = MatchFilters(request.GET, types=schedule_types())
    rows = open_matches(**filters.filters()).prefetch_related("booking__players__user")
    page = page_of(request, rows)
    return render(request, "bookings/matches.html", {"page": page, "filters": filters})


@login_required
def match_join_page(request, match_id: int):
    """Join: the person takes a place and sees the game (or pays their share, when each pays)."""
    if request.method != "POST":
        return redirect("bookings:matches")
    match = get_object_or_404(Match, pk=match_id)
    try:
        booking = match_join(match=match, user=request.user).booking
    except Conflict as refusal:
        messages.error(request, str(refusal))
        return redirect("bookings:matches")
    messages.success(request, f"You joined the match: {booking.court_name} on {days.day(booking.date)}.")
    if pays_now(booking, request.user, policy=policy_get()):
        return redirect("payments:pay", booking.pk)
    return redirect("bookings:detail", booking.pk)


@login_required
def booking_match(request, booking_id: int):
    """The organiser opens their booking as a match (or changes it, or closes it) from its page; a
    refused field is said under it."""
    booking = get_object_or_404(bookings_seen_by(request.user), pk=booking_id)
    if request.method != "POST":
        return redirect("bookings:detail", booking.pk)
    form = MatchForm(request.POST)
    try:
        if request.POST.get("close"):
            match_close(booking=booking, by=request.user)
            messages.success(request, "The match is closed: nobody else joins it.")
        elif form.is_valid():
            match_open(booking=booking, by=request.user, **form.cleaned_data)
            messages.success(
                request, "Your booking is an open match: people of the club can join it on Matches."
            )
        else:
            return _booking_page(request, booking.pk, match_form=form)
    except ValidationError as refused:
        for field, errors in refused.message_dict.items():
            form.add_error(MATCH_FIELDS.get(field, field), errors)
        return _booking_page(request, booking.pk, match_form=form)
    except (Conflict, Forbidden) as refusal:
        messages.error(request, str(refusal))
    return redirect("bookings:detail", booking.pk)


@login_required
def my_waitlist(request):
    """The signed-in person's places on waitlists (docs/rules.md, Waitlist), each to leave."""
    page = page_of(request, waitlist_of(user=request.user))
    entries = [
        (
            entry,
            book_path(entry),
            # The waitlist-action island's props (frontend/src/islands/waitlist-action.tsx).
            {
                "url": reverse("api-waitlist-entry", args=[entry.pk]),
                "offered": entry.status == WaitlistEntry.Status.OFFERED,
                "place": f"{entry.court.label}, {entry.slot}, {days.day(entry.date)}",
            },
        )
        for entry in page
    ]
    return render(request, "bookings/waitlist.html", {"page": page, "entries": entries})


def _series_section(booking: Booking, *, viewer: User, now: datetime, policy: Policy) -> dict[str, Any]:
    """What a booking's page shows of the series it is part of: its dates, and, for its organiser
    and the admins while the booking holds its slots and has not begun, cancelling it alone or
    with the rest."""
    series = cast(Series, booking.series)
    occurrences = list(series.occurrences.order_by("date", "id"))
    context: dict[str, Any] = {"series": series, "occurrences": occurrences}
    unpaid = sum(one.status == Booking.Status.APPROVED for one in occurrences)
    if unpaid and viewer.pk == series.user_id and paid_at_once(policy):
        context["pay_url"] = reverse("payments:pay-series", args=[series.pk])
    waiting = sum(one.status == Booking.Status.PENDING for one in occurrences)
    if viewer.is_admin and waiting:
        context["approve"] = {
            "action": "approve-series",
            "url": reverse("api-series-approve", args=[series.pk]),
            "label": f"Approve the {waiting} waiting" if waiting > 1 else "Approve the one waiting",
        }
    may_cancel = viewer.pk == series.user_id or viewer.is_admin
    if may_cancel and booking.status in Booking.HOLDING and booking.starts_at > now:
        rest = [one for one in occurrences if one.date >= booking.date and one.status in Booking.HOLDING]
        refunds = ""
        if any(one.status == Booking.Status.CONFIRMED for one in rest):
            refunds = (
                " Those paid are refunded in full."
                if viewer.is_admin
                else f" Those paid are refunded {policy.refund_percent}% ({policy.late_refund_percent}% "
                f"within {policy.cancel_cutoff_hours} hours of their start)."
            )
        count = f"the {len(rest)} bookings" if len(rest) > 1 else "this booking"
        context["cancel_one"] = {
            **booking_action(booking, f"cancel-{booking.status}"),
            "label": "Cancel this one",
        }
        context["cancel_rest"] = {
            "action": "cancel-series",
            "url": f"{reverse('api-series-one', args=[series.pk])}?dateFrom={booking.date}",
            "refund": f"Cancel {count} of this series from {days.day(booking.date)} on?{refunds}",
        }
    return context
