"""One way to write a day, a period of days and a moment, in the club's time zone
(kernel/templatetags/club_time.py)."""

from datetime import UTC, date, datetime

from kernel.days import day, days, when


def test_a_moment_is_written_in_the_club_s_time_zone(settings):
    settings.TIME_ZONE = "America/New_York"

    assert when(datetime(2026, 3, 4, 2, 5, tzinfo=UTC)) == "March 3, 2026, 9:05 PM"
    assert when(datetime(2026, 3, 4, 17, 0, tzinfo=UTC)) == "March 4, 2026, 12:00 PM"
    assert when(None) == ""


def test_a_day_is_its_date_and_a_moment_s_day_is_the_club_s(settings):
    settings.TIME_ZONE = "America/New_York"

    assert day(date(2026, 11, 24)) == "November 24, 2026"
    assert day(datetime(2026, 3, 4, 2, 5, tzinfo=UTC)) == "March 3, 2026"
    assert day(None) == ""


def test_a_period_is_written_as_its_first_and_last_days_in_the_club_s_time_zone(settings):
    settings.TIME_ZONE = "America/New_York"

    assert (
        days(datetime(2026, 12, 5, 15, tzinfo=UTC), datetime(2027, 1, 6, 2, tzinfo=UTC))
        == "December 5, 2026 – January 5, 2027"
    )
    assert days(datetime(2026, 12, 5, 15, tzinfo=UTC), None) == ""
