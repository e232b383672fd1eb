"""The reports page (docs/rules.md, Reports). Its figures come from several apps' selectors, so the
project owns it. The charts are drawn on the server (SVG and shaded tables), each with its figures
in a table, so the page needs no JavaScript."""

from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal

from django import forms
from django.shortcuts import render
from django.utils import timezone

from accounts.guards import admin_required
from accounts.selectors import new_members_by_month
from bookings.reports import WEEKDAYS, Funnel, Use, booking_funnel, occupancy, weekdays_between
from courts.models import WEEKDAY_NAMES
from kernel.days import DayField, PeriodFilters, moments, month_start, months_of
from memberships.reports import members_by_month
from payments.selectors import Kind, Takings, takings_by_month_and_kind, takings_by_program

# The weekdays the occupancy counts, by the query string's `days`.
DAYS = {
    "all": ("Every day", WEEKDAYS),
    "weekdays": ("Monday to Friday", range(1, 6)),
    "weekends": ("Saturday and Sunday", (6, 7)),
}
# Three years of months is as far as one page of charts reads well.
LONGEST = timedelta(days=3 * 366)


def _periods(today: date) -> list[tuple[str, date, date]]:
    """The periods a manager asks about most, as links: (name, first day, last day)."""
    this_month = month_start(today)
    return [
        ("Last 12 months", month_start(today, 11), today),
        ("This month", this_month, today),
        ("Last month", month_start(today, 1), this_month - timedelta(days=1)),
        ("This year", date(today.year, 1, 1), today),
    ]


class ReportFilters(PeriodFilters):
    """The report's period and days: the last 12 months and every day unless asked otherwise; a
    malformed field is said under it and the default stands in for it."""

    date_from = DayField(label="From", widget=forms.DateInput({"type": "date", "class": "input w-full"}))
    date_to = DayField(label="To", widget=forms.DateInput({"type": "date", "class": "input w-full"}))
    days = forms.ChoiceField(
        label="Occupancy on",
        choices=[(key, name) for key, (name, _) in DAYS.items()],
        widget=forms.Select({"class": "select w-full"}),
    )

    def __init__(self, data, *, today: date):
        _, first, last = _periods(today)[0]
        self.defaults = {"date_from": first, "date_to": last, "days": "all"}
        super().__init__({name: data.get(name) or str(value) for name, value in self.defaults.items()})

    def clean(self):
        cleaned = super().clean()
        first, last = cleaned.get("date_from"), cleaned.get("date_to")
        if first and last and last - first > LONGEST:
            self.add_error("date_to", "At most three years at a time.")
        return cleaned

    def chosen(self) -> tuple[date, date, str]:
        """The valid fields, the defaults for the others (for both days when either is not one, or
        they do not make a period)."""
        self.is_valid()
        values = {**self.defaults, **self.cleaned_data}
        if self.errors.keys() & {"date_from", "date_to"}:
            values |= {"date_from": self.defaults["date_from"], "date_to": self.defaults["date_to"]}
        return values["date_from"], values["date_to"], values["days"]


@dataclass(frozen=True)
class Bar:
    """A month's bar in a column chart, in the chart's own units (its viewBox)."""

    label: str
    figure: str
    x: int
    y: int
    height: int


# A column chart's size in its own units: each month's column, and the height of the tallest bar.
COLUMN, TALLEST = 40, 120


def _columns(values: list[tuple[date, Decimal | int, str]]) -> dict:
    """A column chart of (month, value, figure as shown): its bars and size. A month below zero (more
    refunded than taken) draws no bar; its figure is in the table."""
    top = max((value for _, value, _ in values), default=0) or 1
    bars = []
    for index, (month, value, figure) in enumerate(values):
        height = round(TALLEST * max(value, 0) / top)
        bars.append(Bar(f"{month:%b %Y}", figure, index * COLUMN + 6, TALLEST - height, height))
    return {"bars": bars, "width": max(len(bars), 1) * COLUMN, "height": TALLEST}


