"""The hours a person plays (docs/rules.md, Member prices and limits; Players): the slots held by the
bookings they make and by those they play in, against the hours a day, a week and at peak times that
their plan (or the policy) lets them hold. Playing through someone else's booking counts like one's
own, and a refusal names that booking."""

from collections.abc import Iterable
from datetime import date as Date
from datetime import timedelta
from typing import Any, NamedTuple

from django.db.models import Q

from accounts.models import User, public_name
from courts.models import Court
from courts.pricing import peak_slots
from courts.selectors import courts_all, courts_with_price_bands
from kernel.days import day
from kernel.slots import slots_label

from .rules import Limit, PersonRules
from .selectors import held_slots, played_in
from .slots import slot_hours


class Held(NamedTuple):
    """A slot a person holds, and the organiser's name when its booking is someone else's."""

    slot: str
    booking_id: int
    court_id: int
    court_name: str
    date: Date
    organiser: str | None


def _held(user: User, **filters: Any) -> list[Held]:
    """The slots held now, on the days `filters` choose, by the bookings `user` makes or plays in
    (those by their ids, as in selectors.own_and_played)."""
    played = played_in(user, **filters)
    rows = held_slots(**filters).filter(Q(booking__user=user) | Q(booking_id__in=played))
    rows = rows.order_by("date", "booking_id", "slot")
    found = rows.values_list(
        "slot",
        "booking_id",
        "court_id",
        "booking__court_name",
        "date",
        "booking__user_id",
        "booking__user__name",
    )
    return [
        Held(
            slot,
            booking,
            court,
            name,
            on,
            None if organiser == user.pk else public_name(organiser_name),
        )
        for slot, booking, court, name, on, organiser, organiser_name in found
    ]


def _at_peak(held: list[Held]) -> list[Held]:
    """Those of the `held` slots in a peak band of their court (as the bands are now)."""
    ids = {one.court_id for one in held}
    courts = {court.pk: court for court in courts_with_price_bands(courts_all().filter(pk__in=ids))}
    return [one for one in held if peak_slots(courts[one.court_id], one.date, [one.slot])]


def _counting(held: Iterable[Held], *, whose: str) -> str:
    """The bookings of others among `held`, named: playing in them counts."""
    others: dict[int, list[Held]] = {}
    for one in held:
        if one.organiser is not None:
            others.setdefault(one.booking_id, []).append(one)
    if not others:
        return ""
    named = "; ".join(
        f"{slots[0].organiser}'s booking of {slots[0].court_name} on {day(slots[0].date)} at "
        f"{slots_label([one.slot for one in slots])}"
        for slots in others.values()
    )
    return f" (counting {named}, which {whose} play in)"


def hours_refusal(
    *,
    person: User,
    rules: PersonRules,
    court: Court,
    date: Date,
    slots: list[str],
    name: str = "",
    joining: bool = False,
) -> str:
    """Why `slots` of `court` on `date` would take `person` (whose `rules` they are) past the hours
    they may play, or "". Addressed to them, or, given their `name`, to someone putting them on a
    booking; `joining`: the slots are another's booking, which they would join, not choose."""
    monday = date - timedelta(days=date.weekday())
    week = (monday, monday + timedelta(days=6))
    whole = slot_hours(slots)
    # Each limit: what it counts, where, what to do, which held slots, and whether peak ones alone.
    checks: list[tuple[Limit, str, str, str, dict[str, Any], bool]] = [
        (
            rules.hours_a_day,
            "courts a day",
            f"on {day(date)}",
            "choose fewer slots or another day.",
            {"date": date},
            False,
        ),
        (
            rules.hours_a_week,
            "courts a week",
            f"in the week of {day(monday)}",
            "choose fewer slots or another week.",
            {"date__range": week},
            False,
        ),
        (
            rules.peak_hours_a_week,
            "courts at peak times a week",
            f"in the week of {day(monday)}",
            "choose fewer slots, or slots outside peak times.",
            {"date__range": week},
            True,
        ),
    ]
    for limit, of, where, then, filters, peak in checks:
        adding = slot_hours(peak_slots(court, date, slots)) if peak else whole
        if limit.value is None or not adding:
            continue
        counted = _held(person, **filters)
        if peak:
            counted = _at_peak(counted)
        held = slot_hours(one.slot for one in counted)
        if held + adding <= limit.value:
            continue
        if held:
            whose = "they" if name else "you"
            reason = f"{whose} hold {held:g} {where} already{_counting(counted, whose=whose)}"
        else:
            reason, then = f"these slots make {adding:g}", "choose fewer slots."
        if joining:
            then = f"{name or 'you'} cannot play in this one."
        return f"{limit.holds(name)} hours of {of}, and {reason}: {then}"
    return ""
