import pytest
from django.core.exceptions import ValidationError

from courts.models import validate_image_location, validate_slots


@pytest.mark.parametrize(
    "value", ["https://example.com/court.jpg", "http://club.test/a.png", "/static/img/a.svg"]
)
def test_an_image_is_a_web_url_or_a_path_on_this_site(value):
    validate_image_location(value)


@pytest.mark.parametrize(
    "value", ["court.jpg", "//evil.example/a.png", "javascript:alert(1)", "ftp://x/a.png"]
)
def test_other_image_values_are_refused(value):
    with pytest.raises(ValidationError):
        validate_image_location(value)


def test_ordered_non_overlapping_slots_are_valid():
    validate_slots(["08:00-09:00", "09:00-10:00", "18:30-20:00"])


@pytest.mark.parametrize(
    ("slots", "message"),
    [
        (["8-9"], "is not a time range"),
        (["09:00-08:00"], "is not a time range"),
        (["24:00-25:00"], "is not a time range"),
        (["\u0660\u0668:\u0660\u0660-\u0660\u0669:\u0660\u0660"], "is not a time range"),  # other digits
        (["08:00-10:00", "09:00-11:00"], "must not overlap"),
        ("08:00-09:00", "must be a list"),
        ([8], "must be a list"),
    ],
)
def test_malformed_or_overlapping_slots_are_refused(slots, message):
    with pytest.raises(ValidationError, match=message):
        validate_slots(slots)
