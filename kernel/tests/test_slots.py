from datetime import UTC, date, datetime, time
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from kernel.slots import Slot, slot_ranges, slots_html, slots_label


def test_a_slot_is_read_from_its_label_and_written_back_the_same():
    slot = Slot.parse("08:30-10:00")
    assert (slot.start, slot.end) == (time(8, 30), time(10, 0))
    assert str(slot) == "08:30-10:00"


@pytest.mark.parametrize(
    "text",
    [
        "8-9",
        "08:00-08:00",
        "09:00-08:00",
        "24:00-25:00",
        "08:00 - 09:00",
        "\u0660\u0668:\u0660\u0660-09:00",
        8,
    ],
)
def test_a_text_that_names_no_slot_is_refused_saying_what_is_expected(text):
    with pytest.raises(ValueError, match=r"is not a time range like '08:00-09:00'"):
        Slot.parse(text)


def test_slots_order_by_their_start_then_their_end_and_are_equal_as_values():
    labels = ["18:00-19:00", "08:00-10:00", "08:00-09:00"]
    assert [str(slot) for slot in sorted(map(Slot.parse, labels))] == [
        "08:00-09:00",
        "08:00-10:00",
        "18:00-19:00",
    ]
    assert Slot.parse("08:00-09:00") == Slot(time(8), time(9))
    assert len({Slot.parse("08:00-09:00"), Slot(time(8), time(9))}) == 1


def test_a_slot_lasts_its_clock_time_in_hours():
    assert Slot.parse("08:00-09:30").hours == 1.5
    assert Slot.parse("23:00-23:59").hours == pytest.approx(59 / 60)


def test_a_slot_starts_and_ends_on_a_day_in_the_clubs_time_zone_or_the_one_given(settings):
    slot = Slot.parse("08:00-09:00")
    day = date(2026, 7, 1)
    assert slot.starts_at(day) == datetime(2026, 7, 1, 8, tzinfo=timezone.get_current_timezone())
    assert slot.ends_at(day, UTC) == datetime(2026, 7, 1, 9, tzinfo=UTC)
    assert slot.starts_at(day, ZoneInfo("America/New_York")) == datetime(2026, 7, 1, 12, tzinfo=UTC)


@pytest.mark.parametrize(
    ("slots", "ranges"),
    [
        (["09:00-10:00", "10:00-11:00", "11:00-12:00"], ["09:00–12:00"]),
        (["09:00-10:00", "10:00-11:00", "14:00-15:00"], ["09:00–11:00", "14:00–15:00"]),
        (["14:00-15:00", "09:00-10:00", "10:00-11:00"], ["09:00–11:00", "14:00–15:00"]),
        (["09:00-10:00", "10:30-11:30"], ["09:00–10:00", "10:30–11:30"]),
        (["08:00-09:30", "09:30-10:00"], ["08:00–10:00"]),
        (["09:00-10:00", "09:00-10:00"], ["09:00–10:00"]),
        (["09:00-10:30", "10:00-11:00"], ["09:00–11:00"]),
        (["22:00-23:00", "23:00-23:59"], ["22:00–23:59"]),
        (["09:00-10:00"], ["09:00–10:00"]),
        ("09:00-10:00", ["09:00–10:00"]),
        ([], []),
        (["09:00-10:00", "all day"], ["09:00–10:00", "all day"]),
    ],
)
def test_slots_that_follow_on_read_as_one_range_and_others_stay_apart(slots, ranges):
    assert slot_ranges(slots) == ranges


def test_the_slots_as_text_are_their_ranges_joined_by_commas_or_n_a_when_there_are_none():
    assert slots_label(["09:00-10:00", "10:00-11:00", "14:00-15:00"]) == "09:00–11:00, 14:00–15:00"
    assert slots_label([]) == "N/A"


def test_the_slots_as_html_keep_each_range_whole_and_escape_what_is_not_a_slot():
    html = slots_html(["09:00-10:00", "10:00-11:00", "14:00-15:00", "<b>"])
    assert html == (
        '<span style="white-space:nowrap">09:00–11:00</span>, '
        '<span style="white-space:nowrap">14:00–15:00</span>, '
        '<span style="white-space:nowrap">&lt;b&gt;</span>'
    )
    assert slots_html([]) == "N/A"