def _heat_rows(labels: list[tuple[object, str]], hours: list[int], uses: dict) -> list[dict]:
    """A heat map's rows: for each (key, label), its slots' use by hour."""
    return [
        {"label": label, "uses": [uses.get((key, hour), Use()) for hour in hours]} for key, label in labels
    ]


def _funnel(funnel: Funnel) -> dict:
    """The funnel's stages and outcomes as rows: (name, bookings, share of those requested)."""

    def rows(*parts: tuple[str, int]) -> list[tuple[str, int, int]]:
        return [
            (name, count, round(100 * count / funnel.requested) if funnel.requested else 0)
            for name, count in parts
        ]

    return {
        "requested": funnel.requested,
        "stages": rows(("Requested", funnel.requested), ("Approved", funnel.approved), ("Paid", funnel.paid)),
        "outcomes": rows(
            ("Confirmed (paid and kept)", funnel.confirmed),
            ("Rejected", funnel.rejected),
            ("Cancelled", funnel.cancelled),
            ("Expired", funnel.expired),
            ("Still waiting", funnel.waiting),
        ),
    }


@admin_required
def reports(request):
    today = timezone.localdate()
    filters = ReportFilters(request.GET, today=today)
    first, last, days = filters.chosen()
    used = occupancy(date_from=first, date_to=last, weekdays=DAYS[days][1])
    in_period = weekdays_between(first, last)
    weekdays = [(day, WEEKDAY_NAMES[day - 1]) for day in DAYS[days][1] if in_period[day]]
    start, end = moments(first, last)
    revenue = takings_by_month_and_kind(start=start, end=end)
    members = new_members_by_month(date_from=first, date_to=last)
    memberships = members_by_month(date_from=first, date_to=last)
    months = [
        {
            "month": month,
            "takings": sum(revenue.get(month, {}).values(), Takings()),
            "by_kind": [revenue.get(month, {}).get(kind, Takings()) for kind in Kind],
            "members": members.get(month, 0),
            "memberships": memberships.months[month],
        }
        for month in months_of(first, last)
    ]
    busiest = sorted(used.courts, key=lambda court: (-used.by_court[court.pk].booked, court.name))
    programs = takings_by_program(start=start, end=end)
    context = {
        "filters": filters,
        "first": first,
        "last": last,
        "days": days,
        "days_name": DAYS[days][0],
        "day_links": [(key, name) for key, (name, _) in DAYS.items()],
        "periods": _periods(today),
        "hours": used.hours,
        "by_court": _heat_rows(
            [(court.pk, court.name) for court in used.courts], used.hours, used.by_court_hour
        ),
        "by_weekday": _heat_rows(weekdays, used.hours, used.by_weekday_hour),
        "busiest": [{"court": court, "use": used.by_court[court.pk]} for court in busiest[:10]],
        "months": months,
        "revenue_total": sum((month["takings"] for month in months), Takings()),
        "revenue_total_by_kind": [
            sum((kinds.get(kind, Takings()) for kinds in revenue.values()), Takings()) for kind in Kind
        ],
        "kinds": list(Kind),
        "programs": programs,
        "programs_total": sum((one.takings for one in programs), Takings()),
        "plans": memberships.plans,
        "memberships_total": {
            "new": sum(month["memberships"].new for month in months),
            "ended": sum(month["memberships"].ended for month in months),
        },
        "revenue_chart": _columns(
            [(m["month"], m["takings"].net, f"${m['takings'].net:,.2f}") for m in months]
        ),
        "members_chart": _columns([(m["month"], m["members"], str(m["members"])) for m in months]),
        "members_total": sum(month["members"] for month in months),
        **_funnel(booking_funnel(date_from=first, date_to=last)),
    }
    return render(request, "dashboard/reports.html", context)
