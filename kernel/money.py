"""Money, in one place: Decimal everywhere, rounded by one rule, whole cents only at the payment provider."""

from decimal import ROUND_HALF_UP, Decimal

CENT = Decimal("0.01")


def round_money(amount: Decimal) -> Decimal:
    """The one rounding rule for money: to the cent, halves away from zero."""
    return Decimal(amount).quantize(CENT, rounding=ROUND_HALF_UP)


def to_cents(amount: Decimal) -> int:
    """An amount in whole cents, as Stripe counts it."""
    return int(round_money(amount) * 100)


def from_cents(cents: int) -> Decimal:
    """An amount Stripe gives in whole cents."""
    return round_money(Decimal(cents) / 100)


def discounted(price: Decimal, percent: int) -> Decimal:
    """The price less a coupon's whole-percent discount, rounded to the cent."""
    return round_money(price * (100 - percent) / 100)


def money(amount: Decimal) -> str:
    """An amount as shown to people, without the currency sign: 1234.5 → '1,234.50'."""
    return f"{round_money(amount):,}"
