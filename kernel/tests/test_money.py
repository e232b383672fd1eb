from decimal import Decimal

import pytest

from kernel.money import discounted, money, round_money, to_cents


@pytest.mark.parametrize(
    ("amount", "rounded"), [("2.005", "2.01"), ("2.004", "2.00"), ("-2.005", "-2.01"), ("7", "7.00")]
)
def test_money_rounds_to_the_cent_with_halves_away_from_zero(amount, rounded):
    assert round_money(Decimal(amount)) == Decimal(rounded)


def test_cents_are_whole_and_rounded_first():
    assert to_cents(Decimal("19.995")) == 2000
    assert to_cents(Decimal("24")) == 2400


@pytest.mark.parametrize(
    ("price", "percent", "total"), [("30", 20, "24.00"), ("9.99", 15, "8.49"), ("5", 100, "0.00")]
)
def test_a_discount_is_a_whole_percent_off_rounded_to_the_cent(price, percent, total):
    assert discounted(Decimal(price), percent) == Decimal(total)


def test_the_template_filter_shows_the_same_rounding_with_thousands():
    assert money(Decimal("1234.5")) == "1,234.50"
